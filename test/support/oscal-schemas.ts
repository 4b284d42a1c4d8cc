import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OSCAL_SCHEMA_FILES, type OscalModel } from '../../src/domain/oscal/oscal-model';
import { REFERENCE } from './run-svc';

export const SCHEMAS = join(REFERENCE, 'oscal', 'schemas');
export const SCHEMA_VERSIONS = ['1.1.3', '1.2.1'] as const;

const compiled = new Map<string, ValidateFunction>();

/**
 * Ajv errors of a document against NIST's release schema, compiled here with the options of DESIGN §7 and
 * independent of svc's own validator, so tests of what svc writes do not rest on svc's checking.
 */
export function schemaErrors(document: Record<string, unknown>, version: (typeof SCHEMA_VERSIONS)[number]): string[] {
  const model = Object.keys(document)[0] as OscalModel;
  const key = `${version}/${model}`;
  let validate = compiled.get(key);
  if (!validate) {
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: true });
    addFormats(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, version, OSCAL_SCHEMA_FILES[model]), 'utf8')));
    compiled.set(key, validate);
  }
  return validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);
}
