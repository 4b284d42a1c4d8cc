import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAuthConfig } from '../../../src/interfaces/http/auth/auth-config';
import { type AuthRefusal, createAuthenticator } from '../../../src/interfaces/http/auth/authenticator';
import { tlsServerOptions } from '../../../src/interfaces/http/auth/tls-server-options';
import { authTestApp, call, type CallOptions, listen } from '../../support/auth-test-app';
import { createTestPki, type Issued, type TestPki } from '../../support/pki';

const HEADER = 'x-forwarded-user';
const INVALID_IDENTITY = {
  status: 401,
  code: 'invalid-proxy-identity',
  detail:
    'the x-forwarded-user header is not one user name (DOMAIN\\user, user@REALM or a plain name, 1-256 characters, no control characters); fix what the proxy puts in it',
};
const untrusted = (peer: string, why = 'is not one of them') => ({
  status: 401,
  code: 'untrusted-proxy',
  detail: `the x-forwarded-user header is accepted only from the proxy addresses in auth.proxy.addresses, over loopback or mutual TLS, and ${peer} ${why}; send the request through the proxy`,
});
/** This host's first address that is not loopback: a peer the proxy rule must treat as another host. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i?.family === 'IPv4' && !i.internal)?.address;

let dir: string;
let pki: TestPki;
let alice: Issued;
const servers: { close(): Promise<void> }[] = [];
const refusals: AuthRefusal[] = [];

/** An app whose authenticator trusts `addresses` (plus mTLS when `tls`), listening on `host`. */
async function proxyServer(addresses: string[], host = '127.0.0.1', tls = false): Promise<number> {
  const mtls = { ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key };
  const config = parseAuthConfig({ proxy: { header: 'X-Forwarded-User', addresses }, ...(tls ? { mtls } : {}) }, 'svc-api.json', dir);
  const app = authTestApp(createAuthenticator(config, { onRefused: (r) => refusals.push(r) }));
  const server = await listen(tls ? createHttpsServer(tlsServerOptions(mtls), app) : createHttpServer(app), host);
  servers.push(server);
  return server.port;
}

const asUser = (user: string | string[], options: CallOptions = {}) => ({ ...options, headers: { [HEADER]: user } });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
  pki = createTestPki(dir);
  alice = pki.client('alice', { upn: 'alice@SVC.TEST' });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  refusals.length = 0;
});

describe('trusted proxy over loopback', () => {
  let port: number;
  beforeAll(async () => {
    port = await proxyServer(['127.0.0.1']);
  });

  it('lists proxy as the only method', () => {
    const { methods, challenges } = createAuthenticator({ proxy: { header: HEADER, addresses: ['127.0.0.1'] } });
    expect([methods, challenges]).toEqual([['proxy'], []]);
  });

  it.each(['CONTOSO\\alice', 'alice@CONTOSO.COM', 'alice', "o'brien.j-2$", 'Mary Ann', 'svc.test\\bob'])('accepts %j from the proxy address', async (user) => {
    const reply = await call('127.0.0.1', port, '/whoami', asUser(user));
    expect(reply).toMatchObject({ status: 200, body: { name: user, method: 'proxy' } });
  });

  it('reads a non-ASCII user name as UTF-8', async () => {
    const reply = await call('127.0.0.1', port, '/whoami', asUser(Buffer.from('CONTOSO\\josé').toString('latin1')));
    expect(reply.body).toEqual({ name: 'CONTOSO\\josé', method: 'proxy' });
  });

  it('leaves the principal unset for a request without the header', async () => {
    const reply = await call('127.0.0.1', port, '/whoami');
    expect(reply).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
  });

  it('refuses the header from a loopback address that is not configured (127.0.0.2) with 401 untrusted-proxy', async () => {
    const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\alice', { localAddress: '127.0.0.2' }));
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(untrusted('127.0.0.2'));
    expect(refusals).toEqual([{ method: 'proxy', code: 'untrusted-proxy', reason: untrusted('127.0.0.2').detail }]);
  });

  it.each([
    ['a tab', 'CONTOSO\\alice\tadmin'],
    ['nothing', ''],
    ['257 characters', 'a'.repeat(257)],
    ['two names', 'alice, bob'],
    ['a path', 'CONTOSO\\alice\\admin'],
    ['two spaces in a row', 'Mary  Ann'],
    ['two realms', 'alice@A@B'],
    ['bytes that are not UTF-8', 'jos\xe9'],
  ])('refuses a value with %s with 401 invalid-proxy-identity', async (_what, user) => {
    const reply = await call('127.0.0.1', port, '/whoami', asUser(user));
    expect(reply.body).toEqual(INVALID_IDENTITY);
  });

  it('refuses the header sent twice (Node joins the values)', async () => {
    const reply = await call('127.0.0.1', port, '/whoami', asUser(['alice', 'bob']));
    expect(reply.body).toEqual(INVALID_IDENTITY);
  });

  it('accepts 256 characters', async () => {
    const reply = await call('127.0.0.1', port, '/whoami', asUser('a'.repeat(256)));
    expect(reply.body).toEqual({ name: 'a'.repeat(256), method: 'proxy' });
  });

  it('compares IPv4-mapped and IPv6 peers in one spelling on a dual-stack listener', async () => {
    const dual = await proxyServer(['127.0.0.1', '0:0:0:0:0:0:0:1'], '::');
    expect((await call('127.0.0.1', dual, '/whoami', asUser('alice'))).body).toEqual({ name: 'alice', method: 'proxy' });
    expect((await call('::1', dual, '/whoami', asUser('bob'))).body).toEqual({ name: 'bob', method: 'proxy' });
    expect((await call('127.0.0.1', dual, '/whoami', asUser('carol', { localAddress: '127.0.0.2' }))).body).toEqual(untrusted('127.0.0.2'));
  });
});

describe('trusted proxy over mutual TLS', () => {
  const tls = (client?: Issued) => ({ ca: pki.ca.certPem, ...(client ? { key: client.keyPem, cert: client.certPem } : {}) });

  it('accepts the header from loopback over TLS without a client certificate', async () => {
    const port = await proxyServer(['127.0.0.1'], '127.0.0.1', true);
    const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls() }));
    expect(reply.body).toEqual({ name: 'CONTOSO\\bob', method: 'proxy' });
  });

  const another = external ? describe : describe.skip;
  another(`from this host's non-loopback address (${external ?? 'none found'})`, () => {
    let port: number;
    beforeAll(async () => {
      port = await proxyServer([external as string], external, true);
    });

    it("accepts the header with a verified client certificate, as the header's user rather than the certificate's", async () => {
      const reply = await call(external as string, port, '/whoami', asUser('CONTOSO\\bob', { localAddress: external, tls: tls(alice) }));
      expect(reply.body).toEqual({ name: 'CONTOSO\\bob', method: 'proxy' });
    });

    it('refuses the header without a client certificate', async () => {
      const reply = await call(external as string, port, '/whoami', asUser('CONTOSO\\bob', { localAddress: external, tls: tls() }));
      expect(reply.body).toEqual(untrusted(external as string, 'connected without a verified client certificate'));
    });

    it('refuses the header with a certificate that did not verify', async () => {
      const mallory = pki.client('mallory', { upn: 'mallory@SVC.TEST', ca: pki.foreignCa });
      const reply = await call(external as string, port, '/whoami', asUser('CONTOSO\\bob', { localAddress: external, tls: tls(mallory) }));
      expect(reply.body).toEqual(untrusted(external as string, 'connected without a verified client certificate'));
    });

    it('authenticates the certificate itself when the header is absent', async () => {
      const reply = await call(external as string, port, '/whoami', { localAddress: external, tls: tls(alice) });
      expect(reply.body).toEqual({ name: 'alice@SVC.TEST', method: 'mtls' });
    });
  });
});
