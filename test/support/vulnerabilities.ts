import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One detection as an adapter writes it into `vulnerabilities[]`, its id computed here as docs/adapters.md says. */
export function detection(source: string, finding: string, resource: string, severity: string, detected: string, kind?: 'configuration') {
  return {
    id: `VULN-${createHash('sha256').update(`${source}\n${finding}\n${resource}`).digest('hex').slice(0, 20)}`,
    source,
    finding_id: finding,
    resource,
    title: `${finding} found`,
    scanner_severity: severity,
    detected_at: detected,
    ...(kind ? { kind } : {}),
  };
}

/** A normalized report of one result and the detections given. */
export const vulnerabilityReport = (generated: string, vulnerabilities: unknown[]) => ({
  schema_version: '1',
  generated_at: generated,
  source: { tool: 'Trivy' },
  results: [{ ksi_id: 'KSI-SI-02', status: 'FAIL' }],
  vulnerabilities,
});

/** A group's tracking id, computed here: `VG-` and 16 hex digits of the SHA-256 of its finding id. */
export const trackingIdOf = (finding: string) => `VG-${createHash('sha256').update(finding).digest('hex').slice(0, 16)}`;

/** The three detections of the vuln e2e tests: a KEV CVE on an internet-reachable host, a CVE on a database, a configuration check. */
export const SAMPLE_DETECTIONS = {
  API: detection('Trivy', 'CVE-2026-1000', 'api.example.com', 'CRITICAL', '2026-12-07T00:00:00Z'),
  DB: detection('Trivy', 'CVE-2026-2000', 'db-1', 'HIGH', '2026-12-07T00:00:00Z'),
  MFA: detection('Prowler', 'iam_root_mfa_enabled', 'arn:aws:iam::1:root', 'critical', '2026-12-07T00:00:00Z', 'configuration'),
};

/** svc.config.json of a Class D 20x offering with an evaluation policy, and the KEV catalog it names (CVE-2026-1000 due 2026-12-20). */
export function writeVulnerabilityConfig(dir: string): void {
  writeFileSync(
    join(dir, 'svc.config.json'),
    JSON.stringify({
      fedramp: { type: '20x', class: 'D', package_uri: 'https://trust.example.com/fedramp/cpo.json' },
      vulnerabilities: { kev_catalog: 'kev.json', policy: { internet_reachable: ['*.example.com'] } },
    }),
  );
  writeFileSync(
    join(dir, 'kev.json'),
    JSON.stringify({ catalogVersion: '2026.12.06', vulnerabilities: [{ cveID: 'CVE-2026-1000', dueDate: '2026-12-20', vendorProject: 'Example' }] }),
  );
}
