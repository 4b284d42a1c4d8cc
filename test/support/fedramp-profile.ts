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
