import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration } from '../../src/domain/directory/directory-entities';
import type { SurveySource } from '../../src/domain/directory/directory-survey';
import type { GraphCloud } from '../../src/domain/directory/graph-cloud';
import { ConfigError, IntegrityError, InvalidInputError, UnavailableError } from '../../src/domain/errors';
import type { DirectoryService } from '../../src/ports/directory-service';

/** What a directory holds, in the port's terms: each harness seeds its implementation with exactly this. */
export interface DirectoryContent {
  tenant_id: string;
  cloud: GraphCloud;
  users: DirectoryUser[];
  groups: DirectoryGroup[];
  roles: DirectoryRole[];
  registrations: MfaRegistration[];
}

/** The application permissions of Microsoft Graph that the reads need (learn.microsoft.com/graph/permissions-reference). */
export type GraphPermission = 'User.Read.All' | 'AuditLog.Read.All' | 'Group.Read.All' | 'RoleManagement.Read.Directory';

/**
 * How a suite builds a DirectoryService over a given content, as it is set up in production: a stand-in Graph
 * serving it, an export file holding it, the fake filled with it. The optional members are the failures the
 * implementation can meet; each is set up for real (Graph answering 403, a port nothing listens on, a broken file).
 */
export interface DirectoryHarness {
  /** What identity() says the directory is read from. */
  source: SurveySource;
  over(content: DirectoryContent): Promise<DirectoryService>;
  /** Over `content`, the app not granted `permission`. */
  withoutPermission?(content: DirectoryContent, permission: GraphPermission): Promise<DirectoryService>;
  /** Over `content`, Microsoft Graph not reachable (nothing listens where it is called). */
  unreachable?(content: DirectoryContent): Promise<DirectoryService>;
  /** Over `content` with the `id` of its second user left out, as Graph answers or an export file holds it. */
  userWithoutId?(content: DirectoryContent): Promise<DirectoryService>;
  /** Over `content` (more users than a page), Graph's paging link pointing at another host. */
  foreignNextLink?(content: DirectoryContent): Promise<DirectoryService>;
  /** A file that is JSON but no Graph export. */
  notAnExport?(): Promise<DirectoryService>;
}

type Read = 'users' | 'groups' | 'roles' | 'registrations';

const READS: readonly Read[] = ['users', 'groups', 'roles', 'registrations'];

/** What each read needs granted: signInActivity on users needs AuditLog.Read.All besides User.Read.All. */
const NEEDS: Readonly<Record<Read, readonly GraphPermission[]>> = {
  users: ['User.Read.All', 'AuditLog.Read.All'],
  groups: ['Group.Read.All'],
  roles: ['RoleManagement.Read.Directory'],
  registrations: ['AuditLog.Read.All'],
};

function read(service: DirectoryService, what: Read): Promise<unknown[]> {
  if (what === 'users') return service.listUsers();
  if (what === 'groups') return service.listGroups();
  if (what === 'roles') return service.listRoles();
  return service.listMfaRegistrations();
}

function contentOf(content: DirectoryContent, what: Read): unknown[] {
  return what === 'users' ? content.users : what === 'groups' ? content.groups : what === 'roles' ? content.roles : content.registrations;
}

/** The tenant every content of the suite belongs to (a stand-in token endpoint serves one tenant). */
export const CONTRACT_TENANT = '7d3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b';

const GLOBAL_ADMINISTRATOR = '62e90394-69f5-4237-9190-012177145e10';
const USER_ADMINISTRATOR = 'fe930be7-5e62-47db-91af-98c3a49a38b1';
const SECURITY_READER = '5d6b6bb7-de71-4623-b4af-96380a352509';
const PRIVILEGED_ROLE_ADMINISTRATOR = 'e8611ab8-c189-46e8-94e1-60213ab1f814';

function user(n: number, overrides: Partial<DirectoryUser> = {}): DirectoryUser {
  return {
    id: `0c4e8a10-0000-4000-8000-00000000000${n}`,
    user_principal_name: `user${n}@contoso.onmicrosoft.com`,
    display_name: `User ${n}`,
    user_type: 'Member',
    account_enabled: true,
    department: 'Finance',
    office_location: 'Seattle',
    created_at: `2024-0${n}-10T09:00:00Z`,
    last_sign_in_at: `2026-11-1${n}T08:12:00Z`,
    ...overrides,
  };
}

const USERS: DirectoryUser[] = [
  user(1),
  user(2, {
    user_principal_name: 'partner_fabrikam.com#EXT#@contoso.onmicrosoft.com',
    display_name: 'Pärtner Ädmin (Fabrikam)',
    user_type: 'Guest',
    department: null,
    office_location: null,
  }),
  user(3, { account_enabled: false, created_at: null, last_sign_in_at: null }),
  user(4, { display_name: null, department: 'IT', office_location: 'Redmond' }),
  user(5, { department: 'Engineering', last_sign_in_at: '2025-12-31T23:59:59.123Z' }),
  user(6, { user_type: 'Guest', user_principal_name: 'auditor_3pao.example#EXT#@contoso.onmicrosoft.com' }),
  user(7, { department: 'HR', office_location: 'Zürich' }),
];
const id = (n: number) => USERS[n - 1].id;

const GROUPS: DirectoryGroup[] = [
  {
    id: '9a0b0001-1c2d-4e3f-8a9b-0c1d2e3f0001',
    display_name: 'Finance Team',
    security_enabled: false,
    mail_enabled: true,
    group_types: ['Unified'],
    role_assignable: false,
  },
  {
    id: '9a0b0002-1c2d-4e3f-8a9b-0c1d2e3f0002',
    display_name: 'All Engineers (dynamic)',
    security_enabled: true,
    mail_enabled: false,
    group_types: ['DynamicMembership'],
    role_assignable: false,
  },
  {
    id: '9a0b0003-1c2d-4e3f-8a9b-0c1d2e3f0003',
    display_name: 'Tier-0 Admins',
    security_enabled: true,
    mail_enabled: false,
    group_types: [],
    role_assignable: true,
  },
  {
    id: '9a0b0004-1c2d-4e3f-8a9b-0c1d2e3f0004',
    display_name: null,
    security_enabled: true,
    mail_enabled: true,
    group_types: ['Unified', 'DynamicMembership'],
    role_assignable: false,
  },
];

const SERVICE_PRINCIPAL = 'b2c3d4e5-0000-4000-8000-0000000000aa';

const ROLES: DirectoryRole[] = [
  { id: 'c0de0001-2b3c-4d5e-8f6a-7b8c9d0e0001', display_name: 'Global Administrator', role_template_id: GLOBAL_ADMINISTRATOR, member_ids: [id(1), id(5)] },
  // More members than a page of the stand-in Graph, a group and a service principal among them.
  {
    id: 'c0de0002-2b3c-4d5e-8f6a-7b8c9d0e0002',
    display_name: 'User Administrator',
    role_template_id: USER_ADMINISTRATOR,
    member_ids: [id(7), id(2), GROUPS[2].id, id(4), SERVICE_PRINCIPAL, id(1), id(6)],
  },
  { id: 'c0de0003-2b3c-4d5e-8f6a-7b8c9d0e0003', display_name: 'Security Reader', role_template_id: SECURITY_READER, member_ids: [] },
  {
    id: 'c0de0004-2b3c-4d5e-8f6a-7b8c9d0e0004',
    display_name: 'Privileged Role Administrator',
    role_template_id: PRIVILEGED_ROLE_ADMINISTRATOR,
    member_ids: [id(5)],
  },
];

const REGISTRATIONS: MfaRegistration[] = [
  {
    user_id: id(1),
    user_principal_name: USERS[0].user_principal_name,
    is_mfa_registered: true,
    is_mfa_capable: true,
    methods_registered: ['microsoftAuthenticatorPush', 'fido2'],
  },
  { user_id: id(2), user_principal_name: USERS[1].user_principal_name, is_mfa_registered: false, is_mfa_capable: false, methods_registered: [] },
  { user_id: id(3), user_principal_name: null, is_mfa_registered: false, is_mfa_capable: false, methods_registered: [] },
  { user_id: id(4), user_principal_name: USERS[3].user_principal_name, is_mfa_registered: true, is_mfa_capable: false, methods_registered: ['mobilePhone'] },
  {
    user_id: id(5),
    user_principal_name: USERS[4].user_principal_name,
    is_mfa_registered: true,
    is_mfa_capable: true,
    methods_registered: ['windowsHelloForBusiness', 'fido2', 'softwareOneTimePasscode'],
  },
  { user_id: id(6), user_principal_name: USERS[5].user_principal_name, is_mfa_registered: true, is_mfa_capable: true, methods_registered: ['email'] },
  {
    user_id: id(7),
    user_principal_name: USERS[6].user_principal_name,
    is_mfa_registered: false,
    is_mfa_capable: true,
    methods_registered: ['passKeyDeviceBound'],
  },
];

/** A tenant with guests, a disabled account, a never-signed-in one, nulls where Graph gives them, and roles of every size. */
export const CONTOSO: DirectoryContent = {
  tenant_id: CONTRACT_TENANT,
  cloud: 'Public',
  users: USERS,
  groups: GROUPS,
  roles: ROLES,
  registrations: REGISTRATIONS,
};

/**
 * What every DIRECTORY_SERVICE must do: answer the directory it reads, every object exactly and in the directory's
 * order, and fail with the error classes and codes the port names.
 */
export function directoryServiceContract(name: string, h: DirectoryHarness): void {
  describe(`${name} (DIRECTORY_SERVICE contract)`, () => {
    it('says which tenant and cloud it reads, and whether live or from an export', async () => {
      const service = await h.over(CONTOSO);
      expect(await service.identity()).toStrictEqual({ tenant_id: CONTRACT_TENANT, cloud: 'Public', source: h.source });
    });

    it('reads every user, group, role with its direct members, and registration row, exactly and in the directory’s order', async () => {
      const service = await h.over(CONTOSO);
      expect(await service.listUsers()).toStrictEqual(USERS);
      expect(await service.listGroups()).toStrictEqual(GROUPS);
      expect(await service.listRoles()).toStrictEqual(ROLES);
      expect(await service.listMfaRegistrations()).toStrictEqual(REGISTRATIONS);
    });

    it('answers the same however often and in whatever order it is asked', async () => {
      const service = await h.over(CONTOSO);
      expect(await service.listMfaRegistrations()).toStrictEqual(REGISTRATIONS);
      expect(await service.listRoles()).toStrictEqual(ROLES);
      expect(await Promise.all([service.listUsers(), service.listUsers(), service.listGroups()])).toStrictEqual([USERS, USERS, GROUPS]);
    });

    it('reads an empty directory as empty lists', async () => {
      const service = await h.over({ ...CONTOSO, users: [], groups: [], roles: [], registrations: [] });
      expect([await service.listUsers(), await service.listGroups(), await service.listRoles(), await service.listMfaRegistrations()]).toStrictEqual([
        [],
        [],
        [],
        [],
      ]);
    });

    it('reads another directory as that directory, not as the last one read', async () => {
      await (await h.over(CONTOSO)).listUsers();
      const small = { ...CONTOSO, users: [USERS[6], USERS[0]], groups: [GROUPS[3]], roles: [ROLES[2]], registrations: [REGISTRATIONS[6]] };
      const service = await h.over(small);
      expect([await service.listUsers(), await service.listGroups(), await service.listRoles(), await service.listMfaRegistrations()]).toStrictEqual([
        small.users,
        small.groups,
        small.roles,
        small.registrations,
      ]);
    });

    // The failures below are declared only for implementations that can meet them (an export file needs no permission).
    const { withoutPermission, unreachable, userWithoutId, foreignNextLink, notAnExport } = h;

    if (withoutPermission) {
      it.each([
        ['User.Read.All', ['users']],
        ['AuditLog.Read.All', ['users', 'registrations']],
        ['Group.Read.All', ['groups']],
        ['RoleManagement.Read.Directory', ['roles']],
      ] as const)(
        'without %s granted: ConfigError graph-permission-missing naming what to grant on %j, the other reads answered',
        async (permission, failing) => {
          const service = await withoutPermission.call(h, CONTOSO, permission);
          for (const what of READS) {
            if ((failing as readonly Read[]).includes(what)) {
              const error = await read(service, what).catch((e: unknown) => e);
              expect(error).toBeInstanceOf(ConfigError);
              expect(error).toMatchObject({ kind: 'config', code: 'graph-permission-missing' });
              for (const needed of NEEDS[what]) expect((error as Error).message).toContain(needed);
            } else {
              expect(await read(service, what)).toStrictEqual(contentOf(CONTOSO, what));
            }
          }
        },
      );
    }

    if (unreachable) {
      it('fails every read with UnavailableError graph-unreachable when Graph cannot be reached', async () => {
        const service = await unreachable.call(h, CONTOSO);
        for (const what of READS) {
          const error = await read(service, what).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(UnavailableError);
          expect(error).toMatchObject({ kind: 'unavailable', code: 'graph-unreachable' });
        }
      });
    }

    if (userWithoutId) {
      it('refuses a user without an id, naming it: IntegrityError from Graph, InvalidInputError from an export', async () => {
        const service = await userWithoutId.call(h, CONTOSO);
        const error = await service.listUsers().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(h.source === 'graph' ? IntegrityError : InvalidInputError);
        expect(error).toMatchObject({ code: h.source === 'graph' ? 'graph-unexpected-answer' : 'invalid-graph-export' });
        expect((error as Error).message).toContain('users[1].id: expected a non-empty string, got nothing');
      });
    }

    if (foreignNextLink) {
      it('refuses a paging link to another host with IntegrityError graph-foreign-next-link', async () => {
        const service = await foreignNextLink.call(h, CONTOSO);
        const error = await service.listUsers().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(IntegrityError);
        expect(error).toMatchObject({ kind: 'integrity', code: 'graph-foreign-next-link' });
      });
    }

    if (notAnExport) {
      it('refuses a file that is no Graph export with InvalidInputError invalid-graph-export, on every method', async () => {
        const service = await notAnExport.call(h);
        for (const call of [() => service.identity(), ...READS.map((what) => () => read(service, what))]) {
          const error = await call().catch((e: unknown) => e);
          expect(error).toBeInstanceOf(InvalidInputError);
          expect(error).toMatchObject({ kind: 'invalid-input', code: 'invalid-graph-export' });
        }
      });
    }
  });
}
