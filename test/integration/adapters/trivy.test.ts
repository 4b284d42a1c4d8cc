import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections, type Detection } from '../../../src/domain/vulnerabilities/detection';
import { trivy } from '../../../src/infrastructure/scans/vendors/trivy';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('trivy', 'misconfigurations_and_secrets.json');
const PROVENANCE = provenanceOf('trivy');
const NOW = '2026-11-21T00:00:00Z';

const { write } = scratchFolder('svc-trivy-');

const statusOf = (report: { results: { ksi_id: string; status: string }[] }, ksi: string) => report.results.find((r) => r.ksi_id === ksi)?.status;

interface Row {
  Severity: string;
  Status?: string;
}

describe('Trivy adapter on the real filesystem-scan sample', () => {
  const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
    Results: { Target: string; Vulnerabilities?: Row[]; Misconfigurations?: Row[]; Secrets?: Row[] }[];
  };
  const findings = raw.Results.flatMap((r) => [
    ...(r.Vulnerabilities ?? []),
    ...(r.Misconfigurations ?? []).filter((m) => m.Status === 'FAIL'),
    ...(r.Secrets ?? []),
  ]);
  const targets = new Set(raw.Results.map((r) => r.Target));

  it('reads every vulnerability, failed misconfiguration and secret as a failed check, plus one scan check per target', async () => {
    const scan = await readWith(trivy, SAMPLE);
    expect([findings.length, targets.size]).toEqual([5, 3]);
    expect(scan.checks).toHaveLength(findings.length + targets.size);
    expect(outcomes(scan.checks)).toEqual({ fail: findings.length, pass: targets.size });
    const severe = findings.filter((f) => ['CRITICAL', 'HIGH'].includes(f.Severity)).length;
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'must')).toHaveLength(severe);
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'should')).toHaveLength(findings.length - severe);
  });

  it('has the tool but no version or time, since this Trivy wrote neither', async () => {
    const scan = await readWith(trivy, SAMPLE);
    expect(scan).toMatchObject({ vendor: 'trivy', tool: 'Trivy' });
    expect(scan.version).toBeUndefined();
    expect(scan.observed_at).toBeUndefined();
  });

  it('maps vulnerabilities, misconfigurations and secrets to their controls', async () => {
    const scan = await readWith(trivy, SAMPLE);
    expect(scan.checks.find((c) => c.id === 'CVE-2021-33503')).toMatchObject({
      outcome: 'fail',
      criticality: 'must',
      severity: 'HIGH',
      controls: ['ra-5', 'si-2'],
      resource: 'requirements.txt: urllib3 1.26.3',
    });
    expect(scan.checks.find((c) => c.id === 'DS002')).toMatchObject({ criticality: 'must', controls: ['cm-6', 'cm-7', 'ac-6'], resource: 'Dockerfile' });
    const secret = scan.checks.find((c) => c.id === 'github-pat' && c.resource === 'Dockerfile:24');
    expect(secret).toMatchObject({ severity: 'CRITICAL', controls: ['ia-5', 'sc-28'] });
    expect(secret?.details).not.toContain('GITHUB_PAT');
    expect(scan.checks.find((c) => c.id === 'scan:Dockerfile')).toMatchObject({
      outcome: 'pass',
      resource: 'Dockerfile',
      controls: ['cm-6', 'cm-7', 'ia-5', 'sc-28'],
    });
  });

  it('fails the KSIs of the high and critical findings', async () => {
    const { report, summary } = reportFromScan(await readWith(trivy, SAMPLE), PROVENANCE, NOW);
    expect(statusOf(report, 'KSI-RA-05')).toBe('FAIL');
    expect(statusOf(report, 'KSI-IA-05')).toBe('FAIL');
    expect(statusOf(report, 'KSI-AC-06')).toBe('FAIL');
    expect(summary.unmapped_checks).toEqual([]);
  });
});

describe('Trivy adapter on the other forms Trivy writes', () => {
  const image = {
    SchemaVersion: 2,
    CreatedAt: '2024-06-01T12:00:00.123456+02:00',
    ArtifactName: 'registry.example/app:1.0',
    ArtifactType: 'container_image',
    Trivy: { Version: '0.58.1' },
    Results: [
      {
        Target: 'registry.example/app:1.0 (alpine 3.19.1)',
        Class: 'os-pkgs',
        Vulnerabilities: [
          { VulnerabilityID: 'CVE-2024-0001', PkgName: 'openssl', InstalledVersion: '3.1.4-r0', Severity: 'LOW' },
          { VulnerabilityID: 'CVE-2024-0002', PkgName: 'busybox', InstalledVersion: '1.36.1-r15', Severity: 'UNKNOWN' },
        ],
      },
      { Target: 'app/package-lock.json', Class: 'lang-pkgs', Type: 'npm' },
      {
        Target: 'deploy/main.tf',
        Class: 'config',
        Misconfigurations: [
          { ID: 'AVD-AWS-0086', Title: 'S3 bucket does not have encryption enabled', Severity: 'HIGH', Status: 'PASS' },
          {
            ID: 'AVD-AWS-0107',
            Title: 'Security group rule allows ingress from public internet',
            Severity: 'CRITICAL',
            Status: 'FAIL',
            CauseMetadata: { StartLine: 14 },
          },
          { ID: 'AVD-AWS-0089', Title: 'Bucket has logging disabled', Severity: 'MEDIUM', Status: 'EXCEPTION' },
        ],
      },
      {
        Target: 'app/.env',
        Class: 'secret',
        Secrets: [{ RuleID: 'aws-secret-access-key', Category: 'AWS', Severity: 'CRITICAL', StartLine: 2, Match: 'AWS_SECRET_ACCESS_KEY=****' }],
      },
      { Target: 'app/package-lock.json', Class: 'license', Licenses: [{ Name: 'AGPL-3.0', Severity: 'HIGH', Category: 'forbidden', PkgName: 'some-lib' }] },
    ],
  };

  it('reads vulnerabilities by severity, misconfiguration statuses, secrets and licenses', async () => {
    const scan = await readWith(trivy, write('image.json', image));
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality])).toEqual([
      ['CVE-2024-0001', 'fail', 'should'],
      ['CVE-2024-0002', 'not-applicable', 'should'], // UNKNOWN severity decides nothing
      ['AVD-AWS-0086', 'pass', 'must'],
      ['AVD-AWS-0107', 'fail', 'must'],
      ['AVD-AWS-0089', 'omitted', 'should'],
      ['aws-secret-access-key', 'fail', 'must'],
      ['AGPL-3.0', 'fail', 'must'],
      ['scan:registry.example/app:1.0 (alpine 3.19.1)', 'pass', 'should'],
      ['scan:app/package-lock.json', 'pass', 'should'],
      ['scan:deploy/main.tf', 'pass', 'should'],
      ['scan:app/.env', 'pass', 'should'],
    ]);
    expect(scan).toMatchObject({ version: '0.58.1', observed_at: '2024-06-01T10:00:00.123Z' });
  });

  it('adds the controls of misconfiguration keywords, and CM-10 for licenses', async () => {
    const scan = await readWith(trivy, write('image.json', image));
    const byId = (id: string) => scan.checks.find((c) => c.id === id);
    expect(byId('AVD-AWS-0086')?.controls).toEqual(['cm-6', 'cm-7', 'sc-28', 'sc-13']);
    expect(byId('AVD-AWS-0107')).toMatchObject({ controls: ['cm-6', 'cm-7', 'sc-7'], resource: 'deploy/main.tf:14' });
    expect(byId('AVD-AWS-0089')?.controls).toEqual(['cm-6', 'cm-7', 'au-2', 'au-12']);
    expect(byId('AGPL-3.0')).toMatchObject({ controls: ['cm-10'], resource: 'app/package-lock.json: some-lib' });
    expect(byId('scan:app/package-lock.json')?.controls).toEqual(['ra-5', 'si-2', 'cm-10']);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect(statusOf(report, 'KSI-RA-05')).toBe('WARN'); // one LOW vulnerability
    expect(statusOf(report, 'KSI-SC-28')).toBe('FAIL'); // the secret
    expect(statusOf(report, 'KSI-SC-13')).toBe('PASS'); // the encryption check passed
    expect(statusOf(report, 'KSI-AU-02')).toBeUndefined(); // only a waived check
  });

  it('shows a scan that found nothing as PASS on the vulnerability KSIs', async () => {
    const scan = await readWith(trivy, write('clean.json', { SchemaVersion: 2, ArtifactName: 'alpine:3.19', ArtifactType: 'container_image' }));
    expect(scan.checks).toEqual([expect.objectContaining({ id: 'scan:alpine:3.19', outcome: 'pass', resource: 'alpine:3.19', controls: ['ra-5', 'si-2'] })]);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect([statusOf(report, 'KSI-RA-05'), statusOf(report, 'KSI-SI-02')]).toEqual(['PASS', 'PASS']);
  });
});

describe('Trivy adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const detect = async (path: string) => detectionsOf(await readWith(trivy, path), NOW, new PureJsHashing());
  const kinds = (detections: Detection[]) => detections.map((d) => d.kind ?? 'vulnerability');

  it('makes one detection per vulnerability, failed misconfiguration and secret of the real sample', async () => {
    const detections = await detect(SAMPLE);
    // Counted by hand with jq on the sample: [.Results[] | (.Vulnerabilities // [])[]] | length = 2 (both urllib3),
    // [.Results[] | (.Misconfigurations // [])[] | select(.Status == "FAIL")] | length = 1 (DS002),
    // [.Results[] | (.Secrets // [])[]] | length = 2 (github-pat in Dockerfile:24 and secret.txt:1): 5, no two alike.
    expect(detections).toHaveLength(5);
    expect(kinds(detections)).toEqual(['vulnerability', 'vulnerability', 'configuration', 'vulnerability', 'vulnerability']);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'Trivy',
      finding_id: 'CVE-2021-33503',
      resource: 'requirements.txt: urllib3 1.26.3',
      title: 'python-urllib3: ReDoS in the parsing of authority part of URL',
      scanner_severity: 'HIGH',
      cvss: 7.5, // CVSS.nvd.V3Score
      fix_available: true, // FixedVersion 1.26.5
      detected_at: NOW, // this Trivy wrote no CreatedAt, and PublishedDate is no detection time
    });
    expect(detections[1]).toMatchObject({ finding_id: 'CVE-2021-28363', cvss: 6.5, fix_available: true });
    expect(detections[2]).toEqual({
      id: expect.stringMatching(ID),
      source: 'Trivy',
      finding_id: 'DS002',
      resource: 'Dockerfile',
      title: "Image user should not be 'root'",
      scanner_severity: 'HIGH',
      detected_at: NOW,
      kind: 'configuration',
    });
    expect(detections.slice(3).map((d) => [d.finding_id, d.resource, d.cvss, d.fix_available])).toEqual([
      ['github-pat', 'Dockerfile:24', undefined, undefined],
      ['github-pat', 'secret.txt:1', undefined, undefined],
    ]);
    const ids = detections.map((d) => d.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await detect(SAMPLE)).map((d) => d.id)).toEqual(ids);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });

  it('makes a finding of UNKNOWN severity a detection too, keeping the word, and keeps the advisory Trivy names beside the CVE', async () => {
    // The real sample's first row as Trivy writes it when its source rates it UNKNOWN and names its advisory
    // (VendorIDs): GHSA-q2q7-5pp4-w6pg is the row's own GitHub advisory, among its References.
    const raw = JSON.parse(readFileSync(SAMPLE, 'utf8'));
    const row = raw.Results.flatMap((r: { Vulnerabilities?: Record<string, unknown>[] }) => r.Vulnerabilities ?? [])[0];
    expect([row.VulnerabilityID, (row.References as string[]).includes('https://github.com/advisories/GHSA-q2q7-5pp4-w6pg')]).toEqual(['CVE-2021-33503', true]);
    Object.assign(row, { Severity: 'UNKNOWN', VendorIDs: ['GHSA-q2q7-5pp4-w6pg'] });
    const scan = await readWith(trivy, write('unknown.json', raw));
    expect(scan.checks.find((c) => c.id === 'CVE-2021-33503')).toMatchObject({ outcome: 'not-applicable', severity: 'UNKNOWN' }); // decides nothing for its KSI
    const detections = detectionsOf(scan, NOW, new PureJsHashing());
    expect(detections).toHaveLength(5); // as many as the real sample's: the UNKNOWN row still one of them
    expect(detections[0]).toMatchObject({ finding_id: 'CVE-2021-33503', aliases: ['GHSA-q2q7-5pp4-w6pg'], scanner_severity: 'UNKNOWN', cvss: 7.5 });
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
    // The image form's UNKNOWN busybox row, and a misconfiguration failed at UNKNOWN severity, are detections as well.
    const image = await detect(
      write('image-unknown.json', {
        SchemaVersion: 2,
        ArtifactName: 'app:1',
        Results: [
          {
            Target: 'app:1 (alpine 3.19.1)',
            Class: 'os-pkgs',
            Vulnerabilities: [{ VulnerabilityID: 'CVE-2024-0002', PkgName: 'busybox', InstalledVersion: '1.36.1-r15', Severity: 'UNKNOWN' }],
          },
          {
            Target: 'main.tf',
            Class: 'config',
            Misconfigurations: [
              { ID: 'AVD-X-1', Title: 'x', Severity: 'UNKNOWN', Status: 'FAIL' },
              { ID: 'AVD-X-2', Title: 'y', Severity: 'UNKNOWN', Status: 'PASS' },
            ],
          },
        ],
      }),
    );
    expect(image.map((d) => [d.finding_id, d.scanner_severity, d.kind])).toEqual([
      ['CVE-2024-0002', 'UNKNOWN', undefined],
      ['AVD-X-1', 'UNKNOWN', 'configuration'],
    ]);
  });

  it('reads a fix from the Status Trivy 0.44+ writes, else from FixedVersion, and the CVSS v3 score by source', async () => {
    const row = (id: string, more: Record<string, unknown>) => ({
      VulnerabilityID: id,
      PkgName: 'openssl',
      InstalledVersion: '3.1.4-r0',
      Severity: 'HIGH',
      ...more,
    });
    const path = write('status.json', {
      SchemaVersion: 2,
      ArtifactName: 'app:1',
      Results: [
        {
          Target: 'app:1 (alpine 3.19.1)',
          Class: 'os-pkgs',
          Vulnerabilities: [
            row('CVE-1', { Status: 'fixed', FixedVersion: '3.1.5-r0', SeveritySource: 'redhat', CVSS: { redhat: { V3Score: 8.1 }, nvd: { V3Score: 7.5 } } }),
            row('CVE-2', { Status: 'affected', SeveritySource: 'redhat', CVSS: { ghsa: { V3Score: 5.3 }, redhat: { V3Score: 6.1 } } }),
            row('CVE-3', { Status: 'will_not_fix', CVSS: { ghsa: { V2Score: 5 }, redhat: { V3Score: 4.4 } } }),
            row('CVE-4', { Status: 'under_investigation', CVSS: { nvd: { V2Score: 5, V3Score: 11 } } }),
            row('CVE-5', { FixedVersion: '' }),
          ],
        },
        { Target: 'package-lock.json', Class: 'license', Licenses: [{ Name: 'AGPL-3.0', Severity: 'HIGH', PkgName: 'some-lib' }] },
      ],
    });
    const detections = await detect(path);
    expect(detections.map((d) => [d.finding_id, d.cvss, d.fix_available, d.kind])).toEqual([
      ['CVE-1', 7.5, true, undefined], // NVD's score wins over the severity source's
      ['CVE-2', 6.1, false, undefined], // no NVD score: the SeveritySource's
      ['CVE-3', 4.4, false, undefined], // any source's V3Score; a V2Score is never taken
      ['CVE-4', undefined, undefined, undefined], // a score above 10 is no CVSS score; under_investigation says nothing of a fix
      ['CVE-5', undefined, false, undefined], // no Status, no fixed version: no fix
      ['AGPL-3.0', undefined, undefined, 'configuration'],
    ]);
  });
});

describe('Trivy adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place of a report of the wrong shape', async () => {
    const path = write('shape.json', { SchemaVersion: 2, ArtifactName: '.', Results: { Target: 'x' } });
    await expect(readWith(trivy, path)).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'invalid-scan',
      message: `${path}: Results: expected a list of results; this is not Trivy output as svc knows it (docs/adapters.md)`,
    });
  });

  it('refuses a misconfiguration status it does not know and a finding without its id', async () => {
    const status = write('status.json', {
      SchemaVersion: 2,
      ArtifactName: '.',
      Results: [{ Target: 'a', Misconfigurations: [{ ID: 'DS001', Severity: 'LOW', Status: 'MAYBE' }] }],
    });
    await expect(readWith(trivy, status)).rejects.toMatchObject({
      message: expect.stringContaining('Results[0].Misconfigurations[0].Status: "MAYBE" is not a Trivy status'),
    });
    const noId = write('noid.json', { SchemaVersion: 2, ArtifactName: '.', Results: [{ Target: 'a', Vulnerabilities: [{ Severity: 'LOW' }] }] });
    await expect(readWith(trivy, noId)).rejects.toMatchObject({ message: expect.stringContaining('Results[0].Vulnerabilities[0].VulnerabilityID: missing') });
  });
});
