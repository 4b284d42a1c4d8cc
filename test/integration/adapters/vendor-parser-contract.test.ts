import { join } from 'node:path';
import { VENDOR_PARSERS } from '../../../src/infrastructure/scans/registry';
import { NIST_AR } from '../../support/oscal-ar-documents';
import { FIXTURES } from '../../support/run-svc';
import { vendorParserContract, type VendorParserContractOptions } from '../../support/vendor-parser.contract';

/** Only where a vendor's format differs from the default (JSON read whole; its real files in raw-samples/<vendor>/). */
const OPTIONS: Readonly<Record<string, VendorParserContractOptions>> = {
  ckl: { syntax: 'xml', moreSamples: [{ path: join(FIXTURES, 'ckl', 'small_ckl_overrides.cklb'), syntax: 'json' }] },
  defender: { syntax: 'csv' },
  nessus: { syntax: 'xml' },
  // OpenSCAP matches XCCDF elements by local name wherever they are (ARF wraps the results), under one of its roots.
  openscap: { syntax: 'xml', roots: 'Benchmark, TestResult or asset-report-collection' },
  'oscal-ar': { moreSamples: [{ path: NIST_AR, syntax: 'json' }] },
};

describe('the vendor parser contract', () => {
  it('has options for vendors of the registry only', () => {
    expect(Object.keys(OPTIONS).filter((vendor) => !VENDOR_PARSERS.some((p) => p.info.vendor === vendor))).toEqual([]);
  });
});

// Every parser of the registry, so a new one is held to the contract without a line here.
for (const parser of VENDOR_PARSERS) vendorParserContract(parser, VENDOR_PARSERS, OPTIONS[parser.info.vendor]);
