import { InvalidInputError } from '../errors';
import { describe, isIsoTime, isPlainObject } from '../encoding/json-values';
import { DAY_MS } from '../encoding/iso-time';
import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration, UserType } from './directory-entities';
import { isUserType } from './directory-entities';
import { type GraphCloud, GRAPH_CLOUD_NAMES, isGraphCloud } from './graph-cloud';
import { GLOBAL_ADMINISTRATOR_TEMPLATE_ID, PRIVILEGED_ROLE_TEMPLATES } from './privileged-roles';

export const DIRECTORY_SURVEY_SCHEMA = 'svc.directory-survey/v1';
/** Inactivity after which an enabled account counts as stale (FedRAMP/CISA guidance: 90 days, AC-2(3)). */
export const DEFAULT_STALE_DAYS = 90;

export type SurveySource = 'graph' | 'export';

export interface SurveyUserRef {
  id: string;
  user_principal_name: string;
  account_enabled: boolean;
}

export interface StaleAccount {
  id: string;
  user_principal_name: string;
  user_type: UserType;
  last_sign_in_at: string | null;
  created_at: string | null;
  /** Whole days since the last sign-in; null for an account that never signed in. */
  days_inactive: number | null;
}

export interface PrivilegedRoleHolder {
  user_id: string;
  user_principal_name: string;
  user_type: UserType;
  account_enabled: boolean;
  roles: { role_template_id: string; display_name: string }[];
  /** From the registration report; false when the report has no row for the user. */
  mfa_registered: boolean;
}

export interface SurveyCounts {
  users: number;
  members: number;
  guests: number;
  enabled_users: number;
  groups: number;
  roles: number;
  privileged_role_holders: number;
  global_administrators: number;
  stale_accounts: number;
  enabled_members_mfa_registered: number;
  enabled_members_without_mfa: number;
}

/** The facts of one directory survey: what was read, plus what svc derived from it. */
export interface DirectorySurvey {
  schema: typeof DIRECTORY_SURVEY_SCHEMA;
  tenant_id: string;
  cloud: GraphCloud;
  surveyed_at: string;
  source: SurveySource;
  stale_days: number;
  users: DirectoryUser[];
  groups: DirectoryGroup[];
  roles: DirectoryRole[];
  mfa_registrations: MfaRegistration[];
  guests: SurveyUserRef[];
  stale_accounts: StaleAccount[];
  privileged_role_holders: PrivilegedRoleHolder[];
  counts: SurveyCounts;
}

export interface SurveyFacts {
  tenant_id: string;
  cloud: GraphCloud;
  surveyed_at: string;
  source: SurveySource;
  stale_days?: number;
  users: DirectoryUser[];
  groups: DirectoryGroup[];
  roles: DirectoryRole[];
  mfa_registrations: MfaRegistration[];
}

const byUpn = <T extends { user_principal_name: string }>(a: T, b: T) =>
  a.user_principal_name < b.user_principal_name ? -1 : a.user_principal_name > b.user_principal_name ? 1 : 0;

/**
 * Derives guests, stale accounts, privileged role holders and counts from what was read. Stale: an enabled account
 * whose last sign-in is at least `stale_days` whole days before `surveyed_at`, or that never signed in and was
 * created at least that long ago (or when the directory does not say when it was created). Privileged role
 * holders are the users among the direct members of the roles in PRIVILEGED_ROLE_TEMPLATES; groups and service
 * principals holding roles are not users and are left out. Derived lists are sorted by user principal name.
 */
export function buildDirectorySurvey(facts: SurveyFacts): DirectorySurvey {
  const staleDays = facts.stale_days ?? DEFAULT_STALE_DAYS;
  const now = Date.parse(facts.surveyed_at);
  const daysSince = (time: string | null) => (time === null ? null : Math.floor((now - Date.parse(time)) / DAY_MS));
  const mfaByUser = new Map(facts.mfa_registrations.map((r) => [r.user_id, r]));
  const usersById = new Map(facts.users.map((u) => [u.id, u]));

  const guests = facts.users
    .filter((u) => u.user_type === 'Guest')
    .map((u) => ({ id: u.id, user_principal_name: u.user_principal_name, account_enabled: u.account_enabled }))
    .sort(byUpn);
  const stale: StaleAccount[] = [];
  for (const u of facts.users) {
    if (!u.account_enabled) continue;
    const inactive = daysSince(u.last_sign_in_at);
    const isStale = inactive !== null ? inactive >= staleDays : u.created_at === null || (daysSince(u.created_at) as number) >= staleDays;
    if (isStale)
      stale.push({
        id: u.id,
        user_principal_name: u.user_principal_name,
        user_type: u.user_type,
        last_sign_in_at: u.last_sign_in_at,
        created_at: u.created_at,
        days_inactive: inactive,
      });
  }
  stale.sort(byUpn);

  const holders = new Map<string, PrivilegedRoleHolder>();
  let globalAdmins = 0;
  for (const role of facts.roles) {
    const name = PRIVILEGED_ROLE_TEMPLATES[role.role_template_id];
    if (name === undefined) continue;
    for (const memberId of role.member_ids) {
      const user = usersById.get(memberId);
      if (user === undefined) continue;
      if (role.role_template_id === GLOBAL_ADMINISTRATOR_TEMPLATE_ID) globalAdmins += 1;
      let holder = holders.get(user.id);
      if (holder === undefined) {
        holder = {
          user_id: user.id,
          user_principal_name: user.user_principal_name,
          user_type: user.user_type,
          account_enabled: user.account_enabled,
          roles: [],
          mfa_registered: mfaByUser.get(user.id)?.is_mfa_registered === true,
        };
        holders.set(user.id, holder);
      }
      if (!holder.roles.some((r) => r.role_template_id === role.role_template_id))
        holder.roles.push({ role_template_id: role.role_template_id, display_name: name });
    }
  }
  for (const holder of holders.values()) holder.roles.sort((a, b) => (a.display_name < b.display_name ? -1 : a.display_name > b.display_name ? 1 : 0));
  const privileged = [...holders.values()].sort(byUpn);

  const enabledMembers = facts.users.filter((u) => u.account_enabled && u.user_type === 'Member');
  const registered = enabledMembers.filter((u) => mfaByUser.get(u.id)?.is_mfa_registered === true).length;
  return {
    schema: DIRECTORY_SURVEY_SCHEMA,
    tenant_id: facts.tenant_id,
    cloud: facts.cloud,
    surveyed_at: facts.surveyed_at,
    source: facts.source,
    stale_days: staleDays,
    users: facts.users,
    groups: facts.groups,
    roles: facts.roles,
    mfa_registrations: facts.mfa_registrations,
    guests,
    stale_accounts: stale,
    privileged_role_holders: privileged,
    counts: {
      users: facts.users.length,
      members: facts.users.length - guests.length,
      guests: guests.length,
      enabled_users: facts.users.filter((u) => u.account_enabled).length,
      groups: facts.groups.length,
      roles: facts.roles.length,
      privileged_role_holders: privileged.length,
      global_administrators: globalAdmins,
      stale_accounts: stale.length,
      enabled_members_mfa_registered: registered,
      enabled_members_without_mfa: enabledMembers.length - registered,
    },
  };
}

type Fail = (path: string, problem: string) => never;

/**
 * Reads a posted survey (the output of POST /survey/run, or one written by hand) strictly: every field of every
 * entity must have its type. The derived parts (guests, stale_accounts, privileged_role_holders, counts) are not
 * read: they are computed again from the lists, so they cannot disagree with them. Throws InvalidInputError
 * (code invalid-survey) naming the JSON path under `at`, e.g. `body.users[3].id: expected a string, got number 7`.
 */
export function readDirectorySurvey(value: unknown, at = 'body'): DirectorySurvey {
  const fail: Fail = (path, problem) => {
    throw new InvalidInputError('invalid-survey', `${path}: ${problem}; post a survey as returned by POST /survey/run (docs/graph.md)`);
  };
  const v = object(value, at, fail);
  if (v.schema !== undefined && v.schema !== DIRECTORY_SURVEY_SCHEMA) fail(`${at}.schema`, `expected "${DIRECTORY_SURVEY_SCHEMA}", got ${describe(v.schema)}`);
  const tenant = string(v.tenant_id, `${at}.tenant_id`, fail);
  if (!isGraphCloud(v.cloud)) fail(`${at}.cloud`, `expected one of ${GRAPH_CLOUD_NAMES.join(', ')}, got ${describe(v.cloud)}`);
  const surveyedAt = time(v.surveyed_at, `${at}.surveyed_at`, fail);
  if (surveyedAt === null) fail(`${at}.surveyed_at`, 'expected an ISO-8601 time, got null');
  if (v.source !== 'graph' && v.source !== 'export') fail(`${at}.source`, `expected "graph" or "export", got ${describe(v.source)}`);
  let staleDays: number | undefined;
  if (v.stale_days !== undefined) {
    if (!Number.isInteger(v.stale_days) || (v.stale_days as number) < 1)
      fail(`${at}.stale_days`, `expected a whole number of days, at least 1, got ${describe(v.stale_days)}`);
    staleDays = v.stale_days as number;
  }
  const users = array(v.users, `${at}.users`, fail).map((u, i) => readUser(u, `${at}.users[${i}]`, fail));
  const groups = array(v.groups, `${at}.groups`, fail).map((g, i) => readGroup(g, `${at}.groups[${i}]`, fail));
  const roles = array(v.roles, `${at}.roles`, fail).map((r, i) => readRole(r, `${at}.roles[${i}]`, fail));
  const mfa = array(v.mfa_registrations, `${at}.mfa_registrations`, fail).map((m, i) => readMfa(m, `${at}.mfa_registrations[${i}]`, fail));
  const seen = new Map<string, number>();
  users.forEach((u, i) => {
    const first = seen.get(u.id);
    if (first !== undefined) fail(`${at}.users[${i}].id`, `duplicate "${u.id}" (first at ${at}.users[${first}])`);
    seen.set(u.id, i);
  });
  return buildDirectorySurvey({
    tenant_id: tenant,
    cloud: v.cloud as GraphCloud,
    surveyed_at: surveyedAt as string,
    source: v.source as SurveySource,
    stale_days: staleDays,
    users,
    groups,
    roles,
    mfa_registrations: mfa,
  });
}

function readUser(value: unknown, at: string, fail: Fail): DirectoryUser {
  const u = object(value, at, fail);
  return {
    id: string(u.id, `${at}.id`, fail),
    user_principal_name: string(u.user_principal_name, `${at}.user_principal_name`, fail),
    display_name: nullableString(u.display_name, `${at}.display_name`, fail),
    user_type: userType(u.user_type, `${at}.user_type`, fail),
    account_enabled: boolean(u.account_enabled, `${at}.account_enabled`, fail),
    department: nullableString(u.department, `${at}.department`, fail),
    office_location: nullableString(u.office_location, `${at}.office_location`, fail),
    created_at: time(u.created_at, `${at}.created_at`, fail),
    last_sign_in_at: time(u.last_sign_in_at, `${at}.last_sign_in_at`, fail),
  };
}

function userType(value: unknown, at: string, fail: Fail): UserType {
  if (!isUserType(value)) fail(at, `expected "Member" or "Guest", got ${describe(value)}`);
  return value as UserType;
}

function readGroup(value: unknown, at: string, fail: Fail): DirectoryGroup {
  const g = object(value, at, fail);
  return {
    id: string(g.id, `${at}.id`, fail),
    display_name: nullableString(g.display_name, `${at}.display_name`, fail),
    security_enabled: boolean(g.security_enabled, `${at}.security_enabled`, fail),
    mail_enabled: boolean(g.mail_enabled, `${at}.mail_enabled`, fail),
    group_types: strings(g.group_types, `${at}.group_types`, fail),
    role_assignable: boolean(g.role_assignable, `${at}.role_assignable`, fail),
  };
}

function readRole(value: unknown, at: string, fail: Fail): DirectoryRole {
  const r = object(value, at, fail);
  return {
    id: string(r.id, `${at}.id`, fail),
    display_name: string(r.display_name, `${at}.display_name`, fail),
    role_template_id: string(r.role_template_id, `${at}.role_template_id`, fail),
    member_ids: strings(r.member_ids, `${at}.member_ids`, fail),
  };
}

function readMfa(value: unknown, at: string, fail: Fail): MfaRegistration {
  const m = object(value, at, fail);
  return {
    user_id: string(m.user_id, `${at}.user_id`, fail),
    user_principal_name: nullableString(m.user_principal_name, `${at}.user_principal_name`, fail),
    is_mfa_registered: boolean(m.is_mfa_registered, `${at}.is_mfa_registered`, fail),
    is_mfa_capable: boolean(m.is_mfa_capable, `${at}.is_mfa_capable`, fail),
    methods_registered: strings(m.methods_registered, `${at}.methods_registered`, fail),
  };
}

function object(value: unknown, at: string, fail: Fail): Record<string, unknown> {
  if (!isPlainObject(value)) fail(at, `expected an object, got ${describe(value)}`);
  return value as Record<string, unknown>;
}

function array(value: unknown, at: string, fail: Fail): unknown[] {
  if (!Array.isArray(value)) fail(at, `expected an array, got ${describe(value)}`);
  return value as unknown[];
}

function string(value: unknown, at: string, fail: Fail): string {
  if (typeof value !== 'string') fail(at, `expected a string, got ${describe(value)}`);
  if ((value as string).trim() === '') fail(at, 'expected a non-empty string');
  return value as string;
}

function nullableString(value: unknown, at: string, fail: Fail): string | null {
  if (value !== null && typeof value !== 'string') fail(at, `expected a string or null, got ${describe(value)}`);
  return value as string | null;
}

function boolean(value: unknown, at: string, fail: Fail): boolean {
  if (typeof value !== 'boolean') fail(at, `expected true or false, got ${describe(value)}`);
  return value as boolean;
}

function strings(value: unknown, at: string, fail: Fail): string[] {
  const list = array(value, at, fail);
  list.forEach((item, i) => {
    if (typeof item !== 'string') fail(`${at}[${i}]`, `expected a string, got ${describe(item)}`);
  });
  return list as string[];
}

function time(value: unknown, at: string, fail: Fail): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || !isIsoTime(value) || Number.isNaN(Date.parse(value))) fail(at, `expected an ISO-8601 time or null, got ${describe(value)}`);
  return value as string;
}
