import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENDOR_PARSERS } from '../../../src/infrastructure/scans/registry';
import { VendorScanReader } from '../../../src/infrastructure/scans/vendor-scan-reader';
import { REFERENCE } from '../../support/run-svc';

const SAMPLES = join(REFERENCE, 'raw-samples');
/** Real files of each vendor: the raw-samples folder named after it, and NIST's OSCAL examples for oscal-ar. */
const FOLDERS = readdirSync(SAMPLES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({ vendor: entry.name, dir: join(SAMPLES, entry.name) }));
const SOURCES = [...FOLDERS, { vendor: 'oscal-ar', dir: join(REFERENCE, 'oscal', 'examples') }];
const VENDORS = SOURCES.map((s) => s.vendor).sort();
const files = SOURCES.flatMap(({ vendor, dir }) =>
  readdirSync(dir)
    .filter((file) => (vendor === 'oscal-ar' ? file.endsWith('.json') : !/\.(md|tsv)$/.test(file)))
    .map((file) => ({
      vendor,
      file,
      head: readFileSync(join(dir, file))
        .subarray(0, 64 * 1024)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    })),
);
describe(`telling the ${VENDOR_PARSERS.length} formats apart from the first 64 KiB`, () => {
  it('has a parser for every vendor folder of the shared samples, and a folder (or examples) for every parser', () => {
    expect(VENDOR_PARSERS.map((p) => p.info.vendor).sort()).toEqual(VENDORS);
    expect(VENDORS).toHaveLength(18);
  });

  it.each(files.map((f) => [`${f.vendor}/${f.file}`, f]))('%s is taken by its own parser and no other', (_name, { vendor, head }) => {
    const claims = VENDOR_PARSERS.filter((p) => p.looksLike(head)).map((p) => p.info.vendor);
    // Every sample of both folders is a plain InSpec run, which is HDF too: both read it, and `auto` picks hdf.
    expect(claims).toEqual(vendor === 'inspec' || vendor === 'hdf' ? ['inspec', 'hdf'] : [vendor]);
  });

  it('auto picks the format that holds the others: a plain InSpec run is read as HDF; a SAF conversion only hdf claims', async () => {
    const reader = new VendorScanReader(VENDOR_PARSERS);
    for (const f of files.filter((x) => x.vendor === 'inspec' || x.vendor === 'hdf'))
      expect((await reader.detect(join(SAMPLES, f.vendor, f.file))).vendor).toBe('hdf');
    const saf = '{"platform": {"name": "Heimdall Tools", "release": "2.6.22"}, "version": "2.6.22", "profiles": [{"name": "Anchore - Grype", "controls": []}]}';
    expect(VENDOR_PARSERS.filter((p) => p.looksLike(saf)).map((p) => p.info.vendor)).toEqual(['hdf']);
  });
});
