import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './run-svc';
import { detection } from './vulnerabilities';
import rulesData from '../../src/domain/fedramp/data/cr26-rules.json';
import type { NRating } from '../../src/domain/vulnerabilities/lifecycle';
import type { VdrDocument } from '../../src/domain/vulnerabilities/vulnerability-report-documents';

const CPO = JSON.parse(readFileSync(join(FIXTURES, 'fedramp', 'cpo-minimal.json'), 'utf8'));

/** The subject of the agency CA the trust-center tests make, as the profile's issuers names it (RFC 4514). */
export const AGENCY_CA_SUBJECT = '/C=US/O=Department of Examples/OU=PKI, Issuing/CN=Examples Issuing CA';
export const AGENCY_ISSUER = 'CN=Examples Issuing CA,OU=PKI\\, Issuing,O=Department of Examples,C=US';

export const TRUST_CENTER_REPOSITORY = {
  repositoryType: ['Trust Center'],
  url: 'https://trust.example.com/fedramp/public',
  repositoryDescription: 'The svc-api trust center.',
  authenticationRequired: false,
};

/**
 * The profile of the trust-center tests: a Class B 20x offering with two agencies. The Department of Examples is
 * recognized by the Kerberos realm SVC.TEST, the issuer AGENCY_ISSUER and the domains examples.gov and EXAMPLES; the
 * Agency of Samples by the domain samples.gov.
 */
export const TRUST_PROFILE = {
  type: '20x',
  class: 'B',
  fedramp_id: 'FR2611250001',
  package_uri: 'https://trust.example.com/fedramp/cpo.json',
  evidence_base_uri: 'https://trust.example.com/fedramp',
  accountable_official: { name: 'Ada Example', title: 'CISO', email: 'ciso@example.com' },
  agencies: [
    { name: 'Department of Examples', realms: ['SVC.TEST'], domains: ['examples.gov', 'EXAMPLES'], issuers: [AGENCY_ISSUER] },
    { name: 'Agency of Samples', domains: ['samples.gov'] },
  ],
  cpo: {
    serviceIdentification: { ...CPO.serviceIdentification, fedRampPackageId: undefined },
    serviceProperties: { serviceType: ['SaaS'], deploymentModel: 'Public Cloud', trustCenter: TRUST_CENTER_REPOSITORY },
    contactInformation: [...CPO.contactInformation, { contactType: 'Primary', contactName: 'Pat Primary', contactEmail: 'pat@example.com' }],
    assessor: { name: 'Example Assessors LLC', assessorID: '123456' },
    certifiedServices: [{ serviceName: 'Case Management', serviceDescription: 'Cases and workflows.', dateAvailable: '2026-01-15' }],
  },
};

/** The service identification the CPO fixture gives (the profile drops its FedRAMP id, which svc fills). */
export const FIXTURE_IDENTIFICATION = CPO.serviceIdentification as Record<string, unknown>;

/** A Prowler run of one KSI on `day`, with a configuration vulnerability per failed check. */
export function prowlerReport(day: string, status: 'PASS' | 'FAIL', failed: string[]) {
  return {
    schema_version: '1',
    generated_at: `${day}T08:00:00Z`,
    source: { tool: 'Prowler', version: '5.0.0' },
    results: [{ ksi_id: 'KSI-IAM-APM', status, observed_at: `${day}T08:00:00Z`, checks: [{ id: 'iam_root_mfa_enabled', status }] }],
    vulnerabilities: failed.map((check) => detection('Prowler', check, 'arn:aws:iam::1:root', 'high', `${day}T08:00:00Z`, 'configuration')),
  };
}

/** FedRAMP's names of the rules and KSIs, by id: what the trust center's pages show beside the ids. */
export const RULE_NAMES = new Map([...rulesData.rules, ...rulesData.ksis].map((r) => [r.id, r.name]));

/** Text that must reach a page as text: markup, an ampersand, both quotes. */
export const HOSTILE_TEXT = `<script>alert(1)</script> & "quoted" 'single'`;

const STATUSES = ['Implemented', 'Partially Implemented', 'Not Implemented', undefined] as const;
const hexOf = (seed: string) => createHash('sha256').update(seed).digest('hex');
const days = (total: number, implemented: number, partially: number, notImplemented: number) => ({
  days: total,
  implemented,
  noEvidence: total - implemented - partially - notImplemented,
  notImplemented,
  partially,
});

/**
 * An SDR of a Class B 20x offering as the trust center serves it (keys in canonical order): the first `rules` rules and
 * every KSI of the rules data, each KSI with three evidence entries (hash URLs), tests, a long validation line and
 * metrics; one KSI new this month (no year yet), one statement hostile, one with a 200-digit token.
 */
export function aTrustSdr(rules = 60): Record<string, unknown> {
  const ksis = rulesData.ksis.map((k) => k.id);
  return {
    certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
    fedRampRequirements: rulesData.rules.slice(0, rules).map((r, i) => ({
      frrID: r.id,
      frrImplementation: [
        i === 3
          ? HOSTILE_TEXT
          : i === 4
            ? `Keys rotate; the current key's fingerprint is ${hexOf('key').repeat(3)}.`
            : `The provider meets ${r.name} through its documented process (statements file, section ${r.id}).`,
      ],
      ...(STATUSES[i % 4] === undefined ? {} : { frrImplementationStatus: STATUSES[i % 4] }),
      ...(i % 5 === 0 ? { frrValidation: [`svc: checked on every run against ${r.id}.`] } : {}),
    })),
    keySecurityIndicators: ksis.map((id, i) => ({
      ksiAssessment: [],
      ksiEvidence: ['Prowler', 'Trivy', 'Entra'].map((tool, n) => ({
        evidenceDescription: `${tool} result for ${id}: ${n === i % 3 ? 'FAIL' : 'PASS'}`,
        evidenceLocation: `https://trust.example.com/fedramp/evidence/${hexOf(`${id}-${tool}`)}`,
        evidenceType: 'Configuration',
        lastUpdated: '2026-11-25',
      })),
      ksiId: id,
      ksiImplementation: [
        `Generated by svc (no provider statement): 3 results from Entra, Prowler, Trivy reach this KSI (3 keyed by its id): ${3 - (i % 2)} pass, ${i % 2} fail, 0 other.`,
      ],
      ...(STATUSES[i % 4] === undefined ? {} : { ksiImplementationStatus: STATUSES[i % 4] }),
      ksiTests: [`Prowler:${id.toLowerCase().replace(/-/g, '_')}_configuration_check`, `Trivy:image_scan`, `Entra:conditional_access_policy_${i}`],
      ksiValidation: [
        `svc validates this KSI with 3 automated methods (tool and check pairs) on every recorded run; FRC-CSX-VVK asks at least 2 (SHOULD); machine-based evidence every 7 days (VDR-TFR-MVX, MUST); last 30 days: 24 implemented, 3 partially, 1 not implemented, 2 without evidence; history recorded since 2025-11-25.`,
      ],
    })),
    ksiMetrics: Object.fromEntries(
      [...ksis]
        .sort()
        .map((id, i) => [
          id,
          { last30Days: days(30, 10 + (i % 15), i % 5, i % 4), lastYear: i === 7 ? days(0, 0, 0, 0) : days(365, 200 + i, 20 + (i % 30), 10 + (i % 20)) },
        ]),
    ),
    metadata: {
      lastUpdated: '2026-11-25T08:00:00Z',
      updateSource: 'svc trust center (svc-api) november.json (svc 0.5.0)',
      version: `2026-11-25-${hexOf('v').slice(0, 12)}`,
    },
  };
}

/**
 * A VDR with `n` vulnerability groups carrying every field svc writes, with the long descriptions real scanners give
 * (image digests, ARNs, URLs); one description hostile.
 */
/** Each group's current rating and its projected next, by `i % 4`. */
const VDR_RATINGS: readonly [current: NRating, next: NRating][] = [
  [5, 4],
  [4, 3],
  [3, 2],
  [2, 1],
];

export function aTrustVdr(n = 6): VdrDocument {
  return {
    certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
    reportPeriod: { from: '2026-10-26T08:00:00Z', to: '2026-11-25T08:00:00Z' },
    vulnerabilities: Array.from({ length: n }, (_, i) => {
      const resources = [
        `registry.example.com/case-management/api-gateway@sha256:${hexOf(`image-${i}`)}`,
        `arn:aws:lambda:us-gov-west-1:123456789012:function:case-export-${hexOf(`fn-${i}`).slice(0, 24)}`,
        `https://api.example.com/v2/cases/${hexOf(`url-${i}`)}/exports?format=json&include=attachments`,
      ].slice(0, 1 + (i % 3));
      return {
        currentRating: VDR_RATINGS[i % 4][0],
        detection: { detectedAt: `2026-11-${String(10 + i).padStart(2, '0')}T08:00:00Z`, detectionSource: i % 2 === 0 ? 'Trivy' : 'Prowler, Trivy' },
        evaluationCompletedAt: `2026-11-${String(11 + i).padStart(2, '0')}T08:00:00Z`,
        isInternetReachable: i % 2 === 0,
        isLikelyExploitable: i % 3 === 0,
        overdueStatus: {
          isOverdue: i === 2,
          ...(i === 2 ? { explanation: 'not mitigated within 32 days of detection (VDR-TFR-PVR, Class B, N4 internet-reachable)' } : {}),
        },
        potentialAgencyImpact: `N${5 - (i % 4)}: ${i % 2 === 0 ? 'a resource matches the internet-reachable pattern *.example.com' : 'no resource matches an internet-reachable pattern'}; not in the CISA KEV catalog; from scanner severity ${['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'][i % 4]}`,
        projectedNextReduction: { estimatedAt: `2026-12-${String(10 + i).padStart(2, '0')}T08:00:00Z`, targetRating: VDR_RATINGS[i % 4][1] },
        providerTrackingId: `VG-${hexOf(`group-${i}`).slice(0, 16)}`,
        ...(i === 1 ? { supplementaryRiskInformation: 'N-rating raised: N3 → N4 at 2026-11-12T08:00:00Z.' } : {}),
        vulnerabilityDescription:
          i === 3
            ? `CVE-2026-4000: ${HOSTILE_TEXT} (on 1 resource: db-1)`
            : `CVE-2026-${1000 + i}: openssl 3.0.2-0ubuntu1.${i} allows a remote attacker to cause a denial of service through a crafted certificate (on ${resources.length} ${resources.length === 1 ? 'resource' : 'resources'}: ${resources.join(', ')})`,
      };
    }),
  };
}

/** The arguments of `svc fedramp incident --type initial` for an N4 incident affecting `agency` only, written to `<first word>.json`. */
export function initialIncidentArgs(summary: string, agency: string, at: string): string[] {
  return [
    'fedramp',
    'incident',
    '--type',
    'initial',
    '--summary',
    summary,
    '--n',
    '4',
    '--occurred-at',
    at,
    '--agency',
    agency,
    '--now',
    at,
    '--out',
    `${summary.split(' ')[0]}.json`,
  ];
}
