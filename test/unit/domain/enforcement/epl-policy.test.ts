import { InvalidInputError } from '../../../../src/domain/errors';
import { validatePolicies, type EPLPolicy } from '../../../../src/domain/enforcement/epl-policy';
import { anEplPolicy } from '../../../support/builders';

const policy = (overrides: Record<string, unknown> = {}): Record<string, unknown> => anEplPolicy(overrides);

function problem(document: unknown): string {
  try {
    validatePolicies(document, 'policies.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).code).toBe('invalid-epl-policy');
    return (error as Error).message;
  }
  throw new Error('expected validatePolicies to throw');
}

describe('validatePolicies', () => {
  it('returns the policies of an array or of {"policies": [...]}, as given', () => {
    const list = [policy(), policy({ id: 'ac2-dry', target: 'ac-2', mode: 'dry-run', max_attempts: 3, timeout_ms: 5000, description: 'x' })];
    expect(validatePolicies(list, 'p.json')).toBe(list);
    expect(validatePolicies({ policies: list }, 'p.json')).toBe(list);
    expect(validatePolicies([], 'p.json')).toEqual([]);
    const typed: EPLPolicy[] = validatePolicies([policy({ target: 'ia-2.1' }), policy({ id: 'x', target: 'KSI-IAM-01' })], 'p.json');
    expect(typed.map((p) => p.target)).toEqual(['ia-2.1', 'KSI-IAM-01']);
  });

  it.each<[string, unknown, string]>([
    [
      'not a list',
      'policies',
      'policies.json: $: expected an array of policies or {"policies": [...]}, got "policies"; see docs/enforcement.md for the policy contract',
    ],
    [
      'an object without policies',
      { rules: [] },
      'policies.json: $: expected an array of policies or {"policies": [...]}, got an object; see docs/enforcement.md for the policy contract',
    ],
    ['an extra top-level field', { policies: [], version: 2 }, 'policies.json: version: unknown field; a policy document is {"policies": [...]}'],
    [
      'a policy that is not an object',
      [policy(), 7],
      'policies.json: policies[1]: expected a policy object, got number 7; write {"id", "target", "condition", "action", "mode"}',
    ],
    [
      'a missing id',
      [policy({ id: undefined })],
      'policies.json: policies[0].id: missing; use 1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
    ],
    [
      'a bad id',
      [policy({ id: 'has space' })],
      'policies.json: policies[0].id: "has space" is not a policy id; use 1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
    ],
    [
      'a duplicate id',
      [policy(), policy({ id: 'other' }), policy()],
      'policies.json: policies[2].id: duplicate "mfa-admins" (first at policies[0]); give each policy its own id',
    ],
    [
      'an unknown field',
      [policy({ max_attempt: 2 })],
      'policies.json: policies[0].max_attempt: unknown field (policy "mfa-admins"); a policy has id, description, target, condition, action, mode, max_attempts, timeout_ms',
    ],
    [
      'a description that is not a string',
      [policy({ description: 3 })],
      'policies.json: policies[0].description: expected a string, got number 3 (policy "mfa-admins"); write a string or leave it out',
    ],
    [
      'a missing target',
      [policy({ target: undefined })],
      'policies.json: policies[0].target: missing (policy "mfa-admins"); write a KSI id such as "KSI-IA-02" or a control id such as "ac-2"',
    ],
    [
      'a target that is not a string',
      [policy({ target: ['ac-2'] })],
      'policies.json: policies[0].target: expected a string, got an array (policy "mfa-admins"); write a KSI id such as "KSI-IA-02" or a control id such as "ac-2"',
    ],
    [
      'a control not in canonical form',
      [policy({ target: 'AC-2(1)' })],
      'policies.json: policies[0].target: "AC-2(1)" is not in canonical form (policy "mfa-admins"); write "ac-2.1"',
    ],
    [
      'a target that is neither',
      [policy({ target: 'KSI-ia-2' })],
      'policies.json: policies[0].target: "KSI-ia-2" is not a KSI id or a control id (policy "mfa-admins"); write a KSI id such as "KSI-IA-02" or a control id such as "ac-2"',
    ],
    [
      'a missing condition',
      [policy({ condition: undefined })],
      'policies.json: policies[0].condition: missing (policy "mfa-admins"); say when the policy is violated, e.g. {"status_in": ["FAIL"]}',
    ],
    [
      'a bad condition',
      [policy({ condition: { all: [{ status_in: ['FAIL'] }, { evidence: { path: 'n', op: '>', value: '0' } }] } })],
      'policies.json: policies[0].condition.all[1].evidence.value: expected a number, got "0" (policy "mfa-admins"); ">" compares numbers',
    ],
    [
      'a missing action',
      [policy({ action: undefined })],
      'policies.json: policies[0].action: missing (policy "mfa-admins"); name what an adapter should do: {"name": "enable-ca-policy", "parameters": {...}}',
    ],
    [
      'an action that is a string',
      [policy({ action: 'enable' })],
      'policies.json: policies[0].action: expected {"name", "parameters"}, got "enable" (policy "mfa-admins"); write {"name": "enable-ca-policy", "parameters": {...}}',
    ],
    [
      'an unknown action field',
      [policy({ action: { name: 'a', params: {} } })],
      'policies.json: policies[0].action.params: unknown field (policy "mfa-admins"); an action has name and parameters',
    ],
    [
      'an empty action name',
      [policy({ action: { name: ' ' } })],
      'policies.json: policies[0].action.name: expected a non-empty string, got " " (policy "mfa-admins"); name the action an adapter handles, e.g. "enable-ca-policy"',
    ],
    [
      'parameters that are not an object',
      [policy({ action: { name: 'a', parameters: [1] } })],
      'policies.json: policies[0].action.parameters: expected an object, got an array (policy "mfa-admins"); write the parameters as an object or leave them out',
    ],
    [
      'a missing mode',
      [policy({ mode: undefined })],
      'policies.json: policies[0].mode: missing (policy "mfa-admins"); write "enforce", or "dry-run" to plan without changing anything',
    ],
    [
      'a wrong mode',
      [policy(), policy({ id: 'b' }), policy({ id: 'c' }), policy({ id: 'd', mode: 'force' })],
      'policies.json: policies[3].mode: expected "enforce" or "dry-run", got "force" (policy "d"); write "enforce", or "dry-run" to plan without changing anything',
    ],
    [
      'max_attempts of 0',
      [policy({ max_attempts: 0 })],
      'policies.json: policies[0].max_attempts: expected a whole number from 1 to 10, got number 0 (policy "mfa-admins"); change it or leave it out for the default',
    ],
    [
      'max_attempts of 1.5',
      [policy({ max_attempts: 1.5 })],
      'policies.json: policies[0].max_attempts: expected a whole number from 1 to 10, got number 1.5 (policy "mfa-admins"); change it or leave it out for the default',
    ],
    [
      'timeout_ms as a string',
      [policy({ timeout_ms: '30s' })],
      'policies.json: policies[0].timeout_ms: expected a whole number from 1 to 3600000, got "30s" (policy "mfa-admins"); change it or leave it out for the default',
    ],
    [
      'timeout_ms over an hour',
      [policy({ timeout_ms: 3_600_001 })],
      'policies.json: policies[0].timeout_ms: expected a whole number from 1 to 3600000, got number 3600001 (policy "mfa-admins"); change it or leave it out for the default',
    ],
  ])('refuses %s', (_name, document, message) => {
    expect(problem(document)).toBe(message);
  });
});
