import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration, UserType } from '../../domain/directory/directory-entities';
import type { OrgPathHolder } from '../../domain/directory/org-path';
import { describe } from '../../domain/encoding/json-values';

/** Called with a JSON path and a problem when a Graph object lacks what svc needs; throws. */
export type MappingFail = (path: string, problem: string) => never;

/** The user properties the survey reads ($select of GET /users). signInActivity needs AuditLog.Read.All. */
export const USER_SELECT = [
  'id',
  'userPrincipalName',
  'displayName',
  'userType',
  'accountEnabled',
  'department',
  'officeLocation',
  'createdDateTime',
  'signInActivity',
] as const;
export const GROUP_SELECT = ['id', 'displayName', 'securityEnabled', 'mailEnabled', 'groupTypes', 'isAssignableToRole'] as const;
export const ROLE_SELECT = ['id', 'displayName', 'roleTemplateId'] as const;
export const REGISTRATION_SELECT = ['id', 'userPrincipalName', 'isMfaRegistered', 'isMfaCapable', 'methodsRegistered'] as const;

/** Graph user → DirectoryUser. userType null (old accounts) counts as Member; accountEnabled missing as enabled. */
export function toDirectoryUser(u: Record<string, unknown>, at: string, fail: MappingFail): DirectoryUser {
  const sign = u.signInActivity;
  const lastSignIn = sign !== null && typeof sign === 'object' ? (sign as Record<string, unknown>).lastSignInDateTime : null;
  return {
    id: text(u.id, `${at}.id`, fail),
    user_principal_name: text(u.userPrincipalName, `${at}.userPrincipalName`, fail),
    display_name: optionalText(u.displayName, `${at}.displayName`, fail),
    user_type: userType(u.userType, `${at}.userType`, fail),
    account_enabled: optionalFlag(u.accountEnabled, `${at}.accountEnabled`, fail) ?? true,
    department: optionalText(u.department, `${at}.department`, fail),
    office_location: optionalText(u.officeLocation, `${at}.officeLocation`, fail),
    created_at: time(u.createdDateTime, `${at}.createdDateTime`, fail),
    last_sign_in_at: time(lastSignIn, `${at}.signInActivity.lastSignInDateTime`, fail),
  };
}

export function toDirectoryGroup(g: Record<string, unknown>, at: string, fail: MappingFail): DirectoryGroup {
  return {
    id: text(g.id, `${at}.id`, fail),
    display_name: optionalText(g.displayName, `${at}.displayName`, fail),
    security_enabled: optionalFlag(g.securityEnabled, `${at}.securityEnabled`, fail) ?? false,
    mail_enabled: optionalFlag(g.mailEnabled, `${at}.mailEnabled`, fail) ?? false,
    group_types: texts(g.groupTypes, `${at}.groupTypes`, fail),
    role_assignable: optionalFlag(g.isAssignableToRole, `${at}.isAssignableToRole`, fail) ?? false,
  };
}

export function toDirectoryRole(r: Record<string, unknown>, memberIds: string[], at: string, fail: MappingFail): DirectoryRole {
  return {
    id: text(r.id, `${at}.id`, fail),
    display_name: text(r.displayName, `${at}.displayName`, fail),
    role_template_id: text(r.roleTemplateId, `${at}.roleTemplateId`, fail),
    member_ids: memberIds,
  };
}

export function memberIds(members: unknown, at: string, fail: MappingFail): string[] {
  if (!Array.isArray(members)) return fail(at, `expected an array of members, got ${describe(members)}`);
  return members.map((m, i) => {
    if (m === null || typeof m !== 'object') return fail(`${at}[${i}]`, `expected an object with an id, got ${describe(m)}`);
    return text((m as Record<string, unknown>).id, `${at}[${i}].id`, fail);
  });
}

/** A userRegistrationDetails row; its `id` is the user's id. */
export function toMfaRegistration(r: Record<string, unknown>, at: string, fail: MappingFail): MfaRegistration {
  return {
    user_id: text(r.id, `${at}.id`, fail),
    user_principal_name: optionalText(r.userPrincipalName, `${at}.userPrincipalName`, fail),
    is_mfa_registered: optionalFlag(r.isMfaRegistered, `${at}.isMfaRegistered`, fail) ?? false,
    is_mfa_capable: optionalFlag(r.isMfaCapable, `${at}.isMfaCapable`, fail) ?? false,
    methods_registered: texts(r.methodsRegistered, `${at}.methodsRegistered`, fail),
  };
}

/** The $select that reads an org-path attribute: its top-level property (onPremisesExtensionAttributes for extensionAttributeN). */
export function orgPathSelect(attribute: string): string[] {
  return ['id', 'userPrincipalName', 'userType', 'department', 'officeLocation', attribute.split('.')[0]];
}

export function toOrgPathHolder(u: Record<string, unknown>, attribute: string, at: string, fail: MappingFail): OrgPathHolder {
  const [top, nested] = attribute.split('.');
  let value: unknown = u[top];
  if (nested !== undefined) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[nested] : null;
  const path = optionalText(value, `${at}.${attribute}`, fail);
  return {
    user_id: text(u.id, `${at}.id`, fail),
    user_principal_name: text(u.userPrincipalName, `${at}.userPrincipalName`, fail),
    user_type: userType(u.userType, `${at}.userType`, fail),
    department: optionalText(u.department, `${at}.department`, fail),
    office_location: optionalText(u.officeLocation, `${at}.officeLocation`, fail),
    path: path === null || path.trim() === '' ? null : path,
  };
}

/** The PATCH body that sets the attribute: `{onPremisesExtensionAttributes: {extensionAttribute1: path}}` or `{prop: path}`. */
export function orgPathPatch(attribute: string, path: string): Record<string, unknown> {
  const [top, nested] = attribute.split('.');
  return nested === undefined ? { [top]: path } : { [top]: { [nested]: path } };
}

function text(value: unknown, at: string, fail: MappingFail): string {
  if (typeof value !== 'string' || value === '') return fail(at, `expected a non-empty string, got ${describe(value)}`);
  return value;
}

function optionalText(value: unknown, at: string, fail: MappingFail): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return fail(at, `expected a string or null, got ${describe(value)}`);
  return value;
}

function optionalFlag(value: unknown, at: string, fail: MappingFail): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') return fail(at, `expected true or false, got ${describe(value)}`);
  return value;
}

function texts(value: unknown, at: string, fail: MappingFail): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail(at, `expected an array of strings, got ${describe(value)}`);
  value.forEach((v, i) => {
    if (typeof v !== 'string') fail(`${at}[${i}]`, `expected a string, got ${describe(v)}`);
  });
  return value as string[];
}

function userType(value: unknown, at: string, fail: MappingFail): UserType {
  if (value === undefined || value === null || value === 'Member') return 'Member';
  if (value === 'Guest') return 'Guest';
  return fail(at, `expected "Member" or "Guest", got ${describe(value)}`);
}

function time(value: unknown, at: string, fail: MappingFail): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return fail(at, `expected an ISO-8601 time or null, got ${describe(value)}`);
  return value;
}
