import { readFile } from 'node:fs/promises';
import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration } from '../../domain/directory/directory-entities';
import { type GraphCloud, GRAPH_CLOUD_NAMES, isGraphCloud } from '../../domain/directory/graph-cloud';
import type { OrgPathHolder } from '../../domain/directory/org-path';
import { InvalidInputError } from '../../domain/errors';
import { describe, isPlainObject } from '../../domain/encoding/json-values';
import { translateFsError } from '../shared/fs-errors';
import { parseJson } from '../../domain/encoding/json-syntax-problem';
import { type MappingFail, memberIds, toDirectoryGroup, toDirectoryRole, toDirectoryUser, toMfaRegistration, toOrgPathHolder } from './graph-mapping';

/** A Graph export read into svc's entities, with the raw users kept for the org-path attribute. */
export interface GraphExport {
  tenant_id: string;
  cloud: GraphCloud;
  users: DirectoryUser[];
  groups: DirectoryGroup[];
  roles: DirectoryRole[];
  mfa_registrations: MfaRegistration[];
  rawUsers: Record<string, unknown>[];
}

/**
 * Reads a Graph export file (docs/graph.md, fixtures/graph-export.json): `tenant_id`, `cloud`, and the Graph
 * objects as GET returns them under `users`, `groups`, `directoryRoles` (each with a `members` array) and
 * `userRegistrationDetails`. Throws NotFoundError / PermissionError for the file, InvalidInputError (invalid-json,
 * invalid-graph-export) naming the file and the JSON path.
 */
export async function readGraphExportFile(file: string): Promise<GraphExport> {
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    throw translateFsError(error, file, 'Graph export file (graph.export)');
  }
  const doc = parseJson(text, file);
  const fail: MappingFail = (path, problem) => {
    throw new InvalidInputError('invalid-graph-export', `${file}: ${path}: ${problem}; see the export format in docs/graph.md`);
  };
  if (!isPlainObject(doc)) return fail('$', `expected an object, got ${describe(doc)}`);
  if (typeof doc.tenant_id !== 'string' || doc.tenant_id.trim() === '') fail('tenant_id', `expected the tenant id as a string, got ${describe(doc.tenant_id)}`);
  if (!isGraphCloud(doc.cloud)) fail('cloud', `expected one of ${GRAPH_CLOUD_NAMES.join(', ')}, got ${describe(doc.cloud)}`);
  const list = (key: string): Record<string, unknown>[] => {
    const value = doc[key];
    if (!Array.isArray(value)) return fail(key, `expected an array, got ${describe(value)}`);
    value.forEach((item, i) => {
      if (!isPlainObject(item)) fail(`${key}[${i}]`, `expected an object, got ${describe(item)}`);
    });
    return value as Record<string, unknown>[];
  };
  const rawUsers = list('users');
  return {
    tenant_id: doc.tenant_id as string,
    cloud: doc.cloud as GraphCloud,
    users: rawUsers.map((u, i) => toDirectoryUser(u, `users[${i}]`, fail)),
    groups: list('groups').map((g, i) => toDirectoryGroup(g, `groups[${i}]`, fail)),
    roles: list('directoryRoles').map((r, i) => toDirectoryRole(r, memberIds(r.members, `directoryRoles[${i}].members`, fail), `directoryRoles[${i}]`, fail)),
    mfa_registrations: list('userRegistrationDetails').map((r, i) => toMfaRegistration(r, `userRegistrationDetails[${i}]`, fail)),
    rawUsers,
  };
}

export function exportOrgPathHolders(file: string, data: GraphExport, attribute: string): OrgPathHolder[] {
  return data.rawUsers.map((u, i) =>
    toOrgPathHolder(u, attribute, `users[${i}]`, (path, problem) => {
      throw new InvalidInputError('invalid-graph-export', `${file}: ${path}: ${problem}; see the export format in docs/graph.md`);
    }),
  );
}
