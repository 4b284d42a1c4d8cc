import type { InjectionToken } from 'tsyringe';
import type { OrgPathHolder } from '../domain/directory/org-path';

/**
 * Where users' organizational paths live: one user property (GraphSettings.orgPathAttribute).
 *
 * Both methods throw what DirectoryService methods throw (ConfigError for missing permissions, UnavailableError,
 * IntegrityError). writePath also throws NotFoundError for an unknown user and ConfigError code
 * export-read-only when the directory is an export file (nothing is written offline).
 */
export interface OrgPathDirectory {
  /** The property the paths are read from and written to, for reports. */
  readonly attribute: string;
  listPaths(): Promise<OrgPathHolder[]>;
  writePath(userId: string, path: string): Promise<void>;
}

export const ORG_PATH_DIRECTORY: InjectionToken<OrgPathDirectory> = Symbol('OrgPathDirectory');
