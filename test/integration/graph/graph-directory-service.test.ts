import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, IntegrityError, NotFoundError, UnavailableError } from '../../../src/domain/errors';
import type { GraphSettings } from '../../../src/ports/graph-settings';
import { ExportFileDirectoryService } from '../../../src/infrastructure/directory/export-file-directory-service';
import { createDirectoryService, createGraphClient, createOrgPathDirectory } from '../../../src/infrastructure/directory/graph-adapters';
import { createAppCertificate, FakeGraph, ISSUED_TOKEN, loadGraphExport } from '../../support/fake-graph';

const TENANT = '2b7e4c1d-6f3a-4e8b-a9c0-5d1e2f3a4b5c';
const CLIENT = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SECRET = 'not-a-real-secret~0123456789';
const EXPORT = join(__dirname, '..', '..', '..', 'fixtures', 'graph-export.json');

let dir: string;
let fake: FakeGraph;
let app: ReturnType<typeof createAppCertificate>;
let sleeps: number[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-graph-'));
  app = createAppCertificate(dir);
  fake = await new FakeGraph({
    dir: join(dir, 'pki'),
    tenantId: TENANT,
    clientId: CLIENT,
    secret: SECRET,
    certificatePem: app.certPem,
    data: loadGraphExport(),
  }).start();
});

afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.canned.clear();
  fake.forbidden.clear();
  fake.nextLinkHost = undefined;
  fake.tokenAnswer = undefined;
  sleeps = [];
});

const settings = (overrides: Partial<GraphSettings> = {}): GraphSettings => fake.settings(overrides);

const env = { SVC_GRAPH_SECRET: SECRET };
const options = { env, sleep: async (ms: number) => void sleeps.push(ms) };

async function readAll(service: ReturnType<typeof createDirectoryService>) {
  return { users: await service.listUsers(), groups: await service.listGroups(), roles: await service.listRoles(), mfa: await service.listMfaRegistrations() };
}

describe('GraphDirectoryService against a local token endpoint and Graph', () => {
  it('reads the same directory as the export file, paging with $select and one token for every call', async () => {
    const service = createDirectoryService(settings(), options);
    const read = await readAll(service);
    const exported = new ExportFileDirectoryService(EXPORT);
    expect(read).toEqual({
      users: await exported.listUsers(),
      groups: await exported.listGroups(),
      roles: await exported.listRoles(),
      mfa: await exported.listMfaRegistrations(),
    });
    expect(read.users).toHaveLength(12);
    expect(await service.identity()).toEqual({ tenant_id: TENANT, cloud: 'Public', source: 'graph' });

    expect(fake.tokenRequests).toHaveLength(1);
    const graph = fake.graphRequests;
    // users: 3 pages of 5; groups: 1; directoryRoles: 2 pages, then 6 member lists; registrations: 3 pages.
    expect(graph.map((r) => `${r.pathname}${r.query.$skiptoken ? `#${r.query.$skiptoken}` : ''}`)).toEqual([
      '/v1.0/users',
      '/v1.0/users#5',
      '/v1.0/users#10',
      '/v1.0/groups',
      '/v1.0/directoryRoles',
      '/v1.0/directoryRoles#5',
      ...[1, 2, 3, 4, 5, 6].map((n) => `/v1.0/directoryRoles/b1a0e7c2-1111-4a4a-8a8a-00000000000${n}/members`),
      '/v1.0/reports/authenticationMethods/userRegistrationDetails',
      '/v1.0/reports/authenticationMethods/userRegistrationDetails#5',
      '/v1.0/reports/authenticationMethods/userRegistrationDetails#10',
    ]);
    expect(graph.every((r) => r.authorization === `Bearer ${ISSUED_TOKEN}`)).toBe(true);
    expect(graph[0].query).toEqual({
      $select: 'id,userPrincipalName,displayName,userType,accountEnabled,department,officeLocation,createdDateTime,signInActivity',
      $top: '500',
    });
    expect(graph[3].query).toEqual({ $select: 'id,displayName,securityEnabled,mailEnabled,groupTypes,isAssignableToRole', $top: '999' });
    expect(graph[6].query).toEqual({ $select: 'id', $top: '999' });
    expect(graph[12].query).toEqual({ $select: 'id,userPrincipalName,isMfaRegistered,isMfaCapable,methodsRegistered', $top: '999' });
  });

  it('sends the client secret, the client id and the Graph scope of the cloud to the tenant token endpoint', async () => {
    await createDirectoryService(settings(), options).listGroups();
    const form = new URLSearchParams(fake.tokenRequests[0].body);
    expect(fake.tokenRequests[0].pathname).toBe(`/${TENANT}/oauth2/v2.0/token`);
    expect([form.get('grant_type'), form.get('client_id'), form.get('scope'), form.get('client_secret')]).toEqual([
      'client_credentials',
      CLIENT,
      'https://graph.microsoft.com/.default',
      SECRET,
    ]);
  });

  it('keeps the token in MSAL cache: a second client call makes no token request', async () => {
    const client = createGraphClient(settings(), options);
    await client.list('groups', { select: ['id'] }, ['Group.Read.All']);
    await client.list('groups', { select: ['id'] }, ['Group.Read.All']);
    expect(fake.tokenRequests).toHaveLength(1);
    expect(fake.graphRequests).toHaveLength(2);
  });

  it('signs a client assertion with the certificate (PS256, SHA-256 thumbprint from the certificate file)', async () => {
    const service = createDirectoryService(settings({ credential: { kind: 'certificate', privateKey: app.key, certificate: app.cert } }), options);
    expect(await service.listGroups()).toHaveLength(4);
    const form = new URLSearchParams(fake.tokenRequests[0].body);
    expect(form.get('client_secret')).toBeNull();
    expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const header = JSON.parse(Buffer.from((form.get('client_assertion') as string).split('.')[0], 'base64url').toString('utf8'));
    expect(header.alg).toBe('PS256');
  });

  it('signs with RS256 when given the SHA-1 thumbprint shown in the Entra portal', async () => {
    const service = createDirectoryService(settings({ credential: { kind: 'certificate', privateKey: app.key, thumbprint: app.sha1.toUpperCase() } }), options);
    expect(await service.listGroups()).toHaveLength(4);
    const header = JSON.parse(
      Buffer.from((new URLSearchParams(fake.tokenRequests[0].body).get('client_assertion') as string).split('.')[0], 'base64url').toString('utf8'),
    );
    expect(header.alg).toBe('RS256');
  });

  it('honours Retry-After on 429 and 503, then reads on', async () => {
    fake.canned.set('/v1.0/groups', [
      { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'TooManyRequests', message: 'Too many requests' } } },
      { status: 503, headers: { 'retry-after': '2' } },
    ]);
    expect(await createDirectoryService(settings(), options).listGroups()).toHaveLength(4);
    expect(sleeps).toEqual([1000, 2000]);
    expect(fake.graphRequests.map((r) => r.pathname)).toEqual(['/v1.0/groups', '/v1.0/groups', '/v1.0/groups']);
  });

  it('reads Retry-After as an HTTP date', async () => {
    fake.canned.set('/v1.0/groups', [{ status: 429, headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() } }]);
    await createDirectoryService(settings({ retry: { attempts: 3, maxWaitMs: 120_000 } }), options).listGroups();
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(55_000);
    expect(sleeps[0]).toBeLessThanOrEqual(60_000);
  });

  it('gives up after the attempts of the budget with UnavailableError naming the endpoint', async () => {
    fake.canned.set(
      '/v1.0/users',
      [1, 2, 3].map(() => ({ status: 429, headers: { 'retry-after': '1' } })),
    );
    const error = await createDirectoryService(settings(), options)
      .listUsers()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).code).toBe('graph-throttled');
    expect((error as Error).message).toBe(
      `GET https://${fake.host}/v1.0/users: Microsoft Graph answered 429 Too Many Requests 3 time(s), waited 2 s; try again later or raise graph.retry (attempts 3, max_wait_seconds 10)`,
    );
    expect(sleeps).toEqual([1000, 1000]);
  });

  it('gives up before waiting beyond the total wait of the budget', async () => {
    fake.canned.set('/v1.0/groups', [{ status: 503, headers: { 'retry-after': '30' } }]);
    const error = await createDirectoryService(settings(), options)
      .listGroups()
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `GET https://${fake.host}/v1.0/groups: Microsoft Graph answered 503 Service Unavailable 1 time(s), waited 0 s; try again later or raise graph.retry (attempts 3, max_wait_seconds 10)`,
    );
    expect(sleeps).toEqual([]);
  });

  it('turns a 403 from missing admin consent into ConfigError naming the application permission', async () => {
    fake.forbidden.add('/v1.0/reports/authenticationMethods/userRegistrationDetails');
    const error = await createDirectoryService(settings(), options)
      .listMfaRegistrations()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('graph-permission-missing');
    expect((error as Error).message).toBe(
      `GET https://${fake.host}/v1.0/reports/authenticationMethods/userRegistrationDetails: Microsoft Graph answered 403 (Authorization_RequestDenied: Insufficient privileges to complete the operation.); grant app ${CLIENT} the application permission AuditLog.Read.All and give admin consent`,
    );
  });

  it('refuses a nextLink to another host, so the token never leaves Graph', async () => {
    fake.nextLinkHost = 'graph.evil.example';
    const error = await createDirectoryService(settings(), options)
      .listUsers()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as Error).message).toBe(
      `GET https://${fake.host}/v1.0/users: the @odata.nextLink points at https://graph.evil.example, not ${fake.host}; refusing to send the token there`,
    );
    expect(fake.graphRequests).toHaveLength(1);
  });

  it('refuses a wrong client secret with ConfigError, without echoing the secret', async () => {
    const error = await createDirectoryService(settings(), { ...options, env: { SVC_GRAPH_SECRET: 'wrong-secret' } })
      .listGroups()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `https://${fake.host}/${TENANT}/oauth2/v2.0/token: the token endpoint refused the client credentials of app ${CLIENT} (invalid_client); check graph.tenant_id, graph.client_id and the client secret or certificate`,
    );
    expect((error as Error).message).not.toContain('wrong-secret');
  });

  it('treats a token endpoint answering 404 {} as a configuration error, not an empty token', async () => {
    fake.tokenAnswer = { status: 404, body: {} };
    const error = await createDirectoryService(settings(), options)
      .listGroups()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `https://${fake.host}/${TENANT}/oauth2/v2.0/token: answered without an access token (HTTP 404); check graph.tenant_id and graph.cloud (or graph.authority_host)`,
    );
    expect(fake.graphRequests).toHaveLength(0);
  });

  it('reports an unreachable token endpoint as UnavailableError', async () => {
    const error = await createDirectoryService(settings({ authorityHost: '127.0.0.1:1' }), options)
      .listGroups()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toBe(
      `https://127.0.0.1:1/${TENANT}/oauth2/v2.0/token: connect ECONNREFUSED 127.0.0.1:1; check graph.cloud (or graph.authority_host), the network and graph.ca_file`,
    );
  });

  it('does not trust the local CA unless graph.ca_file names it', async () => {
    const error = await createDirectoryService(settings({ caFile: undefined }), options)
      .listGroups()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).code).toBe('graph-token-unreachable');
    expect((error as Error).message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('refuses to start without the secret in the environment', () => {
    expect(() => createDirectoryService(settings(), { env: {} })).toThrow(
      new ConfigError(
        'graph-secret-missing',
        `graph.client_secret_env: the environment variable SVC_GRAPH_SECRET is not set; set it to the client secret of app ${CLIENT}`,
      ),
    );
  });

  it('names an unreadable private key file', () => {
    const missing = join(dir, 'missing.key');
    expect(() => createDirectoryService(settings({ credential: { kind: 'certificate', privateKey: missing, thumbprint: app.sha1 } }), options)).toThrow(
      `${missing}: cannot read the private key (graph.certificate.private_key); fix the path or its permissions`,
    );
  });
});

describe('GraphOrgPathDirectory', () => {
  it('reads paths from extensionAttribute1 and writes one user with PATCH /users/{id}', async () => {
    const directory = createOrgPathDirectory(settings({ orgPathAttribute: 'onPremisesExtensionAttributes.extensionAttribute2' }), options);
    const before = await directory.listPaths();
    expect(before).toHaveLength(12);
    expect(before.every((h) => h.path === null)).toBe(true);
    await directory.writePath('5f1c0003-7a2b-4c3d-9e8f-0a1b2c3d0003', '/Contoso/Finance');
    const patch = fake.graphRequests.find((r) => r.method === 'PATCH');
    expect(patch?.pathname).toBe('/v1.0/users/5f1c0003-7a2b-4c3d-9e8f-0a1b2c3d0003');
    expect(JSON.parse(patch?.body ?? '')).toEqual({ onPremisesExtensionAttributes: { extensionAttribute2: '/Contoso/Finance' } });
    const after = await directory.listPaths();
    expect(after.find((h) => h.user_id === '5f1c0003-7a2b-4c3d-9e8f-0a1b2c3d0003')?.path).toBe('/Contoso/Finance');
    expect(fake.graphRequests[0].query.$select).toBe('id,userPrincipalName,userType,department,officeLocation,onPremisesExtensionAttributes');
  });

  it('reports an unknown user as NotFoundError', async () => {
    const error = await createOrgPathDirectory(settings(), options)
      .writePath('no-such-user', '/Contoso')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(
      `PATCH https://${fake.host}/v1.0/users/no-such-user: Microsoft Graph answered 404 (Request_ResourceNotFound: Resource 'no-such-user' does not exist.); the object does not exist in the tenant`,
    );
  });
});
