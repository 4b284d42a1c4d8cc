import type { VendorParser } from './vendor-parser';
import { awsSecurityhub } from './vendors/aws-securityhub';
import { azurePolicy } from './vendors/azure-policy';
import { checkov } from './vendors/checkov';
import { ckl } from './vendors/ckl';
import { defender } from './vendors/defender';
import { grype } from './vendors/grype';
import { hdf } from './vendors/hdf';
import { inspec } from './vendors/inspec';
import { kubescape } from './vendors/kubescape';
import { nessus } from './vendors/nessus';
import { openscap } from './vendors/openscap';
import { oscalAr } from './vendors/oscal-ar';
import { prowler } from './vendors/prowler';
import { sarif } from './vendors/sarif';
import { scoutsuite } from './vendors/scoutsuite';
import { scubagear } from './vendors/scubagear';
import { trivy } from './vendors/trivy';
import { zap } from './vendors/zap';

/** Every scanner svc reads, in the order `svc adapter run --list` shows them. */
export const VENDOR_PARSERS: readonly VendorParser[] = [
  scubagear,
  prowler,
  awsSecurityhub,
  azurePolicy,
  defender,
  sarif,
  trivy,
  openscap,
  nessus,
  kubescape,
  inspec,
  scoutsuite,
  zap,
  ckl,
  oscalAr,
  grype,
  checkov,
  hdf,
];
