// The guarantees of docs/api.md "Security", each over a real socket on loopback. Negotiate is configured here but
// never reaches the acceptor, so this file does not load kerberos (only test/integration/http-auth/negotiate.test.ts
// does in-process; see its first comment).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ConfigError } from '../../../src/domain/errors';
import { readApiConfig } from '../../../src/interfaces/http/config/api-config';
import { tlsServerOptions } from '../../../src/interfaces/http/auth/tls-server-options';
import { buildApi, refuseOpenBind } from '../../../src/interfaces/http/server';
import { capturingLogger, homeWithRecordedRun, proxyConfig, startSvcApi } from '../../support/api';
import { call, type CallOptions, listen, type Reply } from '../../support/auth-test-app';
import { certificateGrant, createTestPki, fingerprintOf, type Issued, type TestPki } from '../../support/pki';
import { FIXTURES, ROOT } from '../../support/run-svc';

const ALICE = { 'x-forwarded-user': 'alice@SVC.TEST' };
const BOB = { 'x-forwarded-user': 'bob@SVC.TEST' };

let home: { home: string; cleanup(): void };
let dir: string;
const closers: (() => Promise<void>)[] = [];
const env = () => ({ ...process.env, SVC_HOME: home.home, SVC_STORE: '', SVC_SIGNING_KEY: '' });

beforeAll(() => {
  home = homeWithRecordedRun('svc-api-security-');
  dir = mkdtempSync(join(tmpdir(), 'svc-api-security-'));
});

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  home.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** buildApi's handler on a plain HTTP server on 127.0.0.1; resolves the port. */
async function serve(api: ReturnType<typeof buildApi>, server: Server = createHttpServer(api.handler)): Promise<number> {
  const listening = await listen(server);
  closers.push(listening.close);
  return listening.port;
}

/** `method path` with `body` (raw bytes) and headers, without keep-alive; the body is parsed as JSON. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, agent: false, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('svc-api without authentication listens on loopback only', () => {
  const noAuth = (host: string) => readApiConfig({ host, port: 0 }, 'api.json', dir);
  const REFUSED = (host: string) =>
    `${host} is not a loopback address, and no authentication is configured; configure auth.negotiate, auth.mtls or auth.proxy in the API config (docs/api.md), or bind to 127.0.0.1 (--host 127.0.0.1)`;

  it.each(['0.0.0.0', '::', '192.0.2.10', '::ffff:192.0.2.10', 'fd00::1'])('refuses %s with a config error naming the fix', (host) => {
    let error: unknown;
    try {
      refuseOpenBind(noAuth(host));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect([(error as ConfigError).code, (error as Error).message]).toEqual(['unauthenticated-bind', REFUSED(host)]);
  });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('allows %s', (host) => {
    expect(() => refuseOpenBind(noAuth(host))).not.toThrow();
    expect(() => refuseOpenBind({ host: 'localhost', auth: {} })).not.toThrow();
  });

  it('allows any address once a method is configured', () => {
    expect(() =>
      refuseOpenBind({ host: '0.0.0.0', auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'], certificates: [] } } }),
    ).not.toThrow();
  });

  it('svc-api --host 0.0.0.0 without auth exits 5 with one line, before listening', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'svc-api.js'), '--host', '0.0.0.0', '--port', '0'], {
      cwd: dir,
      env: env(),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.stderr).toBe(`Error: ${REFUSED('0.0.0.0')}\n`);
    expect(run.status).toBe(5);
  });

  it('svc-api --host 127.0.0.2 without auth starts', async () => {
    const api = await startSvcApi(['--host', '127.0.0.2', '--port', '0'], { SVC_HOME: home.home });
    try {
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      expect(api.stderr()).toContain('(auth: none configured;');
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });
});

describe('GET /health/ready tells anyone only ready or not; details go to the log and to operators', () => {
  const readyApi = (extra: Record<string, unknown> = {}) => {
    const log = capturingLogger();
    return { api: buildApi(proxyConfig(extra), { env: env(), cwd: home.home, logger: log.logger }), log };
  };

  it('answers anyone ready or not per check, with no path or key id', async () => {
    const { api } = readyApi();
    const port = await serve(api);
    for (const headers of [{}, ALICE]) {
      const reply = await call('127.0.0.1', port, '/health/ready', { headers });
      expect(reply).toMatchObject({ status: 200, body: { status: 'ready', checks: { store: { ok: true }, signer: { ok: true } } } });
      expect(JSON.stringify(reply.body)).not.toContain(home.home);
    }
  });

  it('answers an operator each check with its detail', async () => {
    const { api } = readyApi();
    const reply = await call('127.0.0.1', await serve(api), '/health/ready', { headers: { 'x-forwarded-user': 'BOB@svc.test' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: 'ready',
      checks: {
        store: { ok: true, detail: `${join(home.home, 'store')}: 1 run` },
        signer: { ok: true, detail: expect.stringMatching(/^ES256 key [A-Za-z0-9_-]{43} \(development\)$/) },
      },
    });
  });

  it('names only the failed check in the open 503, logs its detail once, and gives it to an operator', async () => {
    const { api, log } = readyApi({ signing_key: join(dir, 'nonexistent', 'key.pem') });
    const port = await serve(api);
    const open = await call('127.0.0.1', port, '/health/ready');
    expect(open.status).toBe(503);
    expect(open.headers['retry-after']).toBe('10');
    expect(open.body).toEqual({
      type: 'urn:svc:problem:not-ready',
      code: 'not-ready',
      title: 'Service Unavailable',
      status: 503,
      detail: 'not ready: signer (the server log has the details)',
      instance: '/health/ready',
      request_id: open.headers['x-request-id'],
    });
    const lines = log.lines.filter((l) => l.req_id === open.headers['x-request-id']);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'not ready'],
      [30, 'request'],
    ]);
    expect(lines[0].checks).toEqual({ signer: { ok: false, detail: expect.stringContaining(join(dir, 'nonexistent', 'key.pem')) } });
    const operator = await call('127.0.0.1', port, '/health/ready', { headers: BOB });
    expect((operator.body as { detail: string }).detail).toMatch(
      new RegExp(`^not ready: signer: ${join(dir, 'nonexistent', 'key.pem').replace(/[.]/g, '\\.')}`),
    );
  });

  it('is documented as open, with optional credentials and a 401', () => {
    const operation = readyApi().api.openapi.paths['/health/ready'].get as { security: object[]; responses: Record<string, unknown> };
    expect(operation.security).toEqual([{}, { negotiate: [] }, { mutualTLS: [] }, { trustedProxy: [] }]);
    expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Problem401' });
  });

  it('judges a credential it is given: an untrusted proxy header is 401', async () => {
    const { api } = readyApi();
    const reply = await call('127.0.0.1', await serve(api), '/health/ready', { headers: BOB, localAddress: '127.0.0.2' });
    expect(reply).toMatchObject({ status: 401, body: { code: 'untrusted-proxy' } });
  });
});

describe('the rate limit counts the authenticated principal, else the peer, never a raw header', () => {
  const limited = async () => {
    const api = buildApi(proxyConfig({ limits: { requests_per_minute: 3 } }), { env: env(), cwd: home.home, logger: capturingLogger().logger });
    return serve(api);
  };
  const statuses = async (port: number, requests: CallOptions[]) => {
    const out: number[] = [];
    for (const options of requests) out.push((await call('127.0.0.1', port, '/health', options)).status);
    return out;
  };

  it('limits rotating junk values through the trusted proxy as the proxy address', async () => {
    const port = await limited();
    const junk = ['alice, bob', 'x\ty', 'a'.repeat(300), 'one@two@three', 'CONTOSO\\a\\b', 'jos\xe9'];
    expect(
      await statuses(
        port,
        junk.map((user) => ({ headers: { 'x-forwarded-user': user } })),
      ),
    ).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('limits case variants of one user through the trusted proxy as that one user, apart from others', async () => {
    const port = await limited();
    const variants = ['alice@SVC.TEST', 'ALICE@SVC.TEST', 'Alice@Svc.Test', 'alice@svc.test', 'aLiCe@sVc.TeSt'];
    expect(
      await statuses(
        port,
        variants.map((user) => ({ headers: { 'x-forwarded-user': user } })),
      ),
    ).toEqual([200, 200, 200, 429, 429]);
    expect(await statuses(port, [{ headers: BOB }, {}])).toEqual([200, 200]);
  });

  it('limits rotating user names from a peer that is not the proxy as that peer', async () => {
    const port = await limited();
    const names = ['alice', 'bob', 'carol', 'dave', 'ALICE'];
    expect(
      await statuses(
        port,
        names.map((user) => ({ headers: { 'x-forwarded-user': user }, localAddress: '127.0.0.2' })),
      ),
    ).toEqual([200, 200, 200, 429, 429]);
    expect(await statuses(port, [{ localAddress: '127.0.0.2' }, { localAddress: '127.0.0.3' }])).toEqual([429, 200]);
  });
});

describe('a request body whose Content-Encoding it does not match is a 400, an unknown encoding a 415', () => {
  let port: number;
  let log: ReturnType<typeof capturingLogger>;
  beforeAll(async () => {
    log = capturingLogger();
    const api = buildApi(proxyConfig({ graph: { export: join(FIXTURES, 'graph-export.json') } }), { env: env(), cwd: home.home, logger: log.logger });
    port = await serve(api);
  });
  const post = (encoding: string, body: Buffer) =>
    send(port, 'POST', '/survey/run', { ...BOB, 'content-type': 'application/json', 'content-encoding': encoding }, body);
  /** The log lines of one request: exactly its access line, no error line, no stack. */
  const logged = (reply: Reply) => {
    const lines = log.lines.filter((l) => l.req_id === reply.headers['x-request-id']);
    expect(lines.map((l) => [l.level, l.msg, l.status])).toEqual([[30, 'request', reply.status]]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  };

  it.each(['gzip', 'deflate', 'br', 'GZIP'])('Content-Encoding %s over a plain JSON body is 400 invalid-content-encoding', async (encoding) => {
    const reply = await post(encoding, Buffer.from('{}'));
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(reply.body).toEqual({
      type: 'urn:svc:problem:invalid-content-encoding',
      code: 'invalid-content-encoding',
      title: 'Bad Request',
      status: 400,
      detail: `the request body is not valid ${encoding.toLowerCase()} data, as its Content-Encoding says; send the body compressed with it, or without Content-Encoding`,
      instance: '/survey/run',
      request_id: reply.headers['x-request-id'],
    });
    logged(reply);
  });

  it('an unsupported Content-Encoding is 415 unsupported-content-encoding', async () => {
    const reply = await post('compress', Buffer.from('{}'));
    expect(reply).toMatchObject({
      status: 415,
      body: {
        type: 'urn:svc:problem:unsupported-content-encoding',
        code: 'unsupported-content-encoding',
        status: 415,
        detail: 'Content-Encoding "compress" is not supported; send the body uncompressed, or with gzip, deflate or br',
      },
    });
    logged(reply);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('a body really compressed with %s is read', async (encoding, compress) => {
    const reply = await post(encoding, compress(Buffer.from('{}')));
    expect(reply.status).toBe(200);
    logged(reply);
  });
});

describe('with Negotiate configured, every 401 carries WWW-Authenticate: Negotiate', () => {
  let pki: TestPki;
  let alice: Issued;
  let proxyCert: Issued;
  let port: number;
  const tls = (client?: Issued) => ({ ca: pki.ca.certPem, ...(client ? { key: client.keyPem, cert: client.certPem } : {}) });

  beforeAll(async () => {
    pki = createTestPki(join(dir, 'pki'));
    alice = pki.client('alice', { upn: 'alice@SVC.TEST' });
    proxyCert = pki.client('iis-proxy');
    const mtls = { ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key };
    const config = readApiConfig(
      {
        port: 0,
        auth: {
          negotiate: { spn: 'HTTP@localhost' },
          mtls,
          proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'], certificates: [{ fingerprint256: fingerprintOf(proxyCert) }] },
        },
        roles: { auditor: ['alice@SVC.TEST', certificateGrant('alice@SVC.TEST', pki.ca)], operator: ['bob@SVC.TEST'] },
      },
      'api.json',
      dir,
    );
    const api = buildApi(config, { env: env(), cwd: home.home, logger: capturingLogger().logger });
    port = await serve(api, createHttpsServer(tlsServerOptions(mtls), api.handler));
  });

  const get = (path: string, options: CallOptions) => call('127.0.0.1', port, path, options);

  it.each<[string, string, () => CallOptions, string]>([
    ['no credential', '/auditor/evidence', () => ({ tls: tls() }), 'authentication-required'],
    ['a Basic credential', '/auditor/evidence', () => ({ tls: tls(), headers: { authorization: 'Basic YWxpY2U6cGFzcw==' } }), 'authentication-required'],
    ['a malformed Negotiate header', '/auditor/evidence', () => ({ tls: tls(), headers: { authorization: 'Negotiate !!!' } }), 'negotiate-malformed'],
    [
      'an NTLM token',
      '/auditor/evidence',
      () => ({ tls: tls(), headers: { authorization: 'Negotiate TlRMTVNTUAABAAAAB4IIogAAAAAAAAAAAAAAAAAAAAAGAbEdAAAADw==' } }),
      'negotiate-ntlm-refused',
    ],
    ['the proxy header from an untrusted peer', '/auditor/evidence', () => ({ tls: tls(), headers: ALICE, localAddress: '127.0.0.2' }), 'untrusted-proxy'],
    ['the proxy header with a user certificate', '/auditor/evidence', () => ({ tls: tls(alice), headers: ALICE }), 'untrusted-proxy'],
    [
      'an invalid proxy identity',
      '/auditor/evidence',
      () => ({ tls: tls(proxyCert), headers: { 'x-forwarded-user': 'alice, bob' } }),
      'invalid-proxy-identity',
    ],
    [
      'a client certificate of a foreign CA',
      '/auditor/evidence',
      () => ({ tls: tls(pki.client('mallory', { upn: 'alice@SVC.TEST', ca: pki.foreignCa })) }),
      'client-certificate-refused',
    ],
    ['a refused credential on the open readiness route', '/health/ready', () => ({ tls: tls(), headers: ALICE, localAddress: '127.0.0.2' }), 'untrusted-proxy'],
  ])('%s (%s)', async (_what, path, options, code) => {
    const reply = await get(path, options());
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Negotiate');
    expect((reply.body as { code: string }).code).toBe(code);
  });

  it('on the path of a read the front door replays, for every request it hands to Express', async () => {
    const path = '/auditor/evidence?limit=2';
    expect((await get(path, { tls: tls(alice) })).status).toBe(200);
    expect((await get(path, { tls: tls(alice) })).status).toBe(200);
    expect((await get(path, { tls: tls(proxyCert), headers: ALICE })).status).toBe(200);
    for (const options of [
      { tls: tls() },
      { tls: tls(alice), headers: ALICE },
      { tls: tls(), headers: ALICE, localAddress: '127.0.0.2' },
      { tls: tls(proxyCert), headers: { 'x-forwarded-user': 'x\ty' } },
    ]) {
      const reply = await get(path, options);
      expect([reply.status, reply.headers['www-authenticate']]).toEqual([401, 'Negotiate']);
    }
  });
});
