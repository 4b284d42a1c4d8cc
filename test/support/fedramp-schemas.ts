import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CR26_DOCUMENTS, type Cr26DocumentType } from '../../src/domain/fedramp/cr26-documents';
import { REFERENCE } from './run-svc';

export const FEDRAMP_SCHEMAS = join(REFERENCE, 'fedramp', 'cr26-schemas');

/** Every generation of FedRAMP's CR26 schemas held in the reference data, oldest first (FedRAMP edits the files in place). */
export const FEDRAMP_SCHEMA_GENERATIONS = ['cr26-schemas', 'cr26-schemas-2026-09-17', 'cr26-schemas-2026-10-08'].map((dir) => join(REFERENCE, 'fedramp', dir));

const validators = new Map<string, { ajv: Ajv2020; compiled: Map<Cr26DocumentType, ValidateFunction> }>();

/** A `$ref` without `#` read as FedRAMP later fixed it (`<$id>#/$defs/x`): written here again, not imported from svc. */
function fixRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fixRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && !v.includes('#') ? v.replace(/\.json\//, '.json#/') : fixRefs(v)]),
  );
}

/**
 * Ajv errors of a CR26 document against FedRAMP's 2026-06-24 schema for its type (from `dir`, by default the oldest
 * generation), compiled here with DESIGN §12.3's options and independent of svc's own validator and cache, so tests of
 * what svc writes do not rest on svc's checking.
 */
export function fedrampSchemaErrors(type: Cr26DocumentType, document: unknown, dir: string = FEDRAMP_SCHEMAS): string[] {
  let set = validators.get(dir);
  if (set === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
    addFormats(ajv);
    ajv.addKeyword({ keyword: '$schemaVersion', schemaType: 'string' });
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) ajv.addSchema(fixRefs(JSON.parse(readFileSync(join(dir, file), 'utf8'))) as object);
    set = { ajv, compiled: new Map() };
    validators.set(dir, set);
  }
  let validate = set.compiled.get(type);
  if (validate === undefined) {
    validate = set.ajv.getSchema(`https://fedramp.gov/schemas/fedramp-${CR26_DOCUMENTS[type].stem}-schema-2026-06-24.json`);
    if (validate === undefined) throw new Error(`no FedRAMP schema for ${type} in ${dir}`);
    set.compiled.set(type, validate);
  }
  return validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);
}

/** fedrampSchemaErrors against every generation, by the generation's folder name (an empty list each when valid). */
export function fedrampSchemaErrorsByGeneration(type: Cr26DocumentType, document: unknown): Record<string, string[]> {
  return Object.fromEntries(FEDRAMP_SCHEMA_GENERATIONS.map((dir) => [basename(dir), fedrampSchemaErrors(type, document, dir)]));
}

/** What a command's --json says judged a document of `type` (`judged_by`): the schema file in `dir`, its $schemaVersion and sha256, read here. */
export function judgedBy(dir: string, type: Cr26DocumentType): { type: Cr26DocumentType; file: string; schema_version: string; sha256: string } {
  const file = `fedramp-${CR26_DOCUMENTS[type].stem}-schema-2026-06-24.json`;
  const bytes = readFileSync(join(dir, file));
  return {
    type,
    file,
    schema_version: (JSON.parse(bytes.toString('utf8')) as { $schemaVersion: string }).$schemaVersion,
    sha256: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
  };
}
