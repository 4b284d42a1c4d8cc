import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './run-svc';

const CPO = JSON.parse(readFileSync(join(FIXTURES, 'fedramp', 'cpo-minimal.json'), 'utf8'));

/** A complete 20x Class B profile (svc.config.json's `fedramp`) for the package and OCR tests: every key the CPO needs. */
export const PACKAGE_PROFILE = {
  type: '20x',
  class: 'B',
  fedramp_id: 'FR2611250001',
  package_uri: 'https://trust.example.com/fedramp/cpo.json',
  evidence_base_uri: 'https://trust.example.com/fedramp',
  accountable_official: { name: 'Ada Example', title: 'CISO', email: 'ciso@example.com' },
  agencies: [{ name: 'Department of Examples' }],
  cpo: {
    serviceIdentification: { ...CPO.serviceIdentification, fedRampPackageId: undefined },
    serviceProperties: { serviceType: ['SaaS'], deploymentModel: 'Public Cloud' },
    contactInformation: CPO.contactInformation,
  },
};

/**
 * The package tests' report (the unit test of WritePackage and the e2e of `svc fedramp package`): Prowler's passing
 * MFA check and failing flow-log check observed at `observed`, with the failure's detection, and any `extra` results.
 */
export const prowlerPackageReport = (observed: string, ...extra: object[]) => ({
  schema_version: '1',
  generated_at: observed,
  source: { tool: 'Prowler', version: '5.0.0' },
  results: [
    { ksi_id: 'KSI-IAM-APM', status: 'PASS', observed_at: observed, checks: [{ id: 'iam_root_mfa_enabled', status: 'PASS' }] },
    { ksi_id: 'KSI-CNA-RNT', status: 'FAIL', observed_at: observed, checks: [{ id: 'vpc_flow_logs_enabled', status: 'FAIL' }] },
    ...extra,
  ],
  vulnerabilities: [
    {
      id: `VULN-${createHash('sha256').update('Prowler\nvpc_flow_logs_enabled\nvpc-0a1b').digest('hex').slice(0, 20)}`,
      source: 'Prowler',
      finding_id: 'vpc_flow_logs_enabled',
      resource: 'vpc-0a1b',
      title: 'VPC Flow Logs are not enabled',
      scanner_severity: 'medium',
      detected_at: observed,
      kind: 'configuration',
    },
  ],
});
