/**
 * What svc reads from a Microsoft Entra directory, in svc's own snake_case shape. The Graph adapter and the export
 * file reader map Graph's objects onto these (src/infrastructure/directory/graph-mapping.ts, docs/graph.md).
 */
export type UserType = 'Member' | 'Guest';

export interface DirectoryUser {
  id: string;
  user_principal_name: string;
  display_name: string | null;
  user_type: UserType;
  account_enabled: boolean;
  department: string | null;
  office_location: string | null;
  /** Graph createdDateTime; null when the directory did not say. */
  created_at: string | null;
  /** Graph signInActivity.lastSignInDateTime; null when the account never signed in (or the tenant lacks the data). */
  last_sign_in_at: string | null;
}

export interface DirectoryGroup {
  id: string;
  display_name: string | null;
  security_enabled: boolean;
  mail_enabled: boolean;
  /** Graph groupTypes, e.g. ["Unified"] for Microsoft 365 groups, ["DynamicMembership"]. */
  group_types: string[];
  /** Graph isAssignableToRole: the group can hold Entra roles. */
  role_assignable: boolean;
}

/** An activated directory role with the ids of its direct members (users, groups or service principals). */
export interface DirectoryRole {
  id: string;
  display_name: string;
  role_template_id: string;
  member_ids: string[];
}

/** One user's row of the authentication methods registration report (userRegistrationDetails). */
export interface MfaRegistration {
  user_id: string;
  user_principal_name: string | null;
  is_mfa_registered: boolean;
  is_mfa_capable: boolean;
  methods_registered: string[];
}

export function isUserType(value: unknown): value is UserType {
  return value === 'Member' || value === 'Guest';
}
