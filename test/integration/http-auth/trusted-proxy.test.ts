import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
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
    'the x-forwarded-user header is not one user name (DOMAIN\\user, user@REALM or a plain name, 1-256 characters, no control, format or line-separator characters); fix what the proxy puts in it',
};
const untrusted = (peer: string, why = 'is not one of them') => ({
  status: 401,
  code: 'untrusted-proxy',
  detail: `the x-forwarded-user header is accepted only from the proxy addresses in auth.proxy.addresses, over loopback or with a client certificate listed in auth.proxy.certificates, and ${peer} ${why}; send the request through the proxy`,
});

let dir: string;
let pki: TestPki;
let alice: Issued;
const servers: { close(): Promise<void> }[] = [];
const refusals: AuthRefusal[] = [];

/**
 * An app whose authenticator trusts `addresses` (plus mTLS when `tls`, and the proxy `certificates`), listening on
 * `host`; `peerAs` makes every connection's peer address that one, as a proxy on another host would have.
 */
async function proxyServer(
  addresses: string[],
  host = '127.0.0.1',
  tls = false,
  options: { certificates?: unknown[]; peerAs?: string; ca?: string } = {},
): Promise<number> {
  let ca = pki.ca.cert;
  if (options.ca !== undefined) {
    ca = join(dir, `clients-${servers.length}.pem`);
    writeFileSync(ca, options.ca);
  }
  const mtls = { ca, cert: pki.server.cert, key: pki.server.key };
  const proxy = { header: 'X-Forwarded-User', addresses, ...(options.certificates ? { certificates: options.certificates } : {}) };
  const config = parseAuthConfig({ proxy, ...(tls ? { mtls } : {}) }, 'svc-api.json', dir);
  const app = authTestApp(createAuthenticator(config, { onRefused: (r) => refusals.push(r) }));
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (options.peerAs) Object.defineProperty(req.socket, 'remoteAddress', { value: options.peerAs, configurable: true });
    app(req, res);
  };
  const server = await listen(tls ? createHttpsServer(tlsServerOptions(mtls), handler) : createHttpServer(handler), host);
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
    const { methods, challenges } = createAuthenticator({ proxy: { header: HEADER, addresses: ['127.0.0.1'], certificates: [] } });
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
  let proxyCert: Issued;
  let fingerprint: string;
  beforeAll(() => {
    proxyCert = pki.client('iis-proxy');
    // As docs/iis.md has the administrator print it: "sha256 Fingerprint=AB:CD:…", pasted as it is.
    fingerprint = execFileSync('openssl', ['x509', '-in', proxyCert.cert, '-noout', '-fingerprint', '-sha256'], { encoding: 'utf8' }).trim();
  });
  const notTheProxy = (peer: string) => untrusted(peer, 'presented a client certificate that is not one of auth.proxy.certificates');

  it('accepts the header from loopback over TLS without a client certificate', async () => {
    const port = await proxyServer(['127.0.0.1'], '127.0.0.1', true);
    const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls() }));
    expect(reply.body).toEqual({ name: 'CONTOSO\\bob', method: 'proxy' });
  });

  describe('from loopback, the proxy certificate listed by its SHA-256 fingerprint', () => {
    let port: number;
    beforeAll(async () => {
      port = await proxyServer(['127.0.0.1'], '127.0.0.1', true, { certificates: [{ fingerprint256: fingerprint }] });
    });

    it("refuses a certificate with the proxy's very subject from another CA the API trusts (an agency's) with 401 untrusted-proxy", async () => {
      // The API trusts the agency's CA for its users' certificates; the agency mints one named CN=iis-proxy.
      const impostor = pki.client('iis-proxy', { ca: pki.foreignCa });
      const trusting = await proxyServer(['127.0.0.1'], '127.0.0.1', true, {
        certificates: [{ fingerprint256: fingerprint }],
        ca: pki.ca.certPem + pki.foreignCa.certPem,
      });
      const reply = await call('127.0.0.1', trusting, '/whoami', asUser('CONTOSO\\admin', { tls: tls(impostor) }));
      expect(reply).toMatchObject({ status: 401, body: notTheProxy('127.0.0.1') });
      expect((await call('127.0.0.1', trusting, '/whoami', asUser('CONTOSO\\bob', { tls: tls(proxyCert) }))).body).toEqual({
        name: 'CONTOSO\\bob',
        method: 'proxy',
      });
    });

    it("accepts the header from the proxy's certificate, as the header's user", async () => {
      const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls(proxyCert) }));
      expect(reply).toMatchObject({ status: 200, body: { name: 'CONTOSO\\bob', method: 'proxy' } });
    });

    it("refuses the header from a user's own certificate on the proxy's address with 401 untrusted-proxy", async () => {
      const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls(alice) }));
      expect(reply).toMatchObject({ status: 401, body: notTheProxy('127.0.0.1') });
      expect(refusals).toEqual([{ method: 'proxy', code: 'untrusted-proxy', reason: notTheProxy('127.0.0.1').detail }]);
    });

    it("authenticates the user's certificate itself when the header is absent", async () => {
      expect((await call('127.0.0.1', port, '/whoami', { tls: tls(alice) })).body).toEqual({
        name: 'alice@SVC.TEST',
        method: 'mtls',
        issuer: 'CN=svc test CA',
        subject: 'CN=alice',
        authorities: ['CN=svc test CA'],
      });
    });
  });

  it("refuses a user's certificate with the header on loopback when no proxy certificate is listed", async () => {
    const port = await proxyServer(['127.0.0.1'], '127.0.0.1', true);
    const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls(alice) }));
    expect(reply.body).toEqual(notTheProxy('127.0.0.1'));
  });

  // The peer address a proxy on another host has, given to a real TLS connection over loopback (tests use loopback only).
  describe('from a proxy on another host (peer address 192.0.2.10)', () => {
    const PEER = '192.0.2.10';
    let port: number;
    beforeAll(async () => {
      port = await proxyServer([PEER], '127.0.0.1', true, { certificates: [{ fingerprint256: fingerprint }], peerAs: PEER });
    });

    it("accepts the header with the proxy's certificate", async () => {
      const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls(proxyCert) }));
      expect(reply.body).toEqual({ name: 'CONTOSO\\bob', method: 'proxy' });
    });

    it("refuses the header with a user's certificate that chains to auth.mtls.ca", async () => {
      const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls(alice) }));
      expect(reply.body).toEqual(notTheProxy(PEER));
    });

    it('refuses the header without a client certificate', async () => {
      const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls() }));
      expect(reply.body).toEqual(untrusted(PEER, 'connected without a client certificate'));
    });

    it('refuses the header with a certificate that did not verify', async () => {
      const mallory = pki.client('mallory', { upn: 'mallory@SVC.TEST', ca: pki.foreignCa });
      const reply = await call('127.0.0.1', port, '/whoami', asUser('CONTOSO\\bob', { tls: tls(mallory) }));
      expect(reply.body).toEqual(untrusted(PEER, 'presented a client certificate that did not verify'));
    });

    it('authenticates the certificate itself when the header is absent', async () => {
      const reply = await call('127.0.0.1', port, '/whoami', { tls: tls(alice) });
      expect(reply.body).toEqual({ name: 'alice@SVC.TEST', method: 'mtls', issuer: 'CN=svc test CA', subject: 'CN=alice', authorities: ['CN=svc test CA'] });
    });
  });
});
