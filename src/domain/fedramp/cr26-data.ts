import { InvalidInputError } from '../errors';
import { isPlainObject } from '../encoding/json-values';
import type { Cr26Rules, Cr26Source } from './cr26-rules';

/** The `schema` of the project's CR26 data file. */
export const CR26_DATA_SCHEMA = 'svc.cr26-rules/v1';

/**
 * The project's CR26 data file (`src/domain/fedramp/data/cr26-rules.json`, written by scripts/build-cr26.js): the
 * model of the official file it was derived from, with that file's name, version and sha256, the aliases derived
 * from the FRMR releases, and no statement sentences. docs/fedramp.md describes each field.
 */
export interface Cr26Data extends Omit<Cr26Rules, 'statements' | 'source'> {
  schema: typeof CR26_DATA_SCHEMA;
  source: Cr26Source;
}

/** The data file's content for `rules`: statements dropped, lists sorted by id (as read), object keys sorted at every level. */
export function cr26DataDocument(rules: Cr26Rules, source: Cr26Source): Cr26Data {
  const { info, families, themes, rules: list, ksis, aliases, retired } = rules;
  return sortKeys({ schema: CR26_DATA_SCHEMA, source, info, families, themes, rules: list, ksis, aliases, retired }) as Cr26Data;
}

/**
 * Reads the project's CR26 data file back into the model `readCr26Rules` gives for an official file (without
 * statements). A file that is not one is an InvalidInputError `invalid-rules-data` naming the JSON path.
 */
export function readCr26Data(document: unknown, path: string): Cr26Rules {
  const fail = (at: string, problem: string): never => {
    throw new InvalidInputError('invalid-rules-data', `${path}: ${at}: ${problem}; regenerate it with npm run catalog (docs/fedramp.md)`);
  };
  if (!isPlainObject(document)) return fail('$', 'expected a JSON object');
  if (document.schema !== CR26_DATA_SCHEMA) fail('schema', `expected "${CR26_DATA_SCHEMA}", found ${JSON.stringify(document.schema)}`);
  const fields = (value: unknown, at: string, names: string[]) => {
    if (!isPlainObject(value)) return fail(at, 'expected an object');
    for (const name of names) if (typeof value[name] !== 'string') fail(`${at}.${name}`, 'expected a string');
    return value;
  };
  const list = (name: string, names: string[]) => {
    const value = document[name];
    if (!Array.isArray(value)) return fail(name, 'expected an array');
    value.forEach((item, i) => fields(item, `${name}[${i}]`, names));
    return value;
  };
  const source = fields(document.source, 'source', ['file', 'version', 'sha256']);
  const info = fields(document.info, 'info', ['version', 'date']);
  const families = list('families', ['id', 'name']);
  families.forEach((f: Record<string, unknown>, i) => {
    if (!Array.isArray(f.subsets)) fail(`families[${i}].subsets`, 'expected an array');
  });
  const themes = list('themes', ['id', 'name']);
  const rules = list('rules', ['id', 'family', 'subset', 'type', 'name']);
  const ksis = list('ksis', ['id', 'theme', 'name']);
  ksis.forEach((k: Record<string, unknown>, i) => {
    if (!Array.isArray(k.controls)) fail(`ksis[${i}].controls`, 'expected an array');
  });
  const aliases = document.aliases;
  if (!isPlainObject(aliases)) return fail('aliases', 'expected an object');
  for (const [from, to] of Object.entries(aliases)) if (typeof to !== 'string') fail(`aliases.${from}`, 'expected a string');
  const retired = list('retired', ['id', 'kind', 'last_release', 'reason']);
  return { source, info, families, themes, rules, ksis, aliases, retired } as unknown as Cr26Rules;
}

/** A copy of a JSON value with every object's keys in code-unit order (arrays keep theirs); undefined fields dropped. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, sortKeys(value[k])]));
}
