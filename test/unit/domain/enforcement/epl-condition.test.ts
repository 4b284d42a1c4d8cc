import { checkCondition, evaluateCondition, jsonEqual, lookup, type EplCondition } from '../../../../src/domain/enforcement/epl-condition';
import type { KsiResult } from '../../../../src/domain/ksi/ksi-result';

const result: KsiResult = {
  ksi_id: 'KSI-IA-02',
  status: 'WARN',
  evidence: {
    users_without_mfa: 3,
    tenant: 'contoso',
    policies: [{ name: 'Require MFA', state: 'disabled' }],
    roles: ['Global Administrator', 'Security Reader'],
    settings: { legacy_auth: { blocked: false } },
    nothing: null,
  },
};

const holds = (condition: EplCondition, r: KsiResult = result) => evaluateCondition(condition, r);

function problem(condition: unknown): string {
  try {
    checkCondition(condition, 'condition', (path, text, fix) => {
      throw new Error(`${path}: ${text}; ${fix}`);
    });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected checkCondition to fail');
}

describe('EPL conditions', () => {
  it('status_in holds when the status is listed', () => {
    expect(holds({ status_in: ['FAIL', 'WARN'] })).toBe(true);
    expect(holds({ status_in: ['FAIL'] })).toBe(false);
  });

  it.each<[string, EplCondition, boolean]>([
    ['> on a number', { evidence: { path: 'users_without_mfa', op: '>', value: 0 } }, true],
    ['>= at the bound', { evidence: { path: 'users_without_mfa', op: '>=', value: 3 } }, true],
    ['< below', { evidence: { path: 'users_without_mfa', op: '<', value: 3 } }, false],
    ['<= at the bound', { evidence: { path: 'users_without_mfa', op: '<=', value: 3 } }, true],
    ['> on a string is false', { evidence: { path: 'tenant', op: '>', value: 0 } }, false],
    ['> on a missing value is false', { evidence: { path: 'absent', op: '>', value: 0 } }, false],
    ['== on a nested array element', { evidence: { path: 'policies.0.state', op: '==', value: 'disabled' } }, true],
    ['== on an object regardless of key order', { evidence: { path: 'policies.0', op: '==', value: { state: 'disabled', name: 'Require MFA' } } }, true],
    ['== on null', { evidence: { path: 'nothing', op: '==', value: null } }, true],
    ['== on a missing value is false', { evidence: { path: 'absent', op: '==', value: null } }, false],
    ['!= on a different value', { evidence: { path: 'settings.legacy_auth.blocked', op: '!=', value: true } }, true],
    ['!= on a missing value', { evidence: { path: 'absent', op: '!=', value: true } }, true],
    ['!= on the same value', { evidence: { path: 'tenant', op: '!=', value: 'contoso' } }, false],
    ['exists', { evidence: { path: 'settings.legacy_auth', op: 'exists' } }, true],
    ['exists on null', { evidence: { path: 'nothing', op: 'exists' } }, true],
    ['missing', { evidence: { path: 'settings.mfa', op: 'missing' } }, true],
    ['includes in an array', { evidence: { path: 'roles', op: 'includes', value: 'Global Administrator' } }, true],
    ['includes in a string', { evidence: { path: 'tenant', op: 'includes', value: 'toso' } }, true],
    ['includes of a number in a string', { evidence: { path: 'tenant', op: 'includes', value: 1 } }, false],
    ['a non-digit segment on an array', { evidence: { path: 'roles.first', op: 'exists' } }, false],
    ['a path through a scalar', { evidence: { path: 'tenant.length', op: 'exists' } }, false],
    ['an inherited property', { evidence: { path: 'constructor', op: 'exists' } }, false],
    ['__proto__', { evidence: { path: '__proto__', op: 'exists' } }, false],
  ])('evidence %s', (_name, condition, expected) => {
    expect(holds(condition)).toBe(expected);
  });

  it('evidence tests on a result without evidence find nothing', () => {
    const bare: KsiResult = { ksi_id: 'KSI-IA-02', status: 'FAIL' };
    expect(holds({ evidence: { path: 'x', op: 'missing' } }, bare)).toBe(true);
    expect(holds({ evidence: { path: 'x', op: 'exists' } }, bare)).toBe(false);
  });

  it('all, any and not combine', () => {
    const fail = { status_in: ['FAIL'] } as EplCondition;
    const warn = { status_in: ['WARN'] } as EplCondition;
    expect(holds({ all: [warn, { evidence: { path: 'users_without_mfa', op: '>', value: 0 } }] })).toBe(true);
    expect(holds({ all: [warn, fail] })).toBe(false);
    expect(holds({ any: [fail, warn] })).toBe(true);
    expect(holds({ any: [fail] })).toBe(false);
    expect(holds({ not: fail })).toBe(true);
    expect(holds({ not: { not: warn } })).toBe(true);
  });

  it('lookup and jsonEqual', () => {
    expect(lookup(result.evidence, 'policies.0.name')).toBe('Require MFA');
    expect(lookup(result.evidence, 'policies.1')).toBeUndefined();
    expect(jsonEqual([1, { a: 2 }], [1, { a: 2 }])).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
  });

  it('accepts a valid condition as it is', () => {
    const condition = { any: [{ status_in: ['FAIL'] }, { not: { evidence: { path: 'a.b', op: 'exists' } } }] };
    expect(checkCondition(condition, 'condition', () => undefined as never)).toBe(condition);
  });

  let deep: unknown = { status_in: ['FAIL'] };
  for (let i = 0; i < 16; i++) deep = { not: deep };

  it.each<[string, unknown, string]>([
    ['not an object', 'FAIL', 'condition: expected a condition object, got "FAIL"; write e.g. {"status_in": ["FAIL"]}'],
    ['no key', {}, 'condition: a condition has exactly one key, got none; combine several conditions with {"all": [...]} or {"any": [...]}'],
    [
      'two keys',
      { status_in: ['FAIL'], not: {} },
      'condition: a condition has exactly one key, got "status_in", "not"; combine several conditions with {"all": [...]} or {"any": [...]}',
    ],
    ['an unknown kind', { script: 'x > 1' }, 'condition.script: unknown condition "script"; use one of status_in, evidence, all, any, not'],
    ['an empty status_in', { status_in: [] }, 'condition.status_in: expected a non-empty array of statuses, got an array; write e.g. ["FAIL", "WARN"]'],
    ['a lower-case status', { status_in: ['FAIL', 'warn'] }, 'condition.status_in[1]: "warn" is not a status; use exactly PASS, WARN, FAIL (upper case)'],
    ['an empty all', { all: [] }, 'condition.all: expected a non-empty array of conditions, got an array; write e.g. {"all": [{"status_in": ["FAIL"]}]}'],
    [
      'any that is an object',
      { any: { status_in: ['FAIL'] } },
      'condition.any: expected a non-empty array of conditions, got an object; write e.g. {"any": [{"status_in": ["FAIL"]}]}',
    ],
    [
      'a bad condition under not',
      { not: { status_in: 'FAIL' } },
      'condition.not.status_in: expected a non-empty array of statuses, got "FAIL"; write e.g. ["FAIL", "WARN"]',
    ],
    [
      'nesting deeper than 16',
      deep,
      'condition.not.not.not.not.not.not.not.not.not.not.not.not.not.not.not.not: conditions nest deeper than 16 levels; flatten them with "all" or "any"',
    ],
    [
      'evidence that is not an object',
      { evidence: 'users' },
      'condition.evidence: expected {"path", "op", "value"}, got "users"; write e.g. {"path": "users_without_mfa", "op": ">", "value": 0}',
    ],
    [
      'an unknown evidence field',
      { evidence: { path: 'a', op: 'exists', default: 0 } },
      'condition.evidence.default: unknown field; an evidence test has path, op and value',
    ],
    [
      'an empty path segment',
      { evidence: { path: 'a..b', op: 'exists' } },
      'condition.evidence.path: expected dot-separated keys, got "a..b"; write e.g. "users_without_mfa" or "policies.0.state"',
    ],
    [
      'an unknown operator',
      { evidence: { path: 'a', op: '=~', value: 'x' } },
      'condition.evidence.op: "=~" is not an operator; use one of == != > >= < <= exists missing includes',
    ],
    ['a value on exists', { evidence: { path: 'a', op: 'exists', value: true } }, 'condition.evidence.value: "exists" takes no value; remove "value"'],
    ['no value on ==', { evidence: { path: 'a', op: '==' } }, 'condition.evidence.value: missing; "==" compares the evidence with a value; add "value"'],
    [
      'a non-finite number',
      { evidence: { path: 'a', op: '<', value: Infinity } },
      'condition.evidence.value: expected a number, got number Infinity; "<" compares numbers',
    ],
  ])('refuses %s', (_name, condition, message) => {
    expect(problem(condition)).toBe(message);
  });
});
