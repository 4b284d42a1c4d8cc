import { InvalidInputError } from '../errors';
import { describe, isPlainObject } from '../encoding/json-values';

export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';

/** An in-toto Statement v1 (in-toto/attestation spec/v1/statement.md). */
export interface InTotoStatement<P = Record<string, unknown>> {
  _type: typeof IN_TOTO_STATEMENT_TYPE;
  subject: { name: string; digest: Record<string, string> }[];
  predicateType: string;
  predicate: P;
}

/** A statement about one artifact, identified by its SHA-256 (lower-case hex). */
export function inTotoStatement<P>(subject: { name: string; sha256Hex: string }, predicateType: string, predicate: P): InTotoStatement<P> {
  return { _type: IN_TOTO_STATEMENT_TYPE, subject: [{ name: subject.name, digest: { sha256: subject.sha256Hex } }], predicateType, predicate };
}

/** Reads a statement; every subject must name a SHA-256 digest, the one digest svc checks. */
export function readInTotoStatement(document: unknown, file: string): InTotoStatement {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-in-toto-statement', `${file}: ${path}: ${problem}; pass the .dsse.json svc wrote beside the document`);
  };
  if (!isPlainObject(document)) return fail('$', `expected a JSON object, got ${describe(document)}`);
  const { _type, subject, predicateType, predicate } = document;
  if (_type !== IN_TOTO_STATEMENT_TYPE) return fail('_type', `expected "${IN_TOTO_STATEMENT_TYPE}", got ${describe(_type)}`);
  if (!Array.isArray(subject) || subject.length === 0) return fail('subject', 'expected a non-empty array');
  const subjects = subject.map((item, i) => {
    const path = `subject[${i}]`;
    if (!isPlainObject(item)) return fail(path, `expected an object, got ${describe(item)}`);
    if (typeof item.name !== 'string') return fail(`${path}.name`, 'expected a string');
    if (!isPlainObject(item.digest)) return fail(`${path}.digest`, 'expected an object of algorithm: hex digest');
    const digest: Record<string, string> = {};
    for (const [algorithm, value] of Object.entries(item.digest)) {
      if (typeof value !== 'string') return fail(`${path}.digest.${algorithm}`, 'expected a string');
      digest[algorithm] = value;
    }
    if (!/^[0-9a-f]{64}$/.test(digest.sha256 ?? '')) return fail(`${path}.digest.sha256`, 'expected 64 lower-case hex digits');
    return { name: item.name, digest };
  });
  if (typeof predicateType !== 'string' || predicateType === '') return fail('predicateType', 'expected a non-empty string');
  if (!isPlainObject(predicate)) return fail('predicate', `expected an object, got ${describe(predicate)}`);
  return { _type, subject: subjects, predicateType, predicate };
}
