import { type KsiResult } from '../ksi/ksi-result';
import { describe, isPlainObject } from '../encoding/json-values';
import { STATUSES, isStatus, type Status } from '../ksi/status';

/** Comparison of one evidence value. `exists` and `missing` take no `value`; `>`, `>=`, `<`, `<=` take a number. */
export const EVIDENCE_OPERATORS = ['==', '!=', '>', '>=', '<', '<=', 'exists', 'missing', 'includes'] as const;
export type EvidenceOperator = (typeof EVIDENCE_OPERATORS)[number];

/** A test of the value at `path` (dot-separated keys, digits index arrays: `policies.0.state`) in the result's evidence. */
export interface EvidenceTest {
  path: string;
  op: EvidenceOperator;
  value?: unknown;
}

/**
 * When a policy is violated, over one KSI result and its evidence. Data only (JSON), evaluated by
 * evaluateCondition: nothing in it is ever run as code.
 */
export type EplCondition = { status_in: Status[] } | { evidence: EvidenceTest } | { all: EplCondition[] } | { any: EplCondition[] } | { not: EplCondition };

export const CONDITION_KINDS = ['status_in', 'evidence', 'all', 'any', 'not'] as const;

/** Deeper conditions are refused: a policy file must not make evaluation recurse without bound. */
export const MAX_CONDITION_DEPTH = 16;

export type ConditionFail = (path: string, problem: string, fix: string) => never;

const NUMERIC: ReadonlySet<string> = new Set(['>', '>=', '<', '<=']);
const VALUELESS: ReadonlySet<string> = new Set(['exists', 'missing']);
const TEST_FIELDS: ReadonlySet<string> = new Set(['path', 'op', 'value']);

/** Checks that `value` (at JSON path `path`) is an EplCondition; `fail` reports the first problem. */
export function checkCondition(value: unknown, path: string, fail: ConditionFail, depth = 1): EplCondition {
  if (depth > MAX_CONDITION_DEPTH) fail(path, `conditions nest deeper than ${MAX_CONDITION_DEPTH} levels`, 'flatten them with "all" or "any"');
  if (!isPlainObject(value)) fail(path, `expected a condition object, got ${describe(value)}`, 'write e.g. {"status_in": ["FAIL"]}');
  const keys = Object.keys(value as object);
  if (keys.length !== 1) {
    const got = keys.length === 0 ? 'none' : keys.map((k) => JSON.stringify(k)).join(', ');
    fail(path, `a condition has exactly one key, got ${got}`, 'combine several conditions with {"all": [...]} or {"any": [...]}');
  }
  const [kind] = keys;
  const inner = (value as Record<string, unknown>)[kind];
  const at = `${path}.${kind}`;
  switch (kind) {
    case 'status_in': {
      if (!Array.isArray(inner) || inner.length === 0)
        fail(at, `expected a non-empty array of statuses, got ${describe(inner)}`, `write e.g. ["FAIL", "WARN"]`);
      (inner as unknown[]).forEach((s, i) => {
        if (!isStatus(s)) fail(`${at}[${i}]`, `${describe(s)} is not a status`, `use exactly ${STATUSES.join(', ')} (upper case)`);
      });
      break;
    }
    case 'evidence':
      checkEvidenceTest(inner, at, fail);
      break;
    case 'all':
    case 'any': {
      if (!Array.isArray(inner) || inner.length === 0)
        fail(at, `expected a non-empty array of conditions, got ${describe(inner)}`, `write e.g. {"${kind}": [{"status_in": ["FAIL"]}]}`);
      (inner as unknown[]).forEach((c, i) => checkCondition(c, `${at}[${i}]`, fail, depth + 1));
      break;
    }
    case 'not':
      checkCondition(inner, at, fail, depth + 1);
      break;
    default:
      fail(at, `unknown condition "${kind}"`, `use one of ${CONDITION_KINDS.join(', ')}`);
  }
  return value as EplCondition;
}

function checkEvidenceTest(value: unknown, at: string, fail: ConditionFail): void {
  if (!isPlainObject(value))
    fail(at, `expected {"path", "op", "value"}, got ${describe(value)}`, 'write e.g. {"path": "users_without_mfa", "op": ">", "value": 0}');
  const test = value as Record<string, unknown>;
  for (const key of Object.keys(test)) {
    if (!TEST_FIELDS.has(key)) fail(`${at}.${key}`, 'unknown field', 'an evidence test has path, op and value');
  }
  const { path, op } = test;
  if (typeof path !== 'string' || path === '' || path.split('.').includes('')) {
    fail(`${at}.path`, `expected dot-separated keys, got ${describe(path)}`, 'write e.g. "users_without_mfa" or "policies.0.state"');
  }
  if (typeof op !== 'string' || !(EVIDENCE_OPERATORS as readonly string[]).includes(op)) {
    fail(`${at}.op`, `${describe(op)} is not an operator`, `use one of ${EVIDENCE_OPERATORS.join(' ')}`);
  }
  const operator = op as string;
  const has = Object.prototype.hasOwnProperty.call(test, 'value');
  if (VALUELESS.has(operator)) {
    if (has) fail(`${at}.value`, `"${operator}" takes no value`, 'remove "value"');
  } else if (!has) {
    fail(`${at}.value`, 'missing', `"${operator}" compares the evidence with a value; add "value"`);
  } else if (NUMERIC.has(operator) && !(typeof test.value === 'number' && Number.isFinite(test.value))) {
    fail(`${at}.value`, `expected a number, got ${describe(test.value)}`, `"${operator}" compares numbers`);
  }
}

/** True when the policy is violated: the condition holds for the result. */
export function evaluateCondition(condition: EplCondition, result: KsiResult): boolean {
  if ('status_in' in condition) return condition.status_in.includes(result.status);
  if ('evidence' in condition) return testEvidence(condition.evidence, result.evidence);
  if ('all' in condition) return condition.all.every((c) => evaluateCondition(c, result));
  if ('any' in condition) return condition.any.some((c) => evaluateCondition(c, result));
  return !evaluateCondition(condition.not, result);
}

function testEvidence(test: EvidenceTest, evidence: Record<string, unknown> | undefined): boolean {
  const actual = lookup(evidence, test.path);
  switch (test.op) {
    case 'exists':
      return actual !== undefined;
    case 'missing':
      return actual === undefined;
    case '==':
      return actual !== undefined && jsonEqual(actual, test.value);
    case '!=':
      return !(actual !== undefined && jsonEqual(actual, test.value));
    case 'includes':
      if (Array.isArray(actual)) return actual.some((item) => jsonEqual(item, test.value));
      return typeof actual === 'string' && typeof test.value === 'string' && actual.includes(test.value);
    default:
      return typeof actual === 'number' && compare(test.op, actual, test.value as number);
  }
}

function compare(op: EvidenceOperator, a: number, b: number): boolean {
  if (op === '>') return a > b;
  if (op === '>=') return a >= b;
  if (op === '<') return a < b;
  return a <= b;
}

/** The value at a dot-separated path; only own properties are read, so `__proto__` or `constructor` find nothing. */
export function lookup(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (isPlainObject(current)) {
      if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
      current = current[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/** Equality of JSON values: same type, same members, objects regardless of key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}
