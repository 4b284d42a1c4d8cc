import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDirectoryService } from '../../../src/infrastructure/directory/graph-adapters';
import { DEFAULT_ORG_PATH_ATTRIBUTE, type GraphSettings } from '../../../src/ports/graph-settings';
import { CONTOSO, CONTRACT_TENANT, type DirectoryContent, directoryServiceContract, type GraphPermission } from '../../contracts/directory-service.contract';
import { InMemoryDirectory } from '../../fakes/in-memory-directory';
import { FakeGraph, type GraphData } from '../../support/fake-graph';

const CLIENT = '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7';
const SECRET = 'contract-secret~0123456789';
const RETRY = { attempts: 3, maxWaitMs: 10_000 };

let dir: string;
let fake: FakeGraph;
let files = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-directory-contract-'));
  // Pages of 3, so every list of the contract's directory but the smallest spans pages.
  fake = await new FakeGraph({
    dir: join(dir, 'pki'),
    tenantId: CONTRACT_TENANT,
    clientId: CLIENT,
    secret: SECRET,
    data: graphDataOf(CONTOSO),
    pageSize: 3,
  }).start();
});

afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The Graph objects GET returns for `content` (docs/graph.md), the inverse of svc's mapping. */
function graphDataOf(content: DirectoryContent): GraphData {
  return {
    users: content.users.map((u) => ({
      id: u.id,
      userPrincipalName: u.user_principal_name,
      displayName: u.display_name,
      userType: u.user_type,
      accountEnabled: u.account_enabled,
      department: u.department,
      officeLocation: u.office_location,
      createdDateTime: u.created_at,
      signInActivity: { lastSignInDateTime: u.last_sign_in_at, lastNonInteractiveSignInDateTime: null },
      // Not selected by svc: Graph leaves it out of the answer, an export file may hold it.
      mail: `${u.user_principal_name.split('@')[0]}@contoso.example`,
    })),
    groups: content.groups.map((g) => ({
      id: g.id,
      displayName: g.display_name,
      securityEnabled: g.security_enabled,
      mailEnabled: g.mail_enabled,
      groupTypes: g.group_types,
      isAssignableToRole: g.role_assignable,
    })),
    directoryRoles: content.roles.map((r) => ({
      id: r.id,
      displayName: r.display_name,
      roleTemplateId: r.role_template_id,
      members: r.member_ids.map((id) => ({ '@odata.type': '#microsoft.graph.directoryObject', id })),
    })),
    userRegistrationDetails: content.registrations.map((r) => ({
      id: r.user_id,
      userPrincipalName: r.user_principal_name,
      isMfaRegistered: r.is_mfa_registered,
      isMfaCapable: r.is_mfa_capable,
      methodsRegistered: r.methods_registered,
    })),
  };
}

function withoutSecondUserId(data: GraphData): GraphData {
  const { id: _id, ...rest } = data.users[1];
  return { ...data, users: [data.users[0], rest, ...data.users.slice(2)] };
}

/** A port nothing listens on: one the kernel just handed out and took back. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What a permission missing makes Graph refuse with 403: signInActivity on /users needs AuditLog.Read.All too. */
const FORBIDDEN: Record<GraphPermission, string[]> = {
  'User.Read.All': ['/v1.0/users'],
  'AuditLog.Read.All': ['/v1.0/users', '/v1.0/reports/authenticationMethods/userRegistrationDetails'],
  'Group.Read.All': ['/v1.0/groups'],
  'RoleManagement.Read.Directory': ['/v1.0/directoryRoles'],
};

/** The stand-in Graph serving `data` and nothing else queued, and a service with new settings (so a new token cache). */
function graphOver(content: DirectoryContent, data: GraphData = graphDataOf(content), overrides: Partial<GraphSettings> = {}) {
  fake.serve(data);
  fake.canned.clear();
  fake.forbidden.clear();
  fake.nextLinkHost = undefined;
  fake.tokenAnswer = undefined;
  const settings = fake.settings({ cloud: content.cloud as GraphSettings['cloud'], tenantId: content.tenant_id, ...overrides });
  return createDirectoryService(settings, { env: { SVC_GRAPH_SECRET: SECRET }, sleep: async () => undefined });
}

directoryServiceContract('GraphDirectoryService against a local token endpoint and Graph', {
  source: 'graph',
  over: async (content) => graphOver(content),
  withoutPermission: async (content, permission) => {
    const service = graphOver(content);
    for (const path of FORBIDDEN[permission]) fake.forbidden.add(path);
    return service;
  },
  // The token endpoint answers; Graph's host is a port nothing listens on.
  unreachable: async (content) => graphOver(content, undefined, { graphHost: `127.0.0.1:${await deadPort()}` }),
  userWithoutId: async (content) => graphOver(content, withoutSecondUserId(graphDataOf(content))),
  foreignNextLink: async (content) => {
    const service = graphOver(content);
    fake.nextLinkHost = 'graph.evil.example';
    return service;
  },
});

/** Writes a Graph export file holding `data` for `content`'s tenant. */
function exportFile(content: DirectoryContent, data: GraphData = graphDataOf(content)): string {
  const file = join(dir, `export-${++files}.json`);
  writeFileSync(file, JSON.stringify({ tenant_id: content.tenant_id, cloud: content.cloud, exported_at: '2026-11-20T06:00:00Z', ...data }, null, 2));
  return file;
}

const exportSettings = (file: string): GraphSettings => ({ cloud: 'Public', exportFile: file, orgPathAttribute: DEFAULT_ORG_PATH_ATTRIBUTE, retry: RETRY });

directoryServiceContract('ExportFileDirectoryService over a Graph export file', {
  source: 'export',
  over: async (content) => createDirectoryService(exportSettings(exportFile(content))),
  userWithoutId: async (content) => createDirectoryService(exportSettings(exportFile(content, withoutSecondUserId(graphDataOf(content))))),
  notAnExport: async () => {
    // A page of GET /users saved as it came, a likely mistake for an export.
    const file = join(dir, `export-${++files}.json`);
    writeFileSync(file, JSON.stringify({ '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users', value: graphDataOf(CONTOSO).users }));
    return createDirectoryService(exportSettings(file));
  },
});

function inMemoryOver(content: DirectoryContent): InMemoryDirectory {
  const directory = new InMemoryDirectory({ tenant_id: content.tenant_id, cloud: content.cloud, source: 'graph' });
  // Copies, so nothing the suite holds is handed out (structuredClone would make objects of another realm here).
  const copy = <T>(items: T[]): T[] => JSON.parse(JSON.stringify(items)) as T[];
  directory.users = copy(content.users);
  directory.groups = copy(content.groups);
  directory.roles = copy(content.roles);
  directory.registrations = copy(content.registrations);
  return directory;
}

directoryServiceContract('InMemoryDirectory (test double)', {
  source: 'graph',
  over: async (content) => inMemoryOver(content),
  withoutPermission: async (content, permission) => {
    const directory = inMemoryOver(content);
    directory.denied.add(permission);
    return directory;
  },
  unreachable: async (content) => {
    const directory = inMemoryOver(content);
    directory.unreachable = true;
    return directory;
  },
});
