import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration } from '../../src/domain/directory/directory-entities';
import { ConfigError, UnavailableError } from '../../src/domain/errors';
import type { DirectoryIdentity, DirectoryService } from '../../src/ports/directory-service';

type Read = 'users' | 'groups' | 'roles' | 'registrations';

/**
 * The application permissions each read needs, as Microsoft Graph's permissions reference lists them: signInActivity
 * on users needs AuditLog.Read.All besides User.Read.All, as the registration report does.
 */
const NEEDS: Readonly<Record<Read, readonly string[]>> = {
  users: ['User.Read.All', 'AuditLog.Read.All'],
  groups: ['Group.Read.All'],
  roles: ['RoleManagement.Read.Directory'],
  registrations: ['AuditLog.Read.All'],
};

const ENDPOINTS: Readonly<Record<Read, string>> = {
  users: 'GET https://graph.microsoft.com/v1.0/users',
  groups: 'GET https://graph.microsoft.com/v1.0/groups',
  roles: 'GET https://graph.microsoft.com/v1.0/directoryRoles',
  registrations: 'GET https://graph.microsoft.com/v1.0/reports/authenticationMethods/userRegistrationDetails',
};

/**
 * A directory held in memory; tests fill the lists and read `calls` to see what was asked. `denied` and
 * `unreachable` make reads fail as the Graph adapter's do (DirectoryService), with the same error classes and codes.
 */
export class InMemoryDirectory implements DirectoryService {
  users: DirectoryUser[] = [];
  groups: DirectoryGroup[] = [];
  roles: DirectoryRole[] = [];
  registrations: MfaRegistration[] = [];
  readonly calls: string[] = [];
  /** Application permissions the app is not granted: a read that needs one throws ConfigError graph-permission-missing. */
  readonly denied = new Set<string>();
  /** When set, every list read throws UnavailableError graph-unreachable; identity still answers, from configuration. */
  unreachable = false;

  constructor(public tenant: DirectoryIdentity = { tenant_id: 'contoso.onmicrosoft.com', cloud: 'Public', source: 'graph' }) {}

  async identity(): Promise<DirectoryIdentity> {
    this.calls.push('identity');
    return this.tenant;
  }

  async listUsers(): Promise<DirectoryUser[]> {
    this.read('users');
    return this.users;
  }

  async listGroups(): Promise<DirectoryGroup[]> {
    this.read('groups');
    return this.groups;
  }

  async listRoles(): Promise<DirectoryRole[]> {
    this.read('roles');
    return this.roles;
  }

  async listMfaRegistrations(): Promise<MfaRegistration[]> {
    this.read('registrations');
    return this.registrations;
  }

  private read(what: Read): void {
    this.calls.push(what);
    const endpoint = ENDPOINTS[what];
    if (this.unreachable) {
      throw new UnavailableError(
        'graph-unreachable',
        `${endpoint}: connect ECONNREFUSED; check graph.cloud (or graph.graph_host), the network and graph.ca_file`,
      );
    }
    if (NEEDS[what].some((permission) => this.denied.has(permission))) {
      throw new ConfigError(
        'graph-permission-missing',
        `${endpoint}: Microsoft Graph answered 403; grant the app the application permission ${NEEDS[what].join(' and ')} and give admin consent`,
      );
    }
  }
}
