import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CR26_DOCUMENTS, type Cr26DocumentType } from '../../src/domain/fedramp/cr26-documents';
import { REFERENCE } from './run-svc';

export const FEDRAMP_SCHEMAS = join(REFERENCE, 'fedramp', 'cr26-schemas');

let ajv: Ajv2020 | undefined;
const compiled = new Map<Cr26DocumentType, ValidateFunction>();

/** A `$ref` without `#` read as FedRAMP later fixed it (`<$id>#/$defs/x`): written here again, not imported from svc. */
function fixRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fixRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && !v.includes('#') ? v.replace(/\.json\//, '.json#/') : fixRefs(v)]));
}

/**
 * Ajv errors of a CR26 document against FedRAMP's 2026-06-24 schema for its type, compiled here with DESIGN §12.3's
 * options and independent of svc's own validator and cache, so tests of what svc writes do not rest on svc's checking.
 */
export function fedrampSchemaErrors(type: Cr26DocumentType, document: unknown): string[] {
  if (ajv === undefined) {
    ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
    addFormats(ajv);
    ajv.addKeyword({ keyword: '$schemaVersion', schemaType: 'string' });
    for (const file of readdirSync(FEDRAMP_SCHEMAS).filter((f) => f.endsWith('.json'))) ajv.addSchema(fixRefs(JSON.parse(readFileSync(join(FEDRAMP_SCHEMAS, file), 'utf8'))) as object);
  }
  let validate = compiled.get(type);
  if (validate === undefined) {
    validate = ajv.getSchema(`https://fedramp.gov/schemas/fedramp-${CR26_DOCUMENTS[type].stem}-schema-2026-06-24.json`);
    if (validate === undefined) throw new Error(`no FedRAMP schema for ${type}`);
    compiled.set(type, validate);
  }
  return validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);
}
