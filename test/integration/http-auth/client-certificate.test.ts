import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../src/domain/errors';
import { type AuthRefusal, createAuthenticator } from '../../../src/interfaces/http/auth/authenticator';
import { tlsServerOptions } from '../../../src/interfaces/http/auth/tls-server-options';
import { authTestApp, call, curl, listen } from '../../support/auth-test-app';
import { createTestPki, type Issued, type TestPki } from '../../support/pki';

let dir: string;
let pki: TestPki;
let port: number;
let close: () => Promise<void>;
const clients: Record<string, Issued> = {};
const refusals: AuthRefusal[] = [];

const whoami = (client?: Issued) =>
  call('127.0.0.1', port, '/whoami', { tls: { ca: pki.ca.certPem, ...(client ? { key: client.keyPem, cert: client.certPem } : {}) } });
const refused = (reason: string) => ({
  status: 401,
  code: 'client-certificate-refused',
  detail: `the client certificate did not verify (${reason}); present a certificate issued by a CA the API trusts`,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-mtls-'));
  pki = createTestPki(dir);
  clients.alice = pki.client('alice', { upn: 'alice@SVC.TEST', email: 'alice@svc.test' });
  clients.erin = pki.client('erin', { email: 'erin@svc.test' });
  clients.carol = pki.client('carol');
  clients.eve = pki.client('eve', { upn: 'eve, othername:UPN:admin@SVC.TEST', email: 'eve@svc.test' });
  clients.mallory = pki.client('mallory', { upn: 'alice@SVC.TEST', ca: pki.foreignCa });
  const authenticator = createAuthenticator({ mtls: { ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key } }, { onRefused: (r) => refusals.push(r) });
  const options = tlsServerOptions({ ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key });
  ({ port, close } = await listen(createServer(options, authTestApp(authenticator))));
});

afterAll(async () => {
  await close?.();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  refusals.length = 0;
});

describe('mutual TLS client certificates', () => {
  it('lists mtls as the only method and has no HTTP challenge', () => {
    const { methods, challenges } = createAuthenticator({ mtls: { ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key } });
    expect(methods).toEqual(['mtls']);
    expect(challenges).toEqual([]);
  });

  it('names a certificate with a UPN by its UPN', async () => {
    const reply = await whoami(clients.alice);
    expect(reply).toMatchObject({ status: 200, body: { name: 'alice@SVC.TEST', method: 'mtls' } });
  });

  it('names a certificate with only an e-mail by its e-mail', async () => {
    expect((await whoami(clients.erin)).body).toEqual({
      name: 'erin@svc.test',
      method: 'mtls',
      issuer: 'CN=svc test CA',
      subject: 'CN=erin',
      authorities: ['CN=svc test CA'],
    });
  });

  it('names a certificate with neither by its subject CN', async () => {
    expect((await whoami(clients.carol)).body).toEqual({
      name: 'carol',
      method: 'mtls',
      issuer: 'CN=svc test CA',
      subject: 'CN=carol',
      authorities: ['CN=svc test CA'],
    });
  });

  it('reads the UPN from the certificate itself, so a UPN that looks like two names stays one', async () => {
    expect((await whoami(clients.eve)).body).toEqual({
      name: 'eve, othername:UPN:admin@SVC.TEST',
      method: 'mtls',
      issuer: 'CN=svc test CA',
      subject: 'CN=eve',
      authorities: ['CN=svc test CA'],
    });
  });

  it('leaves the principal unset without a client certificate: the route answers 401 with no challenge', async () => {
    const reply = await whoami();
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBeUndefined();
    expect(reply.body).toEqual({ status: 401, code: 'unauthenticated', detail: 'this route needs an authenticated principal' });
  });

  it('refuses a certificate from a foreign CA with 401 client-certificate-refused', async () => {
    const reply = await whoami(clients.mallory);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBeUndefined();
    expect(reply.body).toEqual(refused('UNABLE_TO_VERIFY_LEAF_SIGNATURE'));
    expect(refusals).toEqual([{ method: 'mtls', code: 'client-certificate-refused', reason: refused('UNABLE_TO_VERIFY_LEAF_SIGNATURE').detail }]);
  });

  it('refuses a certificate of the trusted CA that is not for client authentication', async () => {
    expect((await whoami(pki.server)).body).toEqual(refused('INVALID_PURPOSE'));
  });

  it('authenticates curl --cert/--key and refuses curl with a foreign certificate', async () => {
    const url = `https://localhost:${port}/whoami`;
    const alice = await curl(['--cacert', pki.ca.cert, '--cert', clients.alice.cert, '--key', clients.alice.key, url]);
    expect(alice).toMatchObject({ status: 200, body: { name: 'alice@SVC.TEST', method: 'mtls' } });
    const mallory = await curl(['--cacert', pki.ca.cert, '--cert', clients.mallory.cert, '--key', clients.mallory.key, url]);
    expect(mallory).toMatchObject({ status: 401, body: refused('UNABLE_TO_VERIFY_LEAF_SIGNATURE') });
    const anonymous = await curl(['--cacert', pki.ca.cert, url]);
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
  });

  it('judges the certificate before an Authorization: Negotiate header', async () => {
    // Negotiate is on but no KDC or keytab exists here: reaching the acceptor would answer 500.
    const authenticator = createAuthenticator({ negotiate: { spn: 'HTTP@localhost' }, mtls: { ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key } });
    expect(authenticator.methods).toEqual(['negotiate', 'mtls']);
    const server = await listen(createServer(tlsServerOptions({ ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key }), authTestApp(authenticator)));
    try {
      const reply = await call('127.0.0.1', server.port, '/whoami', {
        headers: { authorization: 'Negotiate YIIC2QYGKwYBBQUC' },
        tls: { ca: pki.ca.certPem, key: clients.carol.keyPem, cert: clients.carol.certPem },
      });
      expect(reply.body).toEqual({ name: 'carol', method: 'mtls', issuer: 'CN=svc test CA', subject: 'CN=carol', authorities: ['CN=svc test CA'] });
    } finally {
      await server.close();
    }
  });
});

describe('tlsServerOptions', () => {
  const files = () => ({ ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key });
  const failure = (mtls: { ca: string; cert: string; key: string }): ConfigError => {
    try {
      tlsServerOptions(mtls);
    } catch (error) {
      return error as ConfigError;
    }
    throw new Error('tlsServerOptions accepted the files');
  };
  const writeFile = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('asks for a client certificate without requiring it at the handshake, from TLS 1.2 on', () => {
    expect(tlsServerOptions(files())).toEqual({
      key: Buffer.from(pki.server.keyPem),
      cert: Buffer.from(pki.server.certPem),
      ca: Buffer.from(pki.ca.certPem),
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
    });
  });

  it('accepts a CA bundle of several certificates', () => {
    const bundle = writeFile('bundle.pem', pki.ca.certPem + pki.foreignCa.certPem);
    expect(tlsServerOptions({ ...files(), ca: bundle }).ca).toEqual(Buffer.from(pki.ca.certPem + pki.foreignCa.certPem));
  });

  it('names the file it cannot read', () => {
    const missing = join(dir, 'missing.key');
    const error = failure({ ...files(), key: missing });
    expect(error).toBeInstanceOf(ConfigError);
    expect([error.code, error.message]).toEqual([
      'api-tls-unreadable',
      `${missing}: cannot read the file (ENOENT); fix auth.mtls.key in the API config or the file's permissions`,
    ]);
  });

  it.each([
    [
      'key',
      'a certificate as the key',
      () => ({ key: pki.server.cert }),
      (f: { key: string }) => `${f.key}: not an unencrypted PEM private key; fix the file or auth.mtls.key in the API config`,
    ],
    [
      'cert',
      'a key as the certificate',
      () => ({ cert: pki.server.key }),
      (f: { cert: string }) => `${f.cert}: not a PEM certificate; fix the file or auth.mtls.cert in the API config`,
    ],
    [
      'key',
      'the key of another certificate',
      () => ({ key: pki.ca.key }),
      (f: { key: string; cert: string }) => `${f.key}: not the private key of the certificate in ${f.cert}; fix the file or auth.mtls.key in the API config`,
    ],
    [
      'ca',
      'a key as the CA bundle',
      () => ({ ca: pki.ca.key }),
      (f: { ca: string }) => `${f.ca}: holds no PEM certificate; fix the file or auth.mtls.ca in the API config`,
    ],
    [
      'ca',
      'a damaged CA certificate',
      () => ({ ca: writeFile('damaged.pem', pki.ca.certPem.replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA')) }),
      (f: { ca: string }) => `${f.ca}: certificate 1 of the bundle does not parse; fix the file or auth.mtls.ca in the API config`,
    ],
  ])('refuses %s: %s', (_setting, _what, change, message) => {
    const mtls = { ...files(), ...change() };
    const error = failure(mtls);
    expect([error.code, error.message]).toEqual(['api-tls-invalid', message(mtls)]);
  });
});
