import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './run-svc';
import { detection } from './vulnerabilities';

const CPO = JSON.parse(readFileSync(join(FIXTURES, 'fedramp', 'cpo-minimal.json'), 'utf8'));

/** The subject of the agency CA the trust-center tests make, as the profile's issuers names it (RFC 4514). */
export const AGENCY_CA_SUBJECT = '/C=US/O=Department of Examples/OU=PKI, Issuing/CN=Examples Issuing CA';
export const AGENCY_ISSUER = 'CN=Examples Issuing CA,OU=PKI\\, Issuing,O=Department of Examples,C=US';

export const TRUST_CENTER_REPOSITORY = { repositoryType: ['Trust Center'], url: 'https://trust.example.com/fedramp/public', repositoryDescription: 'The svc-api trust center.', authenticationRequired: false };

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
