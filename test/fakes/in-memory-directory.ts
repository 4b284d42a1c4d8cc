import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration } from '../../src/domain/directory/directory-entities';
import type { DirectoryIdentity, DirectoryService } from '../../src/ports/directory-service';

/** A directory held in memory; tests fill the lists and read `calls` to see what was asked. */
export class InMemoryDirectory implements DirectoryService {
  users: DirectoryUser[] = [];
  groups: DirectoryGroup[] = [];
  roles: DirectoryRole[] = [];
  registrations: MfaRegistration[] = [];
  readonly calls: string[] = [];

  constructor(public tenant: DirectoryIdentity = { tenant_id: 'contoso.onmicrosoft.com', cloud: 'Public', source: 'graph' }) {}

  async identity(): Promise<DirectoryIdentity> {
    this.calls.push('identity');
    return this.tenant;
  }

  async listUsers(): Promise<DirectoryUser[]> {
    this.calls.push('users');
    return this.users;
  }

  async listGroups(): Promise<DirectoryGroup[]> {
    this.calls.push('groups');
    return this.groups;
  }

  async listRoles(): Promise<DirectoryRole[]> {
    this.calls.push('roles');
    return this.roles;
  }

  async listMfaRegistrations(): Promise<MfaRegistration[]> {
    this.calls.push('registrations');
    return this.registrations;
  }
}
