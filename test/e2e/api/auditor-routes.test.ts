import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FileRunStore } from '../../../src/infrastructure/store/file-run-store';
import { buildApi } from '../../../src/interfaces/http/server';
import { capturingLogger, homeWithRecordedRun, openApiChecker, proxyConfig } from '../../support/api';
import { FIXTURES, svc } from '../../support/run-svc';
import { recordFor, runIdOf, storedRunFor } from '../../support/stored-runs';
import { readStoredDocument, storedDocumentFile, writeStoredDocument } from '../../support/stored-documents';

const sample = JSON.parse(readFileSync(join(FIXTURES, 'sample-baseline.json'), 'utf8')) as { results: { ksi_id: string; status: string }[] };
const ids = sample.results.map((r) => r.ksi_id).sort();
const AUDITOR = { 'X-Forwarded-User': 'alice@SVC.TEST' };
const OPERATOR = { 'X-Forwarded-User': 'bob@SVC.TEST' };

describe('svc-api auditor and health routes over a recorded run (supertest, trusted proxy on loopback)', () => {
  let home: { home: string; cleanup(): void };
  let api: ReturnType<typeof buildApi>;
  let log: ReturnType<typeof capturingLogger>;
  let conforms: ReturnType<typeof openApiChecker>;

  beforeAll(() => {
    home = homeWithRecordedRun();
    log = capturingLogger();
    api = buildApi(proxyConfig(), { env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '', SVC_SIGNING_KEY: '' }, cwd: home.home, logger: log.logger });
    conforms = openApiChecker(api.openapi);
  });
  afterAll(() => home.cleanup());

  const get = (path: string, headers: Record<string, string> = AUDITOR) => request(api.handler).get(path).set(headers);

  it('GET /health answers without authentication, with helmet headers and a request id', async () => {
    const res = await request(api.handler).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: '0.5.0' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(conforms('/health', 'get', 200, res.body)).toEqual([]);
  });

  it('GET /health/ready checks the store and the signing key (details for an operator only)', async () => {
    const res = await request(api.handler).get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { store: { ok: true }, signer: { ok: true } } });
    expect(conforms('/health/ready', 'get', 200, res.body)).toEqual([]);
    const operator = await request(api.handler).get('/health/ready').set(OPERATOR);
    expect(operator.body.checks.store).toEqual({ ok: true, detail: `${join(home.home, 'store')}: 1 run` });
    expect(operator.body.checks.signer.ok).toBe(true);
    expect(operator.body.checks.signer.detail).toMatch(/^ES256 key [A-Za-z0-9_-]{43} \(development\)$/);
    expect(conforms('/health/ready', 'get', 200, operator.body)).toEqual([]);
  });

  it('GET /health/ready is 503 problem+json naming the check that failed (its detail for an operator only)', async () => {
    const broken = buildApi(proxyConfig({ signing_key: '/nonexistent/key.pem' }), {
      env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '' },
      logger: capturingLogger().logger,
    });
    const res = await request(broken.handler).get('/health/ready');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.headers['retry-after']).toBe('10');
    expect(res.body).toMatchObject({
      type: 'urn:svc:problem:not-ready',
      code: 'not-ready',
      status: 503,
      title: 'Service Unavailable',
      instance: '/health/ready',
      detail: 'not ready: signer (the server log has the details)',
    });
    const operator = await request(broken.handler).get('/health/ready').set(OPERATOR);
    expect(operator.body.detail).toMatch(/^not ready: signer: .*\/nonexistent\/key\.pem/);
  });

  describe.each([
    '/auditor/evidence',
    '/auditor/findings',
    '/auditor/poam',
    '/auditor/manifest',
    '/auditor/oscal/sar',
    '/auditor/oscal/ssp',
    '/auditor/oscal/poam',
    '/auditor/oscal/sap',
    '/auditor/graph/ac-2',
  ])('%s', (path) => {
    it('is 401 problem+json without credentials', async () => {
      const res = await request(api.handler).get(path);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.body).toEqual({
        type: 'urn:svc:problem:authentication-required',
        code: 'authentication-required',
        title: 'Unauthorized',
        status: 401,
        detail: 'authentication required: proxy',
        instance: path.split('?')[0],
        request_id: res.headers['x-request-id'],
      });
    });

    it('is 403 for a principal without the auditor role', async () => {
      const res = await get(path, OPERATOR);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('role-required');
      expect(res.body.detail).toBe('bob@SVC.TEST does not hold the auditor role; an administrator grants it under roles in the API config');
    });

    it('is 200 for an auditor, and the body matches the OpenAPI schema', async () => {
      const res = await get(path, { 'X-Forwarded-User': 'ALICE@svc.test' });
      expect(res.status).toBe(200);
      const template = path.startsWith('/auditor/graph/') ? '/auditor/graph/{control_id}' : path;
      expect(conforms(template, 'get', 200, JSON.parse(res.text))).toEqual([]);
    });
  });

  it('GET /auditor/evidence gives the entries as recorded, in ksi_id order, with the run', async () => {
    const res = await get('/auditor/evidence');
    expect(res.body.items.map((e: { ksi_id: string }) => e.ksi_id)).toEqual(ids);
    expect(res.body.total).toBe(5);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.run.seq).toBe(1);
    for (const entry of res.body.items) expect(entry.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('GET /auditor/evidence filters by KSI and status (repeated or comma-separated) and pages with a cursor', async () => {
    expect((await get('/auditor/evidence?status=FAIL')).body.items.map((e: { ksi_id: string }) => e.ksi_id)).toEqual(['KSI-AC-02', 'KSI-IA-02']);
    expect((await get('/auditor/evidence?ksi=KSI-IA-02&ksi=KSI-SC-08')).body.total).toBe(2);
    expect((await get('/auditor/evidence?ksi=KSI-IA-02,KSI-SC-08&status=PASS')).body.items.map((e: { ksi_id: string }) => e.ksi_id)).toEqual(['KSI-SC-08']);
    const first = (await get('/auditor/evidence?limit=2')).body;
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toMatch(/^2\.[0-9a-f]{16}$/);
    const second = (await get(`/auditor/evidence?limit=2&cursor=${first.next_cursor}`)).body;
    const third = (await get(`/auditor/evidence?limit=2&cursor=${second.next_cursor}`)).body;
    expect([...first.items, ...second.items, ...third.items].map((e: { ksi_id: string }) => e.ksi_id)).toEqual(ids);
    expect(third.next_cursor).toBeNull();
  });

  it.each([
    ['/auditor/evidence?limit=0', 'invalid-request', 'query parameter limit must be >= 1; see /openapi.json for this route'],
    ['/auditor/evidence?limit=abc', 'invalid-request', 'query parameter limit must be integer; see /openapi.json for this route'],
    ['/auditor/evidence?status=MAYBE', 'invalid-request', 'query parameter status.0 must be one of PASS, WARN, FAIL; see /openapi.json for this route'],
    ['/auditor/evidence?sort=ksi', 'invalid-request', 'query parameter sort is not a known field; see /openapi.json for this route'],
    ['/auditor/evidence?cursor=xyz', 'bad-cursor', 'cursor "xyz": not a cursor this API gave; drop it to start from the first page'],
    [
      '/auditor/graph/not-a-control!',
      'invalid-request',
      'path parameter control_id must match pattern "^[A-Za-z]{2}-\\d{1,2}(?:\\.\\d{1,2}|\\(\\d{1,2}\\))?$"; see /openapi.json for this route',
    ],
    // Found by test/property/http-bodies.property.test.ts: the router's URIError was a 500, and a name with a line
    // break made the detail two lines.
    ['/auditor/graph/%zz', 'invalid-request', 'a path parameter is not valid percent-encoding; write % as %25 and escape each other byte as %XX'],
    ['/auditor/evidence?a%0Ab=1', 'invalid-request', 'query parameter a\\u000ab is not a known field; see /openapi.json for this route'],
  ])('GET %s is 400 %s', async (path, code, detail) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.detail).toBe(detail);
    expect(conforms('/auditor/evidence', 'get', 400, res.body)).toEqual([]);
  });

  it('a cursor of another run is 409 stale-cursor', async () => {
    const res = await get('/auditor/evidence?cursor=2.0123456789abcdef');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('stale-cursor');
  });

  it('GET /auditor/findings lists the FAIL and WARN results with their actions', async () => {
    const res = await get('/auditor/findings');
    expect(res.body.items.map((f: { ksi_id: string; status: string }) => `${f.ksi_id} ${f.status}`)).toEqual([
      'KSI-AC-02 FAIL',
      'KSI-AU-02 WARN',
      'KSI-IA-02 FAIL',
    ]);
    const mfa = res.body.items.find((f: { ksi_id: string }) => f.ksi_id === 'KSI-IA-02');
    expect(mfa.action).toMatchObject({ action: 'REMEDIATE', ksi_id: 'KSI-IA-02' });
    expect(mfa.poam_id).toMatch(/^POAM-/);
    expect((await get('/auditor/findings?status=WARN')).body.items.map((f: { ksi_id: string }) => f.ksi_id)).toEqual(['KSI-AU-02']);
  });

  it('GET /auditor/poam lists the tracked items and filters by status', async () => {
    const res = await get('/auditor/poam');
    expect(res.body.items.map((p: { ksi_id: string; status: string }) => `${p.ksi_id} ${p.status}`)).toEqual(
      expect.arrayContaining(['KSI-IA-02 Open', 'KSI-AC-02 Open']),
    );
    expect(res.body.total).toBe(3);
    expect((await get('/auditor/poam?status=Closed')).body.total).toBe(0);
    expect((await get('/auditor/poam?overdue=false')).body.total).toBe(3);
  });

  it('GET /auditor/oscal/* sends canonical bytes with ETag and Content-Digest, and 304 for If-None-Match', async () => {
    for (const model of ['sar', 'ssp', 'poam', 'sap']) {
      const res = await get(`/auditor/oscal/${model}`);
      const sha = createHash('sha256').update(res.text, 'utf8').digest();
      expect(res.headers.etag).toBe(`"${sha.toString('hex')}"`);
      expect(res.headers['content-digest']).toBe(`sha-256=:${sha.toString('base64')}:`);
      expect(res.headers['content-disposition']).toBe(`inline; filename="${model}.json"`);
      expect(JSON.stringify(JSON.parse(res.text))).toBe(res.text);
      const again = await request(api.handler).get(`/auditor/oscal/${model}`).set(AUDITOR).set('If-None-Match', res.headers.etag);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    }
  });

  it('the SAR and its envelope verify with svc ir validate, and the manifest lists their digests', async () => {
    const sar = await get('/auditor/oscal/sar');
    const envelope = await get('/auditor/oscal/sar?envelope=1');
    expect(sar.headers['content-type']).toBe('application/json');
    expect(envelope.headers['content-type']).toBe('application/vnd.dsse.envelope.v1+json');
    expect(envelope.headers['content-disposition']).toBe('inline; filename="sar.json.dsse.json"');
    const dir = mkdtempSync(join(tmpdir(), 'svc-api-sar-'));
    try {
      writeFileSync(join(dir, 'sar.json'), sar.text);
      writeFileSync(join(dir, 'sar.json.dsse.json'), envelope.text);
      const check = svc(['ir', 'validate', join(dir, 'sar.json')], { env: { SVC_HOME: home.home } });
      expect(check.stderr).toBe('');
      expect(check.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const manifest = (await get('/auditor/manifest')).body;
    const digest = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
    expect(manifest.artifacts.map((a: { name: string }) => a.name)).toEqual(['ssp.json', 'sar.json', 'sar.json.dsse.json', 'sap.json', 'poam.json']);
    expect(manifest.artifacts.find((a: { name: string }) => a.name === 'sar.json').sha256).toBe(digest(sar.text));
    expect(manifest.artifacts.find((a: { name: string }) => a.name === 'sar.json.dsse.json').sha256).toBe(digest(envelope.text));
    expect(manifest.counts).toMatchObject({ results: 5, pass: 2, warn: 1, fail: 2 });
    expect(manifest.evidence_bundle).toEqual({ sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), entries: 5, href: '/auditor/evidence' });
  });

  it('serves the documents stored with the run byte for byte: none is built per request', async () => {
    const [id] = readdirSync(join(home.home, 'store', 'documents'));
    for (const [path, file] of [
      ['/auditor/manifest', 'manifest.json'],
      ['/auditor/oscal/ssp', 'ssp.json'],
      ['/auditor/oscal/sar', 'sar.json'],
      ['/auditor/oscal/sar?envelope=1', 'sar.json.dsse.json'],
      ['/auditor/oscal/sap', 'sap.json'],
      ['/auditor/oscal/poam', 'poam.json'],
    ]) {
      const stored = readStoredDocument(join(home.home, 'store', 'documents', id), file);
      const res = await request(api.handler)
        .get(path)
        .set(AUDITOR)
        .buffer(true)
        .parse((r, done) => {
          const parts: Buffer[] = [];
          r.on('data', (d: Buffer) => parts.push(d));
          r.on('end', () => done(null, Buffer.concat(parts)));
        });
      expect({ path, status: res.status, same: Buffer.compare(res.body as Buffer, stored) === 0, length: res.headers['content-length'] }).toEqual({
        path,
        status: 200,
        same: true,
        length: String(stored.length),
      });
      expect(res.headers.etag).toBe(`"${createHash('sha256').update(stored).digest('hex')}"`);
    }
  });

  it('GET /auditor/graph/{control_id} traces a control with inclusion proofs; unknown controls are 404', async () => {
    const res = await get('/auditor/graph/IA-2');
    expect(res.body.control).toBe('ia-2');
    const evidence = res.body.nodes.filter((n: { type: string }) => n.type === 'evidence');
    expect(evidence.length).toBeGreaterThan(0);
    for (const node of evidence) expect(node.proof.merkle_root).toBe(res.body.merkle_root);
    const unknown = await get('/auditor/graph/zz-99');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('unknown-control');
  });

  it('unknown routes are 404 and wrong methods 405 with Allow, as problem+json', async () => {
    const missing = await get('/auditor/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('GET /auditor/nothing: no such route; /openapi.json lists the 30 routes');
    const wrong = await request(api.handler).delete('/auditor/evidence').set(AUDITOR);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET');
  });

  it('a repeated read is replayed byte for byte before Express, only to holders of the role', async () => {
    const path = '/auditor/findings?severity=High,Critical&limit=2';
    const first = await get(path);
    const second = await get(path);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    const strip = (h: Record<string, string>) =>
      Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(k)));
    expect(strip(second.headers)).toEqual(strip(first.headers));
    expect((await get(path, OPERATOR)).status).toBe(403);
    expect((await request(api.handler).get(path)).status).toBe(401);
    expect((await request(api.handler).get(path).set('X-Forwarded-User', 'alice,bob')).status).toBe(401);
    const lines = log.lines.filter((l) => l.msg === 'request' && l.path === '/auditor/findings' && l.status === 200).slice(-2);
    expect(lines.map((l) => [l.route, l.principal])).toEqual([
      ['/auditor/findings', 'alice@SVC.TEST'],
      ['/auditor/findings', 'alice@SVC.TEST'],
    ]);
  });

  it('more requests than limits.requests_per_minute from one address are 429 with Retry-After', async () => {
    const limited = buildApi(proxyConfig({ limits: { requests_per_minute: 3 } }), {
      env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '' },
      logger: capturingLogger().logger,
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(limited.handler).get('/health')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const res = await request(limited.handler).get('/health');
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toMatchObject({
      code: 'rate-limited',
      status: 429,
      detail: 'more than 3 requests in a minute from this client; retry after the Retry-After seconds',
    });
  });

  it('logs each request with the principal and the route, never a credential', async () => {
    await request(api.handler).get('/auditor/findings').set(AUDITOR).set('Authorization', 'Negotiate c2VjcmV0LXRva2Vu');
    const line = log.lines.filter((l) => l.msg === 'request').at(-1)!;
    expect(line).toMatchObject({ method: 'GET', route: '/auditor/findings', status: 200, principal: 'alice@SVC.TEST', auth: 'proxy' });
    expect(JSON.stringify(log.lines)).not.toContain('c2VjcmV0LXRva2Vu');
  });
});

describe('svc-api over runs whose documents are missing or changed', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-api-documents-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const apiOver = (home: string, logger = capturingLogger()) => ({
    api: buildApi(proxyConfig(), { env: { ...process.env, SVC_HOME: home, SVC_STORE: '', SVC_SIGNING_KEY: '' }, cwd: home, logger: logger.logger }),
    log: logger,
  });

  it('a run recorded without documents (by svc 0.5.0) is 404 no-run-documents, saying how to get them', async () => {
    const home = join(dir, 'old');
    const store = new FileRunStore({ dir: join(home, 'store') });
    const record = recordFor(1);
    const id = runIdOf(record);
    await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record }));
    const { api } = apiOver(home);
    for (const path of ['/auditor/manifest', '/auditor/oscal/sar']) {
      const res = await request(api.handler).get(path).set(AUDITOR);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        code: 'no-run-documents',
        detail: `run 1 (${id.slice(0, 12)}) was recorded without its documents (by svc 0.5.0); record a run with this svc (svc conmon process <report>) and the API serves its documents`,
      });
    }
  });

  it("a stored document changed behind svc's back is cut off mid-response and logged as run-store-tampered", async () => {
    const { home, cleanup } = homeWithRecordedRun();
    try {
      const [id] = readdirSync(join(home, 'store', 'documents'));
      const documents = join(home, 'store', 'documents', id);
      const file = storedDocumentFile(documents, 'ssp.json');
      writeStoredDocument(
        documents,
        'ssp.json',
        readStoredDocument(documents, 'ssp.json').toString('utf8').replace('"system-security-plan"', '"system-security-plan" '),
      );
      const { api, log } = apiOver(home);
      await expect(request(api.handler).get('/auditor/oscal/ssp').set(AUDITOR)).rejects.toThrow();
      expect(log.lines.find((line) => line.msg === 'stored document failed while it was sent')).toMatchObject({
        err: { code: 'run-store-tampered', message: expect.stringContaining(`${file}: the document ssp.json no longer matches`) },
      });
    } finally {
      cleanup();
    }
  });
});
