import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENDOR_PARSERS } from '../../../src/infrastructure/adapters/registry';
import { REFERENCE } from '../../support/run-svc';

const SAMPLES = join(REFERENCE, 'raw-samples');
const files = readdirSync(SAMPLES).flatMap((vendor) =>
  readdirSync(join(SAMPLES, vendor))
    .filter((file) => !/\.(md|tsv)$/.test(file))
    .map((file) => ({ vendor, file, head: readFileSync(join(SAMPLES, vendor, file)).subarray(0, 64 * 1024).toString('utf8').replace(/^\uFEFF/, '') })),
);

describe('telling the 13 formats apart from the first 64 KiB', () => {
  it('has a parser for every vendor folder of the shared samples', () => {
    expect(VENDOR_PARSERS.map((p) => p.info.vendor).sort()).toEqual(readdirSync(SAMPLES).sort());
  });

  it.each(files.map((f) => [`${f.vendor}/${f.file}`, f]))('%s is taken by its own parser and no other', (_name, { vendor, head }) => {
    expect(VENDOR_PARSERS.filter((p) => p.looksLike(head)).map((p) => p.info.vendor)).toEqual([vendor]);
  });
});
