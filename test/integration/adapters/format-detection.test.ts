import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENDOR_PARSERS } from '../../../src/infrastructure/scans/registry';
import { REFERENCE } from '../../support/run-svc';

const SAMPLES = join(REFERENCE, 'raw-samples');
/** Sample folders of the inputs the wider-ecosystem issue adds adapters for (DESIGN §13); each leaves this list then. */
const AWAITING_ADAPTERS = ['checkov', 'ckl', 'grype', 'hdf'];
const VENDORS = readdirSync(SAMPLES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const files = VENDORS.filter((vendor) => !AWAITING_ADAPTERS.includes(vendor)).flatMap((vendor) =>
  readdirSync(join(SAMPLES, vendor))
    .filter((file) => !/\.(md|tsv)$/.test(file))
    .map((file) => ({ vendor, file, head: readFileSync(join(SAMPLES, vendor, file)).subarray(0, 64 * 1024).toString('utf8').replace(/^\uFEFF/, '') })),
);

describe('telling the 13 formats apart from the first 64 KiB', () => {
  it('has a parser for every vendor folder of the shared samples', () => {
    expect(VENDOR_PARSERS.map((p) => p.info.vendor).sort()).toEqual(VENDORS.filter((vendor) => !AWAITING_ADAPTERS.includes(vendor)));
    expect(AWAITING_ADAPTERS.filter((vendor) => VENDORS.includes(vendor))).toEqual(AWAITING_ADAPTERS);
  });

  it.each(files.map((f) => [`${f.vendor}/${f.file}`, f]))('%s is taken by its own parser and no other', (_name, { vendor, head }) => {
    expect(VENDOR_PARSERS.filter((p) => p.looksLike(head)).map((p) => p.info.vendor)).toEqual([vendor]);
  });
});
