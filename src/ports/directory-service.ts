import type { InjectionToken } from 'tsyringe';
import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration } from '../domain/directory/directory-entities';
import type { SurveySource } from '../domain/directory/directory-survey';
import type { GraphCloud } from '../domain/directory/graph-cloud';

export interface DirectoryIdentity {
  tenant_id: string;
  cloud: GraphCloud;
  source: SurveySource;
}

/**
 * Reads a Microsoft Entra directory (Microsoft Graph, or a Graph export file offline).
 *
 * Every method throws ConfigError when the app lacks a permission (code graph-permission-missing, naming the
 * application permission to grant) or its credentials are refused or missing, UnavailableError when Graph or the
 * token endpoint cannot be reached or stays throttled beyond the retry budget, IntegrityError when Graph answers
 * something that cannot be trusted (a paging link to another host), and InvalidInputError when an export file
 * is not a Graph export.
 */
export interface DirectoryService {
  /** Which tenant and cloud this reads, and whether live or from an export. */
  identity(): Promise<DirectoryIdentity>;
  listUsers(): Promise<DirectoryUser[]>;
  listGroups(): Promise<DirectoryGroup[]>;
  /** Activated directory roles, each with the ids of its direct members. */
  listRoles(): Promise<DirectoryRole[]>;
  /** The authentication methods registration report, one row per user. */
  listMfaRegistrations(): Promise<MfaRegistration[]>;
}

export const DIRECTORY_SERVICE: InjectionToken<DirectoryService> = Symbol('DirectoryService');
