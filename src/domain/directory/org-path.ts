import { describe, isPlainObject } from '../encoding/json-values';
import type { UserType } from './directory-entities';

/**
 * An organizational path rule: users matching every key of `match` get `path`. A department or office matches
 * when equal to one of the listed values, ignoring case and surrounding spaces; an empty `match` matches everyone
 * (a catch-all, put it last). The first matching rule wins.
 */
export interface OrgPathRule {
  match: { department?: string | string[]; office?: string | string[]; user_type?: UserType };
  path: string;
}

/** A user as the org-path directory reads it: the attributes rules match on, and the current path. */
export interface OrgPathHolder {
  user_id: string;
  user_principal_name: string;
  user_type: UserType;
  department: string | null;
  office_location: string | null;
  /** The path held in the configured attribute; null when empty. */
  path: string | null;
}

export type OrgPathChange = 'set' | 'unchanged' | 'no-rule';

export interface OrgPathPlanEntry {
  user_id: string;
  user_principal_name: string;
  current: string | null;
  proposed: string | null;
  /** Index of the rule that matched; null when none did. */
  rule: number | null;
  change: OrgPathChange;
}

export const ORG_PATH_MAX_LENGTH = 256;
const SEGMENT = /^[A-Za-z0-9 ._-]+$/;

/** What is wrong with a path, or undefined when it is valid: `/Segment/Segment`, segments of [A-Za-z0-9 ._-], ≤ 256 characters. */
export function orgPathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string') return 'expected a string such as "/Contoso/Finance/Payroll"';
  if (path.length > ORG_PATH_MAX_LENGTH) return `is ${path.length} characters long, the limit is ${ORG_PATH_MAX_LENGTH}`;
  if (!path.startsWith('/')) return `${JSON.stringify(path)} does not start with "/"`;
  const segments = path.slice(1).split('/');
  const bad = segments.findIndex((s) => !SEGMENT.test(s));
  if (bad !== -1) {
    const segment = segments[bad];
    return segment === ''
      ? `${JSON.stringify(path)} has an empty segment`
      : `segment ${JSON.stringify(segment)} may only hold letters, digits, spaces, ".", "_" and "-"`;
  }
  return undefined;
}

/** Which rule, if any, applies to each user, and whether the path changes. Users keep their order. */
export function planOrgPaths(holders: readonly OrgPathHolder[], rules: readonly OrgPathRule[]): OrgPathPlanEntry[] {
  return holders.map((h) => {
    const index = rules.findIndex((rule) => matches(rule, h));
    const proposed = index === -1 ? null : rules[index].path;
    const change: OrgPathChange = proposed === null ? 'no-rule' : proposed === h.path ? 'unchanged' : 'set';
    return { user_id: h.user_id, user_principal_name: h.user_principal_name, current: h.path, proposed, rule: index === -1 ? null : index, change };
  });
}

function matches(rule: OrgPathRule, h: OrgPathHolder): boolean {
  const { department, office, user_type } = rule.match;
  if (user_type !== undefined && h.user_type !== user_type) return false;
  if (department !== undefined && !oneOf(h.department, department)) return false;
  if (office !== undefined && !oneOf(h.office_location, office)) return false;
  return true;
}

function oneOf(value: string | null, wanted: string | string[]): boolean {
  if (value === null) return false;
  const v = value.trim().toLowerCase();
  return (Array.isArray(wanted) ? wanted : [wanted]).some((w) => w.trim().toLowerCase() === v);
}

/**
 * Reads rules from JSON strictly, calling `fail(path, problem)` (which throws) for the first problem: an array of
 * `{match: {department?, office?, user_type?}, path}` with a valid path and no unknown keys.
 */
export function readOrgPathRules(value: unknown, at: string, fail: (path: string, problem: string) => never): OrgPathRule[] {
  if (!Array.isArray(value)) return fail(at, `expected an array of rules {"match": {...}, "path": "/Org/Unit"}, got ${describe(value)}`);
  return value.map((rule, i) => {
    const here = `${at}[${i}]`;
    if (!isPlainObject(rule)) return fail(here, `expected an object {"match": {...}, "path": "/Org/Unit"}, got ${describe(rule)}`);
    for (const key of Object.keys(rule)) if (key !== 'match' && key !== 'path') fail(`${here}.${key}`, 'unknown key (known: match, path)');
    const problem = orgPathProblem(rule.path);
    if (problem !== undefined) fail(`${here}.path`, problem);
    const match = rule.match ?? {};
    if (!isPlainObject(match)) return fail(`${here}.match`, `expected an object, got ${describe(match)}`);
    const out: OrgPathRule['match'] = {};
    for (const [key, v] of Object.entries(match)) {
      if (key === 'department' || key === 'office') {
        const values = Array.isArray(v) ? v : [v];
        if (values.length === 0 || values.some((x) => typeof x !== 'string' || x.trim() === ''))
          fail(`${here}.match.${key}`, `expected a non-empty string or an array of them, got ${describe(v)}`);
        out[key] = v as string | string[];
      } else if (key === 'user_type') {
        if (v !== 'Member' && v !== 'Guest') fail(`${here}.match.user_type`, `expected "Member" or "Guest", got ${describe(v)}`);
        out.user_type = v as UserType;
      } else {
        fail(`${here}.match.${key}`, 'unknown key (known: department, office, user_type)');
      }
    }
    return { match: out, path: rule.path as string };
  });
}
