import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { buildApi } from '../../../src/interfaces/http/server';
import { capturingLogger, homeWithRecordedRun, openApiChecker, proxyConfig } from '../../support/api';
import { FakeGraph, loadGraphExport } from '../../support/fake-graph';
import { FIXTURES } from '../../support/run-svc';

const AUDITOR = { 'X-Forwarded-User': 'alice@SVC.TEST' };
const OPERATOR = { 'X-Forwarded-User': 'bob@SVC.TEST' };
const NOBODY = { 'X-Forwarded-User': 'carol@SVC.TEST' };
const TENANT = '2b7e4c1d-6f3a-4e8b-a9c0-5d1e2f3a4b5c';
const CLIENT = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SECRET = 'not-a-real-secret~0123456789';
const RULES = [
  { match: { department: 'Finance' }, path: '/Contoso/Finance' },
  { match: { user_type: 'Guest' }, path: '/Contoso/Guests' },
];
const DIRECTORY = {
  graph: { export: join(FIXTURES, 'graph-export.json') },
  orgpath: { rules: RULES },
  boundary: { environment: 'GCCHigh', required: ['conditional-access', 'privileged-identity-management', 'my-staff'] },
};

describe('svc-api directory routes (survey, orgpath, boundary)', () => {
  let home: { home: string; cleanup(): void };
  let api: ReturnType<typeof buildApi>;
  let conforms: ReturnType<typeof openApiChecker>;
  beforeAll(() => {
    home = homeWithRecordedRun();
    api = buildApi(proxyConfig(DIRECTORY), { env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '' }, logger: capturingLogger().logger });
    conforms = openApiChecker(api.openapi);
  });
  afterAll(() => home.cleanup());

  const call = (method: 'get' | 'post', path: string, headers: Record<string, string>, body?: object) => {
    const r = request(api.handler)[method](path).set(headers);
    return body === undefined ? r : r.send(body);
  };

  describe.each([
    ['post', '/survey/run', {}, AUDITOR],
    ['post', '/survey/findings', {}, AUDITOR],
    ['post', '/orgpath/assign', {}, AUDITOR],
    ['get', '/orgpath/assignments', undefined, AUDITOR],
    ['post', '/boundary/run', {}, AUDITOR],
    ['get', '/boundary/gaps', undefined, NOBODY],
  ] as const)('%s %s', (method, path, body, outsider) => {
    it('is 401 without credentials', async () => {
      const res = await request(api.handler)[method](path);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('authentication-required');
    });

    it('is 403 without the role', async () => {
      const res = await call(method, path, outsider, body);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('role-required');
    });

    it('is 200 for an operator, matching the OpenAPI schema', async () => {
      const res = await call(method, path, OPERATOR, body);
      expect(res.status).toBe(200);
      expect(conforms(path, method, 200, res.body)).toEqual([]);
    });
  });

  it('GET /boundary/gaps is open to auditors too, and lists the gaps of the configured environment', async () => {
    const res = await call('get', '/boundary/gaps', AUDITOR);
    expect(res.status).toBe(200);
    expect(res.body.environment).toBe('GCCHigh');
    expect(res.body.satisfied).toEqual(['conditional-access', 'privileged-identity-management']);
    expect(res.body.gaps.map((g: { feature: string; reason: string }) => `${g.feature} ${g.reason}`)).toEqual(['my-staff not-offered']);
    const asked = await call('get', '/boundary/gaps?environment=Commercial&required=my-staff,teleporter', AUDITOR);
    expect(asked.body.gaps.map((g: { feature: string; reason: string }) => `${g.feature} ${g.reason}`)).toEqual(['teleporter unknown-feature']);
  });

  it('POST /survey/findings gives a normalized report with the survey KSIs', async () => {
    const res = await call('post', '/survey/findings', OPERATOR, {});
    expect(res.body.schema_version).toBe('1');
    expect(res.body.source.tool).toBe('svc survey');
    expect(res.body.results.map((r: { ksi_id: string }) => r.ksi_id)).toEqual(expect.arrayContaining(['KSI-IA-02', 'KSI-AC-02', 'KSI-AC-06']));
    const survey = (await call('post', '/survey/run', OPERATOR, { stale_days: 30 })).body;
    const again = await call('post', '/survey/findings', OPERATOR, { survey });
    expect(again.status).toBe(200);
    expect(again.body.results.length).toBe(res.body.results.length);
  });

  it('POST /orgpath/assign is a dry run by default and applies the config rules', async () => {
    const res = await call('post', '/orgpath/assign', OPERATOR, {});
    expect(res.body.apply).toBe(false);
    const finance = res.body.assignments.filter((a: { proposed: string }) => a.proposed === '/Contoso/Finance');
    expect(finance.length).toBeGreaterThan(0);
    for (const a of res.body.assignments) expect(a.outcome).toBe(a.change === 'set' ? 'dry-run' : 'skipped');
  });

  it.each([
    ['/survey/run', { stale_days: 0 }, 'body.stale_days must be >= 1; see /openapi.json for this route'],
    ['/survey/run', { days: 5 }, 'body.days is not a known field; see /openapi.json for this route'],
    ['/orgpath/assign', { rules: [{ match: {}, path: 'no-slash' }] }, 'body.rules.0.path must match pattern "^/"; see /openapi.json for this route'],
    ['/orgpath/assign', { apply: 'yes' }, 'body.apply must be boolean; see /openapi.json for this route'],
    ['/boundary/run', { environment: 'Mars' }, 'body.environment must be one of Commercial, GCC, GCCHigh, DoD; see /openapi.json for this route'],
  ])('POST %s %j is 400 naming the field', async (path, body, detail) => {
    const res = await call('post', path, OPERATOR, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid-request');
    expect(res.body.detail).toBe(detail);
    expect(conforms(path, 'post', 400, res.body)).toEqual([]);
  });

  it('a survey that is not a survey is 400 from the use case, with its JSON path', async () => {
    const survey = { ...(await call('post', '/survey/run', OPERATOR, {})).body };
    survey.users = [{ id: 7 }];
    const res = await call('post', '/survey/findings', OPERATOR, { survey });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^body\.survey\.users\[0\]\.id: expected a string, got number 7/);
  });

  it('bodies that are not JSON, not JSON at all, or too large are 415, 400 and 413', async () => {
    const form = await request(api.handler).post('/survey/run').set(OPERATOR).set('Content-Type', 'text/plain').send('stale_days=5');
    expect(form.status).toBe(415);
    expect(form.body.detail).toBe('Content-Type text/plain: send the body as application/json');
    const broken = await request(api.handler).post('/survey/run').set(OPERATOR).set('Content-Type', 'application/json').send('{"stale_days": ');
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('invalid-json');
    const small = buildApi(proxyConfig({ ...DIRECTORY, limits: { body_bytes: 64 } }), {
      env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '' },
      logger: capturingLogger().logger,
    });
    const big = await request(small.handler).post('/orgpath/assign').set(OPERATOR).send({ rules: RULES });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'body-too-large', detail: 'the request body is larger than 64 bytes (limits.body_bytes); send less' });
  });

  it('without a graph section the directory routes answer 500 graph-not-configured, and the boundary needs an environment', async () => {
    const bare = buildApi(proxyConfig(), { env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '' }, logger: capturingLogger().logger });
    const res = await request(bare.handler).post('/survey/run').set(OPERATOR).send({});
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('graph-not-configured');
    const gaps = await request(bare.handler).get('/boundary/gaps').set(OPERATOR);
    expect(gaps.status).toBe(400);
    expect(gaps.body.detail).toBe(
      'name the required features (?required=conditional-access,privileged-identity-management) or set boundary.required in the API config',
    );
  });

  describe('against Microsoft Graph (a local HTTPS token endpoint and Graph on loopback)', () => {
    let dir: string;
    let fake: FakeGraph;
    let live: ReturnType<typeof buildApi>;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'svc-api-graph-'));
      fake = await new FakeGraph({ dir, tenantId: TENANT, clientId: CLIENT, secret: SECRET, data: loadGraphExport() }).start();
      const graph = {
        cloud: 'Public',
        tenant_id: TENANT,
        client_id: CLIENT,
        client_secret_env: 'SVC_GRAPH_SECRET',
        authority_host: fake.host,
        graph_host: fake.host,
        ca_file: fake.pki.ca.cert,
      };
      live = buildApi(proxyConfig({ ...DIRECTORY, graph }), {
        env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '', SVC_GRAPH_SECRET: SECRET },
        logger: capturingLogger().logger,
      });
    });
    afterAll(async () => {
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('POST /survey/run reads the directory with one token for every Graph call', async () => {
      const res = await request(live.handler).post('/survey/run').set(OPERATOR).send({});
      expect(res.body.detail).toBeUndefined();
      expect(res.status).toBe(200);
      expect(res.body.source).toBe('graph');
      expect(res.body.cloud).toBe('Public');
      expect(fake.tokenRequests).toHaveLength(1);
      expect(fake.graphRequests.length).toBeGreaterThan(3);
      for (const r of fake.graphRequests) expect(r.authorization).toBe('Bearer fake-access-token-0123456789');
    });

    it('POST /orgpath/assign with apply writes each change through Graph', async () => {
      fake.requests.length = 0;
      const res = await request(live.handler).post('/orgpath/assign').set(OPERATOR).send({ apply: true });
      expect(res.status).toBe(200);
      const written = res.body.assignments.filter((a: { outcome: string }) => a.outcome === 'written');
      expect(written.length).toBe(res.body.counts.set);
      expect(fake.graphRequests.filter((r) => r.method === 'PATCH')).toHaveLength(written.length);
      const listed = await request(live.handler).get('/orgpath/assignments?path_prefix=/Contoso/Finance').set(OPERATOR);
      const finance = res.body.assignments.filter((a: { proposed: string; outcome: string }) => a.proposed === '/Contoso/Finance' && a.outcome !== 'failed');
      expect(listed.body.assignments.map((a: { user_id: string }) => a.user_id).sort()).toEqual(finance.map((a: { user_id: string }) => a.user_id).sort());
    });
  });
});
