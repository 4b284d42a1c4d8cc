import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { CR26_DISTINGUISHING_KEYS, CR26_DOCUMENT_TYPES, CR26_DOCUMENTS, CR26_SCHEMA_DATE } from '../../src/domain/fedramp/cr26-documents';
import { withFragmentRefs } from '../../src/infrastructure/schemas/ajv-schema-validator';
import { REFERENCE, ROOT } from '../support/run-svc';

const DIR = join(REFERENCE, 'fedramp', 'cr26-schemas');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const read = (file: string) => JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { $id: string; properties?: Record<string, unknown> };

/** An Ajv of the test's own, configured as DESIGN §12.3 says, independent of the code under test's cache. */
function ajvWithAll(fix: (schema: object) => object): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
  addFormats(ajv);
  ajv.addKeyword({ keyword: '$schemaVersion', schemaType: 'string' });
  for (const file of FILES) ajv.addSchema(fix(read(file)));
  return ajv;
}

describe("FedRAMP's CR26 schemas (2026-06-24)", () => {
  it('are the eleven files FedRAMP published, one per document type plus the common definitions', () => {
    expect(FILES).toHaveLength(11);
    for (const type of CR26_DOCUMENT_TYPES) expect(FILES).toContain(`fedramp-${CR26_DOCUMENTS[type].stem}-schema-2026-06-24.json`);
  });

  it('are named, in every generation svc carries, with the date CR26_SCHEMA_DATE says (the trust center names them by it)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'schemas', 'manifest.json'), 'utf8')) as { fedramp: { generations: { files: { file: string }[] }[] } };
    const files = manifest.fedramp.generations.flatMap((g) => g.files.map((f) => f.file));
    expect(files.length).toBeGreaterThanOrEqual(11);
    expect(files.filter((f) => !f.endsWith(`-schema-${CR26_SCHEMA_DATE}.json`))).toEqual([]);
    expect(FILES.filter((f) => !f.endsWith(`-schema-${CR26_SCHEMA_DATE}.json`))).toEqual([]);
  });

  it.each(FILES)('%s compiles under Ajv2020 strict (refs read with #)', (file) => {
    const ajv = ajvWithAll(withFragmentRefs);
    expect(() => ajv.getSchema(read(file).$id)).not.toThrow();
    expect(typeof ajv.getSchema(read(file).$id)).toBe('function');
  });

  it('do not compile as published: the cross-file refs lack their #', () => {
    const ajv = ajvWithAll((s) => s);
    expect(() => ajv.getSchema(read('fedramp-security-decision-record-schema-2026-06-24.json').$id)).toThrow(/can't resolve reference/);
  });

  it('rewrites only the refs without a #', () => {
    const common = 'https://fedramp.gov/schemas/fedramp-common-definitions-schema-2026-06-24.json';
    expect(withFragmentRefs({ a: { $ref: `${common}/$defs/x` }, b: [{ $ref: `${common}#/$defs/y` }, { $ref: '#/$defs/z' }] })).toEqual({
      a: { $ref: `${common}#/$defs/x` },
      b: [{ $ref: `${common}#/$defs/y` }, { $ref: '#/$defs/z' }],
    });
  });

  it("hold detection's table: each distinguishing key is declared at the top level by its type's schema and no other", () => {
    const declared = new Map(
      CR26_DOCUMENT_TYPES.map((t) => [t, Object.keys(read(`fedramp-${CR26_DOCUMENTS[t].stem}-schema-2026-06-24.json`).properties ?? {})]),
    );
    for (const [type, keys] of Object.entries(CR26_DISTINGUISHING_KEYS)) {
      for (const key of keys) {
        expect({ key, by: [...declared].filter(([, props]) => props.includes(key)).map(([t]) => t) }).toEqual({ key, by: [type] });
      }
    }
  });
});
