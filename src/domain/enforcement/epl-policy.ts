import { normalizeControlId } from '../catalog/ksi-catalog';
import { InvalidInputError } from '../errors';
import { KSI_ID_PATTERN } from '../ksi/ksi-result';
import { describe, isPlainObject } from '../encoding/json-values';
import { checkCondition, type EplCondition } from './epl-condition';

export const EPL_MODES = ['enforce', 'dry-run'] as const;
export type EplMode = (typeof EPL_MODES)[number];

/** What an adapter is asked to do: a name it recognises (`canHandle`) and its parameters. */
export interface EnforcementAction {
  name: string;
  parameters?: Record<string, unknown>;
}

/**
 * The enforcement-policy contract (docs/enforcement.md): when `condition` holds for the KSI result of `target`,
 * the policy is violated and, in mode `enforce`, `action` is handed to the adapter that can handle it.
 */
export interface EPLPolicy {
  /** Unique in a batch: letters, digits, `.`, `_`, `:`, `-`; at most 128 characters. */
  id: string;
  description?: string;
  /** A KSI id (`KSI-IA-02`) or a control id (`ac-2`, `ia-2.1`), which names the KSI that covers the control. */
  target: string;
  /** The policy is violated when this holds for the target's result. */
  condition: EplCondition;
  action: EnforcementAction;
  /** `dry-run` evaluates and plans, and never calls an adapter. */
  mode: EplMode;
  /** Enforce + verify rounds tried before FAILED; 1 to 10, default 1. */
  max_attempts?: number;
  /** The most the enforcement of this policy (every attempt and verification) may take; 1 to 3,600,000 ms, default 30,000. */
  timeout_ms?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 1;
export const MAX_ATTEMPTS_LIMIT = 10;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const TIMEOUT_MS_LIMIT = 3_600_000;

const POLICY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const POLICY_FIELDS = ['id', 'description', 'target', 'condition', 'action', 'mode', 'max_attempts', 'timeout_ms'];
const ACTION_FIELDS = ['name', 'parameters'];

/**
 * Checks a policy document: an array of policies or `{"policies": [...]}`. Returns the policies as given (not
 * copied). Throws InvalidInputError `invalid-epl-policy` naming `source`, the JSON path (`policies[3].mode`),
 * the policy's id once it is known, and the fix, for the first problem found.
 */
export function validatePolicies(value: unknown, source: string): EPLPolicy[] {
  let policyId: string | undefined;
  const fail = (path: string, problem: string, fix: string): never => {
    const which = policyId === undefined ? '' : ` (policy "${policyId}")`;
    throw new InvalidInputError('invalid-epl-policy', `${source}: ${path}: ${problem}${which}; ${fix}`);
  };
  let list: unknown[];
  if (Array.isArray(value)) {
    list = value;
  } else if (isPlainObject(value) && Array.isArray(value.policies)) {
    for (const key of Object.keys(value)) if (key !== 'policies') fail(key, 'unknown field', 'a policy document is {"policies": [...]}');
    list = value.policies;
  } else {
    return fail('$', `expected an array of policies or {"policies": [...]}, got ${describe(value)}`, 'see docs/enforcement.md for the policy contract');
  }
  const firstIndex = new Map<string, number>();
  list.forEach((policy, i) => {
    policyId = undefined;
    const at = `policies[${i}]`;
    if (!isPlainObject(policy)) fail(at, `expected a policy object, got ${describe(policy)}`, 'write {"id", "target", "condition", "action", "mode"}');
    const p = policy as Record<string, unknown>;
    if (typeof p.id !== 'string' || !POLICY_ID.test(p.id)) {
      fail(
        `${at}.id`,
        p.id === undefined ? 'missing' : `${describe(p.id)} is not a policy id`,
        'use 1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
      );
    }
    const id = p.id as string;
    const first = firstIndex.get(id);
    if (first !== undefined) fail(`${at}.id`, `duplicate "${id}" (first at policies[${first}])`, 'give each policy its own id');
    firstIndex.set(id, i);
    policyId = id;
    for (const key of Object.keys(p)) if (!POLICY_FIELDS.includes(key)) fail(`${at}.${key}`, 'unknown field', `a policy has ${POLICY_FIELDS.join(', ')}`);
    if (p.description !== undefined && typeof p.description !== 'string')
      fail(`${at}.description`, `expected a string, got ${describe(p.description)}`, 'write a string or leave it out');
    checkTarget(p.target, `${at}.target`, fail);
    if (p.condition === undefined) fail(`${at}.condition`, 'missing', 'say when the policy is violated, e.g. {"status_in": ["FAIL"]}');
    checkCondition(p.condition, `${at}.condition`, fail);
    checkAction(p.action, `${at}.action`, fail);
    if (p.mode === undefined) fail(`${at}.mode`, 'missing', 'write "enforce", or "dry-run" to plan without changing anything');
    if (!(EPL_MODES as readonly unknown[]).includes(p.mode)) {
      fail(`${at}.mode`, `expected "enforce" or "dry-run", got ${describe(p.mode)}`, 'write "enforce", or "dry-run" to plan without changing anything');
    }
    checkInteger(p.max_attempts, `${at}.max_attempts`, 1, MAX_ATTEMPTS_LIMIT, fail);
    checkInteger(p.timeout_ms, `${at}.timeout_ms`, 1, TIMEOUT_MS_LIMIT, fail);
  });
  return list as EPLPolicy[];
}

type Fail = (path: string, problem: string, fix: string) => never;

function checkTarget(target: unknown, at: string, fail: Fail): void {
  const fix = 'write a KSI id such as "KSI-IA-02" or a control id such as "ac-2"';
  if (target === undefined) fail(at, 'missing', fix);
  if (typeof target !== 'string') return fail(at, `expected a string, got ${describe(target)}`, fix);
  if (KSI_ID_PATTERN.test(target)) return;
  const control = normalizeControlId(target);
  if (control === target) return;
  if (control !== undefined) fail(at, `${describe(target)} is not in canonical form`, `write "${control}"`);
  fail(at, `${describe(target)} is not a KSI id or a control id`, fix);
}

function checkAction(action: unknown, at: string, fail: Fail): void {
  if (action === undefined) fail(at, 'missing', 'name what an adapter should do: {"name": "enable-ca-policy", "parameters": {...}}');
  if (!isPlainObject(action)) fail(at, `expected {"name", "parameters"}, got ${describe(action)}`, 'write {"name": "enable-ca-policy", "parameters": {...}}');
  const a = action as Record<string, unknown>;
  for (const key of Object.keys(a)) if (!ACTION_FIELDS.includes(key)) fail(`${at}.${key}`, 'unknown field', 'an action has name and parameters');
  if (typeof a.name !== 'string' || a.name.trim() === '')
    fail(`${at}.name`, `expected a non-empty string, got ${describe(a.name)}`, 'name the action an adapter handles, e.g. "enable-ca-policy"');
  if (a.parameters !== undefined && !isPlainObject(a.parameters))
    fail(`${at}.parameters`, `expected an object, got ${describe(a.parameters)}`, 'write the parameters as an object or leave them out');
}

function checkInteger(value: unknown, at: string, min: number, max: number, fail: Fail): void {
  if (value === undefined) return;
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max)) {
    fail(at, `expected a whole number from ${min} to ${max}, got ${describe(value)}`, 'change it or leave it out for the default');
  }
}
