import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgencyProvider, ProviderAuth } from '../../../src/domain/agency/providers';
import { HttpsTrustCenterClient } from '../../../src/infrastructure/agency/https-trust-center-client';
import { TrustCenterFailure, type TrustCenterResponse, type TrustCenterSession } from '../../../src/ports/trust-center-client';
import {
  closedPort,
  issueServerCertificate,
  json,
  startStubTrustCenter,
  type StubHandler,
  type StubOptions,
  type StubTrustCenter,
} from '../../support/agency-servers';
import { startSvcApi, type StartedApi } from '../../support/api';
import { FEDRAMP_SCHEMAS } from '../../support/fedramp-schemas';
import { startKdc, type Kdc } from '../../support/kdc';
import { createTestPki, fingerprintOf, issueCa, type TestPki } from '../../support/pki';
import { ROOT, svc } from '../../support/run-svc';
import { prowlerReport, TRUST_PROFILE } from '../../support/trust-center';

const SETTINGS = { timeoutMs: 5_000, retries: 2, maxDocumentBytes: 1024 };
const TOKEN = 'tc-7f3a9d2e1b8c4f60a5d3e9b7c1f2a4d6';
const noWait = () => Promise.resolve();

let work: string;
let pki: TestPki;
const at = (...parts: string[]) => join(work, ...parts);
const stubs: StubTrustCenter[] = [];
const sessions: TrustCenterSession[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-trust-center-client-'));
  pki = createTestPki(at('pki'));
  writeFileSync(at('token'), `${TOKEN}\n`);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(async () => {
  sessions.splice(0).forEach((s) => s.close());
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});

async function stub(handler: StubHandler, options: StubOptions = { cert: pki.server }): Promise<StubTrustCenter> {
  const started = await startStubTrustCenter(handler, options);
  stubs.push(started);
  return started;
}

function open(
  url: string,
  auth: ProviderAuth = { kind: 'none' },
  extra: Partial<AgencyProvider> = { ca: pki.ca.cert },
  settings = SETTINGS,
): TrustCenterSession {
  const session = new HttpsTrustCenterClient({ sleep: noWait }).open({ name: 'acme', url, auth, ...extra }, settings);
  sessions.push(session);
  return session;
}

/** The failure a promise rejects with, as kind, message and attempts. */
async function failure(promise: Promise<TrustCenterResponse>): Promise<{ kind: string; message: string; attempts: number }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof TrustCenterFailure)) throw error;
    return { kind: error.kind, message: error.message, attempts: error.attempts };
  }
  throw new Error('resolved; expected a TrustCenterFailure');
}

const ok: StubHandler = (_req, res) => json(res, 200, { ok: true });

describe('HttpsTrustCenterClient: TLS and what a response holds', () => {
  it("trusts the provider's CA beside Node's roots and records the server's leaf certificate on every response", async () => {
    const server = await stub((_req, res) => {
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      json(res, 200, { fedramp: 'cpo' });
    });
    const session = open(server.url);
    const first = await session.get({ url: `${server.url}/fedramp/cpo` });
    const second = await session.get({ url: `${server.url}/fedramp/sdr` });
    const leaf = new X509Certificate(pki.server.certPem);
    expect(first.status).toBe(200);
    expect(JSON.parse(Buffer.from(first.body).toString('utf8'))).toEqual({ fedramp: 'cpo' });
    expect(first.attempts).toBe(1);
    expect(first.headers).toEqual({
      'set-cookie': 'a=1, b=2',
      'x-content-type-options': 'nosniff',
      'content-type': 'application/json',
      'content-length': '17',
      date: expect.any(String),
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
    });
    const identity = {
      fingerprint256: fingerprintOf(pki.server),
      subject: 'CN=localhost',
      issuer: 'CN=svc test CA',
      validTo: new Date(leaf.validTo).toISOString(),
    };
    expect(first.tls).toEqual(identity);
    expect(second.tls).toEqual(identity);
    // One keep-alive connection for the session; GET with Accept and nothing else of svc's.
    expect(server.connections).toBe(1);
    expect(server.requests.map((r) => [r.method, r.path, r.headers.accept, r.headers.authorization, r.headers['if-none-match'], r.headers.origin])).toEqual([
      ['GET', '/fedramp/cpo', 'application/json', undefined, undefined, undefined],
      ['GET', '/fedramp/sdr', 'application/json', undefined, undefined, undefined],
    ]);
  });

  it('writes subject and issuer as one RFC 4514 line, most specific RDN first, special characters escaped', async () => {
    const ca = issueCa(at('pki'), 'named-ca', '/C=US/O=Example Cloud/OU=PKI, Issuing/CN=Example Issuing CA');
    const cert = issueServerCertificate(at('pki'), 'named-server', '/C=US/O=Example Cloud, Inc./OU=Trust+CN=localhost', ca);
    const server = await stub(ok, { cert });
    const response = await open(server.url, { kind: 'none' }, { ca: ca.cert }).get({ url: `https://127.0.0.1:${server.port}/fedramp/public` });
    expect([response.tls?.subject, response.tls?.issuer]).toEqual([
      'OU=Trust+CN=localhost,O=Example Cloud\\, Inc.,C=US',
      'CN=Example Issuing CA,OU=PKI\\, Issuing,O=Example Cloud,C=US',
    ]);
  });

  it('speaks plain HTTP to an http:// URL, with no TLS identity', async () => {
    const server = await stub(ok, {});
    const response = await open(server.url, { kind: 'none' }, {}).get({ url: `${server.url}/fedramp/public` });
    expect([response.status, response.tls]).toEqual([200, undefined]);
  });

  it("refuses a certificate of a CA it was not given: 'tls', not retried, no request sent", async () => {
    const server = await stub(ok);
    const url = `${server.url}/fedramp/cpo`;
    expect(await failure(open(server.url, { kind: 'none' }, {}).get({ url }))).toEqual({
      kind: 'tls',
      message: `${url}: the trust center's TLS certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate); give the CA that issued it as agency.providers[].ca`,
      attempts: 1,
    });
    expect(await failure(open(server.url, { kind: 'none' }, { ca: pki.foreignCa.cert }).get({ url }))).toEqual({
      kind: 'tls',
      message: `${url}: the trust center's TLS certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate); give the CA that issued it as agency.providers[].ca`,
      attempts: 1,
    });
    expect(server.requests).toEqual([]);
  });

  it("refuses a certificate that does not name the host: 'tls'", async () => {
    const server = await stub(ok, { cert: pki.server, host: '127.0.0.2', urlHost: '127.0.0.2' });
    const url = `${server.url}/fedramp/cpo`;
    expect(await failure(open(server.url).get({ url }))).toEqual({
      kind: 'tls',
      message: `${url}: the trust center's TLS certificate does not name this host (ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames: IP: 127.0.0.2 is not in the cert's list: 127.0.0.1); use a host name it names in agency.providers[].url`,
      attempts: 1,
    });
  });
});

describe('HttpsTrustCenterClient: authentication', () => {
  it('presents the configured client certificate to a trust center that requires one, and is refused without it', async () => {
    const agent = pki.client('agency-reader');
    const server = await stub(ok, { cert: pki.server, clientCa: pki.ca });
    const url = `${server.url}/fedramp/vdr`;
    const response = await open(server.url, { kind: 'cert', cert: agent.cert, key: agent.key }).get({ url });
    expect(response.status).toBe(200);
    expect(server.requests.map((r) => r.clientCertificate)).toEqual(['agency-reader']);
    const refused = await failure(open(server.url).get({ url }));
    expect(refused).toEqual({
      kind: 'tls',
      message: `${url}: the trust center refused the TLS handshake (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: tlsv13 alert certificate required); it may want a client certificate its CA issued (agency.providers[].auth kind cert)`,
      attempts: 1,
    });
    const foreign = pki.client('outsider', { ca: pki.foreignCa });
    // Node's server checks the certificate after the handshake and hangs up, with no alert: retried, and said so.
    expect(await failure(open(server.url, { kind: 'cert', cert: foreign.cert, key: foreign.key }).get({ url }))).toEqual({
      kind: 'unreachable',
      message: `${url}: the trust center closed the connection after the TLS handshake (ECONNRESET: socket hang up) after 3 attempts; it may refuse the client certificate agency.providers[].auth.cert names: check that its CA issued it`,
      attempts: 3,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('sends the bearer token of the token file exactly, trimmed, and never puts it into a message', async () => {
    const server = await stub((_req, res, n) => (n === 0 ? json(res, 401, { detail: 'no' }) : res.destroy()));
    const session = open(server.url, { kind: 'token', tokenFile: at('token') });
    const refused = await session.get({ url: `${server.url}/fedramp/cpo` });
    expect([refused.status, refused.attempts]).toEqual([401, 1]);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    const reset = await failure(session.get({ url: `${server.url}/fedramp/sdr` }));
    expect(reset).toEqual({
      kind: 'unreachable',
      message: `${server.url}/fedramp/sdr: unreachable (ECONNRESET: socket hang up) after 3 attempts; check the URL and that the trust center is up`,
      attempts: 3,
    });
    expect(reset.message).not.toContain(TOKEN);
  });

  it('reads no credential it cannot: each unreadable or unusable file is an exact one-line failure of every get, naming the file', async () => {
    const server = await stub(ok);
    const url = `${server.url}/fedramp/cpo`;
    const agent = pki.client('agency-reader');
    writeFileSync(at('empty-token'), ' \n');
    writeFileSync(at('not-pem'), 'hello');
    writeFileSync(at('secret-token'), TOKEN);
    chmodSync(at('secret-token'), 0o000);
    const unreadable = process.getuid?.() !== 0; // root reads a mode-000 file
    const cases: [ProviderAuth, Partial<AgencyProvider>, { kind: string; message: string } | undefined][] = [
      [
        { kind: 'token', tokenFile: at('missing-token') },
        {},
        {
          kind: 'auth',
          message: `${at('missing-token')}: cannot read the token file agency.providers[].auth.token_file names; fix the path or its permissions`,
        },
      ],
      [
        { kind: 'token', tokenFile: at('secret-token') },
        {},
        unreadable
          ? {
              kind: 'auth',
              message: `${at('secret-token')}: cannot read the token file agency.providers[].auth.token_file names; fix the path or its permissions`,
            }
          : undefined,
      ],
      [
        { kind: 'token', tokenFile: at('empty-token') },
        {},
        { kind: 'auth', message: `${at('empty-token')}: the token file agency.providers[].auth.token_file names is empty; write the bearer token into it` },
      ],
      [
        { kind: 'cert', cert: at('missing.crt'), key: agent.key },
        {},
        {
          kind: 'auth',
          message: `${at('missing.crt')}: cannot read the client certificate file agency.providers[].auth.cert names; fix the path or its permissions`,
        },
      ],
      [
        { kind: 'cert', cert: agent.cert, key: at('missing.key') },
        {},
        { kind: 'auth', message: `${at('missing.key')}: cannot read the key file agency.providers[].auth.key names; fix the path or its permissions` },
      ],
      [
        { kind: 'cert', cert: agent.cert, key: pki.server.key },
        {},
        {
          kind: 'auth',
          message: `${agent.cert}, ${pki.server.key}: not a client certificate and its key in PEM form (key values mismatch); fix agency.providers[].auth cert and key`,
        },
      ],
      [
        { kind: 'none' },
        { ca: at('missing-ca.pem') },
        { kind: 'tls', message: `${at('missing-ca.pem')}: cannot read the CA file agency.providers[].ca names; fix the path or its permissions` },
      ],
      [
        { kind: 'none' },
        { ca: at('not-pem') },
        { kind: 'tls', message: `${at('not-pem')}: not a PEM file of CA certificates (agency.providers[].ca); give the CA certificates in PEM form` },
      ],
    ];
    for (const [auth, extra, expected] of cases) {
      if (expected === undefined) continue;
      const session = open(server.url, auth, { ca: pki.ca.cert, ...extra });
      expect(await failure(session.get({ url }))).toEqual({ ...expected, attempts: 0 });
      expect(await failure(session.get({ url }))).toEqual({ ...expected, attempts: 0 });
    }
    expect(server.requests).toEqual([]);
  });

  it("says how to add the kerberos module when Negotiate is configured and it is not installed: 'auth'", async () => {
    const session = new HttpsTrustCenterClient({ kerberosModule: 'kerberos-not-installed' }).open(
      { name: 'acme', url: 'https://localhost:1', auth: { kind: 'negotiate' } },
      SETTINGS,
    );
    expect(await failure(session.get({ url: 'https://localhost:1/fedramp/cpo' }))).toEqual({
      kind: 'auth',
      message:
        "the kerberos module is not installed, and agency.providers[].auth kind negotiate needs it; apt-get install libkrb5-dev (or your system's GSS-API headers), then npm install 'kerberos@^7.0.0'",
      attempts: 0,
    });
  });
});

describe('HttpsTrustCenterClient: conditional requests, CORS and retries', () => {
  it('sends If-None-Match and Origin when asked, and resolves a 304 with an empty body', async () => {
    const server = await stub((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"' });
        res.end();
      } else json(res, 200, { v: 1 }, { etag: '"v1"', 'access-control-allow-origin': '*' });
    });
    const session = open(server.url);
    const fresh = await session.get({ url: `${server.url}/fedramp/public`, origin: 'https://grc.agency.example' });
    expect([fresh.status, fresh.headers.etag, fresh.headers['access-control-allow-origin']]).toEqual([200, '"v1"', '*']);
    const unchanged = await session.get({ url: `${server.url}/fedramp/public`, etag: '"v1"' });
    expect([unchanged.status, unchanged.body.length, unchanged.attempts]).toEqual([304, 0, 1]);
    expect(server.requests.map((r) => [r.headers.origin, r.headers['if-none-match']])).toEqual([
      ['https://grc.agency.example', undefined],
      [undefined, '"v1"'],
    ]);
  });

  it('retries 5xx and 429 with back-off: resolves the first good answer with the attempts made', async () => {
    const server = await stub((_req, res, n) => (n < 2 ? json(res, n === 0 ? 500 : 429, { n }, { 'retry-after': '1' }) : json(res, 200, { n })));
    const response = await open(server.url, { kind: 'none' }, { ca: pki.ca.cert }).get({ url: `${server.url}/fedramp/sdr` });
    expect([response.status, response.attempts, JSON.parse(Buffer.from(response.body).toString())]).toEqual([200, 3, { n: 2 }]);
  });

  it('resolves the last 5xx after `retries` more attempts, with the real back-off', async () => {
    const server = await stub((_req, res) => json(res, 503, { detail: 'down' }));
    const session = new HttpsTrustCenterClient().open({ name: 'acme', url: server.url, auth: { kind: 'none' }, ca: pki.ca.cert }, SETTINGS);
    sessions.push(session);
    const response = await session.get({ url: `${server.url}/fedramp/sdr` });
    expect([response.status, response.attempts, server.requests.length]).toEqual([503, 3, 3]);
  });

  it('sends a request again at once, as the same attempt, when the server had closed the kept-alive connection it went on', async () => {
    const server = await stub((_req, res, n) => (n === 1 ? res.destroy() : json(res, 200, { n })));
    const session = open(server.url, { kind: 'none' }, { ca: pki.ca.cert }, { ...SETTINGS, retries: 0 });
    await session.get({ url: `${server.url}/fedramp/cpo` });
    const again = await session.get({ url: `${server.url}/fedramp/sdr` });
    expect([again.status, again.attempts, server.connections, server.requests.map((r) => r.path)]).toEqual([
      200,
      1,
      2,
      ['/fedramp/cpo', '/fedramp/sdr', '/fedramp/sdr'],
    ]);
  });

  it("waits 100 ms doubling with jitter between attempts, or the server's Retry-After (seconds or a date), at most 2 s", async () => {
    const asked = ['1', '7', new Date(Date.now() + 60_000).toUTCString(), undefined, undefined];
    const server = await stub((_req, res, n) =>
      json(res, n < asked.length ? 503 : 200, {}, asked[n] === undefined ? {} : { 'retry-after': asked[n] as string }),
    );
    const waits: number[] = [];
    const session = new HttpsTrustCenterClient({ sleep: (ms) => (waits.push(ms), Promise.resolve()) }).open(
      { name: 'acme', url: server.url, auth: { kind: 'none' }, ca: pki.ca.cert },
      { ...SETTINGS, retries: 5 },
    );
    sessions.push(session);
    expect((await session.get({ url: `${server.url}/fedramp/sdr` })).attempts).toBe(6);
    expect(waits.slice(0, 3)).toEqual([1000, 2000, 2000]);
    // Attempts 4 and 5 had no Retry-After: 800 and 1,600 ms, each with up to half taken off at random.
    expect([waits[3] >= 400 && waits[3] <= 800, waits[4] >= 800 && waits[4] <= 1600]).toEqual([true, true]);
  });

  it('never retries a 4xx other than 429', async () => {
    const server = await stub((_req, res) => json(res, 404, { detail: 'no such document' }));
    const response = await open(server.url).get({ url: `${server.url}/fedramp/scn` });
    expect([response.status, response.attempts, server.requests.length]).toEqual([404, 1, 1]);
  });

  it('retries a reset connection, and resolves the answer of the next attempt', async () => {
    const server = await stub((_req, res, n) => (n === 0 ? res.destroy() : json(res, 200, {})));
    const response = await open(server.url).get({ url: `${server.url}/fedramp/ocr` });
    expect([response.status, response.attempts]).toEqual([200, 2]);
  });
});

describe('HttpsTrustCenterClient: time-out, size limit, unreachable', () => {
  const quick = { ...SETTINGS, timeoutMs: 300, retries: 1 };

  it("times out a server that does not answer, and one whose body does not end, from connecting to the last byte: 'timeout' after the retries", async () => {
    const silent = await stub(() => undefined);
    const url = `${silent.url}/fedramp/vdr`;
    expect(await failure(open(silent.url, { kind: 'none' }, { ca: pki.ca.cert }, quick).get({ url }))).toEqual({
      kind: 'timeout',
      message: `${url}: no complete answer within 300 ms after 2 attempts; agency.pull.timeout_ms sets how long svc waits`,
      attempts: 2,
    });
    const trickle = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
    });
    const slow = `${trickle.url}/fedramp/vdr`;
    expect(await failure(open(trickle.url, { kind: 'none' }, { ca: pki.ca.cert }, { ...quick, retries: 0 }).get({ url: slow }))).toEqual({
      kind: 'timeout',
      message: `${slow}: no complete answer within 300 ms; agency.pull.timeout_ms sets how long svc waits`,
      attempts: 1,
    });
  });

  it("refuses a body over the limit, announced or streamed, without retrying: 'too-large'", async () => {
    const server = await stub((req, res) => {
      if (req.url === '/announced') return json(res, 200, { pad: 'x'.repeat(2000) });
      if (req.url === '/exact') return json(res, 200, { pad: 'x'.repeat(1024 - 10) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('x'.repeat(600));
      setTimeout(() => res.end('x'.repeat(600)), 20);
    });
    const session = open(server.url);
    expect(await failure(session.get({ url: `${server.url}/announced` }))).toEqual({
      kind: 'too-large',
      message: `${server.url}/announced: the trust center announces 2010 bytes, over the limit of 1024; agency.pull.max_document_bytes sets the largest document accepted`,
      attempts: 1,
    });
    expect(await failure(session.get({ url: `${server.url}/streamed` }))).toEqual({
      kind: 'too-large',
      message: `${server.url}/streamed: the document passed the limit of 1024 bytes before its end; agency.pull.max_document_bytes sets the largest document accepted`,
      attempts: 1,
    });
    expect((await session.get({ url: `${server.url}/exact` })).body.length).toBe(1024);
    expect(server.requests.map((r) => r.path)).toEqual(['/announced', '/streamed', '/exact']);
  });

  it("reports a closed port as 'unreachable' after the retries, and a closed session without connecting", async () => {
    const port = await closedPort();
    const url = `https://localhost:${port}/fedramp/public`;
    const session = open(`https://localhost:${port}`);
    const refused = await failure(session.get({ url }));
    expect(refused).toMatchObject({ kind: 'unreachable', attempts: 3 });
    expect(refused.message).toMatch(
      new RegExp(
        `^${url.replace(/[.]/g, '\\.')}: unreachable \\(connect ECONNREFUSED (127\\.0\\.0\\.1|::1):${port}\\) after 3 attempts; check the URL and that the trust center is up$`,
      ),
    );
    session.close();
    expect(await failure(session.get({ url }))).toEqual({
      kind: 'unreachable',
      message: `${url}: the session with the trust center is closed; open another`,
      attempts: 0,
    });
  });

  it('leaves credentials in the URL out of its messages', async () => {
    const port = await closedPort();
    const session = open(`http://127.0.0.1:${port}`, { kind: 'none' }, {}, { ...SETTINGS, retries: 0 });
    expect(await failure(session.get({ url: `http://user:hunter2@127.0.0.1:${port}/fedramp/cpo` }))).toEqual({
      kind: 'unreachable',
      message: `http://127.0.0.1:${port}/fedramp/cpo: unreachable (connect ECONNREFUSED 127.0.0.1:${port}); check the URL and that the trust center is up`,
      attempts: 1,
    });
  });
});

/**
 * Negotiate runs in a child process on the built adapter: the kerberos module may be loaded in-process by one jest
 * file only (test/integration/http-auth/negotiate.test.ts says why), and a child reads KRB5_CONFIG and KRB5CCNAME as a
 * user's process does.
 */
describe('HttpsTrustCenterClient: Negotiate against svc-api and a real MIT KDC', () => {
  let kdc: Kdc;
  let api: StartedApi;
  let url: string;
  const script = () => at('negotiate-get.js');

  /** Two GETs of /fedramp/vdr in one session, in a child with the ticket cache given; their outcomes. */
  function getTwice(ccache: string): Promise<unknown[]> {
    return new Promise((resolve, reject) =>
      execFile(
        process.execPath,
        [script(), join(ROOT, 'dist', 'infrastructure', 'agency', 'https-trust-center-client.js'), url],
        { env: { ...process.env, KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5CCNAME: ccache }, timeout: 30_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
      ),
    );
  }

  beforeAll(async () => {
    writeFileSync(
      script(),
      `const { HttpsTrustCenterClient } = require(process.argv[2]);
const base = process.argv[3];
(async () => {
  const session = new HttpsTrustCenterClient().open({ name: 'acme', url: base, auth: { kind: 'negotiate' } }, { timeoutMs: 20000, retries: 0, maxDocumentBytes: 1e8 });
  const out = [];
  for (let i = 0; i < 2; i++) {
    try {
      const r = await session.get({ url: base + '/fedramp/vdr' });
      out.push({ status: r.status, attempts: r.attempts, json: r.headers['content-type'] });
    } catch (e) {
      out.push({ kind: e.kind, message: e.message, attempts: e.attempts });
    }
  }
  session.close();
  process.stdout.write(JSON.stringify(out));
})();
`,
    );
    const home = at('negotiate-home');
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: TRUST_PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
    writeFileSync(at('november.json'), JSON.stringify(prowlerReport('2026-11-02', 'FAIL', ['iam_password_policy_strong'])));
    const recorded = svc(['conmon', 'process', 'november.json'], { cwd: work, env: { SVC_HOME: home } });
    if (recorded.status !== 0) throw new Error(recorded.stderr);
    kdc = await startKdc();
    writeFileSync(
      at('negotiate.json'),
      JSON.stringify({ port: 0, auth: { negotiate: { spn: kdc.spn, keytab: kdc.keytab } }, log: { file: at('negotiate.log') } }),
    );
    api = await startSvcApi(
      ['--config', at('negotiate.json')],
      { SVC_HOME: home, KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5RCACHEDIR: kdc.env.KRB5RCACHEDIR },
      { cwd: work },
    );
    url = api.url.replace('127.0.0.1', 'localhost');
  });
  afterAll(async () => {
    await api?.stop();
    await kdc?.stop();
  });

  it("authenticates as alice with a fresh SPNEGO token per request (the acceptor's replay cache refuses a reused one)", async () => {
    expect(await getTwice(kdc.ccacheFor('alice'))).toEqual([
      { status: 200, attempts: 1, json: expect.stringMatching(/^application\/json/) },
      { status: 200, attempts: 1, json: expect.stringMatching(/^application\/json/) },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const served = readFileSync(at('negotiate.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'request' && l.route === '/fedramp/vdr');
    expect(served.map((l) => [l.status, l.principal, l.auth])).toEqual([
      [200, 'alice@SVC.TEST', 'negotiate'],
      [200, 'alice@SVC.TEST', 'negotiate'],
    ]);
  });

  it("fails with 'auth', saying to run kinit, when the ticket cache does not exist", async () => {
    const failed = {
      kind: 'auth',
      message: `${url}/fedramp/vdr: no Kerberos ticket for HTTP@localhost (No credentials were supplied, or the credentials were unavailable or inaccessible: SPNEGO cannot find mechanisms to negotiate); run kinit as the agency user (or log on to the domain), or check agency.providers[].auth.spn`,
      attempts: 0,
    };
    expect(await getTwice(`FILE:${at('no-such-ccache')}`)).toEqual([failed, failed]);
  });
});
