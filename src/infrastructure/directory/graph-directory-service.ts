import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration } from '../../domain/directory/directory-entities';
import type { GraphCloud } from '../../domain/directory/graph-cloud';
import { IntegrityError } from '../../domain/errors';
import type { DirectoryIdentity, DirectoryService } from '../../ports/directory-service';
import type { GraphClient } from './graph-client';
import {
  GROUP_SELECT,
  type MappingFail,
  memberIds,
  REGISTRATION_SELECT,
  ROLE_SELECT,
  toDirectoryGroup,
  toDirectoryRole,
  toDirectoryUser,
  toMfaRegistration,
  USER_SELECT,
} from './graph-mapping';

/** Application permissions each read needs (Microsoft Graph permissions reference, least privileged that work). */
export const PERMISSIONS = {
  users: ['User.Read.All', 'AuditLog.Read.All'],
  groups: ['Group.Read.All'],
  roles: ['RoleManagement.Read.Directory'],
  registrations: ['AuditLog.Read.All'],
} as const;

/** DirectoryService over Microsoft Graph v1.0 (client credentials). */
export class GraphDirectoryService implements DirectoryService {
  constructor(
    private readonly graph: GraphClient,
    private readonly tenant: { tenantId: string; cloud: GraphCloud },
  ) {}

  async identity(): Promise<DirectoryIdentity> {
    return { tenant_id: this.tenant.tenantId, cloud: this.tenant.cloud, source: 'graph' };
  }

  async listUsers(): Promise<DirectoryUser[]> {
    // $top 500: the largest page Graph serves when signInActivity is selected.
    const users = await this.graph.list('users', { select: USER_SELECT, top: 500 }, PERMISSIONS.users);
    return users.map((u, i) => toDirectoryUser(u, `users[${i}]`, unexpected('GET /users')));
  }

  async listGroups(): Promise<DirectoryGroup[]> {
    const groups = await this.graph.list('groups', { select: GROUP_SELECT, top: 999 }, PERMISSIONS.groups);
    return groups.map((g, i) => toDirectoryGroup(g, `groups[${i}]`, unexpected('GET /groups')));
  }

  async listRoles(): Promise<DirectoryRole[]> {
    const roles = await this.graph.list('directoryRoles', { select: ROLE_SELECT }, PERMISSIONS.roles);
    const out: DirectoryRole[] = [];
    for (const [i, role] of roles.entries()) {
      const fail = unexpected('GET /directoryRoles');
      if (typeof role.id !== 'string' || role.id === '') fail(`directoryRoles[${i}].id`, 'missing');
      const members = await this.graph.list(`directoryRoles/${encodeURIComponent(role.id as string)}/members`, { select: ['id'], top: 999 }, PERMISSIONS.roles);
      out.push(toDirectoryRole(role, memberIds(members, `directoryRoles[${i}].members`, fail), `directoryRoles[${i}]`, fail));
    }
    return out;
  }

  async listMfaRegistrations(): Promise<MfaRegistration[]> {
    const rows = await this.graph.list(
      'reports/authenticationMethods/userRegistrationDetails',
      { select: REGISTRATION_SELECT, top: 999 },
      PERMISSIONS.registrations,
    );
    return rows.map((r, i) => toMfaRegistration(r, `userRegistrationDetails[${i}]`, unexpected('GET /reports/authenticationMethods/userRegistrationDetails')));
  }
}

function unexpected(endpoint: string): MappingFail {
  return (path, problem) => {
    throw new IntegrityError('graph-unexpected-answer', `${endpoint}: ${path}: ${problem}; Microsoft Graph answered an object svc cannot read`);
  };
}
