import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { curl } from '../../support/auth-test-app';
import { openBrowser } from '../../support/browser';
import { FEDRAMP_SCHEMAS } from '../../support/fedramp-schemas';
import { startKdc, type Kdc } from '../../support/kdc';
import { startSvcApi, type StartedApi } from '../../support/api';
import { ROOT, svc } from '../../support/run-svc';
import { prowlerReport, TRUST_PROFILE } from '../../support/trust-center';

/*
 * Issue 32, against the built svc-api binary over a real socket: a name the KDC issues but svc-api cannot keep is
 * refused at authentication, alone (a real MIT KDC); the public JSON answers cross-origin reads, the protected
 * routes never do (curl, and a page of another origin in headless Chromium).
 */

/** Every file under `dir`, read as text. */
function everyFile(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'))
    .join('\n');
}

describe('svc-api trust center security (the built binary)', () => {
  let work: string;
  const at = (...parts: string[]) => join(work, ...parts);
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-trust-security-'));
    // SVC.TEST is the provider's realm here: the agencies are recognized by their domains only.
    const agencies = [
      { name: 'Department of Examples', domains: ['examples.gov'] },
      { name: 'Agency of Samples', domains: ['samples.gov'] },
    ];
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: { ...TRUST_PROFILE, agencies }, fedramp_schemas: FEDRAMP_SCHEMAS }));
    writeFileSync(at('november.json'), JSON.stringify(prowlerReport('2026-11-02', 'FAIL', ['iam_password_policy_strong'])));
    const r = svc(['conmon', 'process', 'november.json'], { cwd: work, env: { SVC_HOME: at('.svc') } });
    if (r.status !== 0) throw new Error(r.stderr);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  describe('Kerberos names against a real MIT KDC (CDS-TRC-ACL)', () => {
    let kdc: Kdc;
    let api: StartedApi;
    let url: string;
    const LONG = `l${'o'.repeat(596)}ng`;
    let longCache: string;
    const negotiate = (ccache: string, path: string) =>
      curl(['--negotiate', '-u', ':', `${url}${path}`], { ...process.env, KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5CCNAME: ccache });

    beforeAll(async () => {
      kdc = await startKdc();
      longCache = await kdc.addUser(LONG);
      const config = at('negotiate.json');
      writeFileSync(
        config,
        JSON.stringify({
          port: 0,
          auth: { negotiate: { spn: kdc.spn, keytab: kdc.keytab } },
          roles: { auditor: ['alice@SVC.TEST'] },
          log: { file: at('negotiate.log') },
        }),
      );
      api = await startSvcApi(
        ['--config', config],
        { SVC_HOME: at('.svc'), KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5RCACHEDIR: kdc.env.KRB5RCACHEDIR },
        { cwd: work },
      );
      url = api.url.replace('127.0.0.1', 'localhost');
    }, 60_000);
    afterAll(async () => {
      await api.stop();
      await kdc.stop();
    });

    it('a 600-character principal the KDC issued is refused at authentication (401 invalid-principal-name), and every request of another user beside it is logged', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => negotiate(i % 5 === 4 ? longCache : kdc.ccacheFor('alice'), '/fedramp/cpo')));
      const statuses = answers.map((a) => a.status);
      expect(statuses).toEqual(Array.from({ length: 20 }, (_, i) => (i % 5 === 4 ? 401 : 200)));
      expect(answers[4].body).toMatchObject({
        code: 'invalid-principal-name',
        detail:
          'the Kerberos principal name is not a usable user name (it is 608 characters long, more than 256); ask the Kerberos administrator for a principal svc-api can name',
      });
      const access = await negotiate(kdc.ccacheFor('alice'), '/fedramp/access');
      expect(access.status).toBe(200);
      const summaries = (access.body as { summaries: { principal: string; document: string; served: number; denied: number }[] }).summaries;
      expect(summaries.filter((s) => s.document === 'cpo').map((s) => [s.principal, s.served, s.denied])).toEqual([['alice@SVC.TEST', 16, 0]]);
      expect(everyFile(at('.svc', 'store')).includes('oooooooooooooooooooooooooooooooooooooooo')).toBe(false);
      const log = readFileSync(at('negotiate.log'), 'utf8');
      expect(log.includes('oooooooooooooooooooooooooooooooooooooooo')).toBe(false);
      expect(log.split('\n').filter((l) => l.includes('"credential refused"') && l.includes('invalid-principal-name'))).toHaveLength(4);
    });

    it('a denied request whose client resets the connection before the answer is still logged: a denial is logged when it is decided', async () => {
      // bob has a ticket and no role. Each request is sent with a fresh Negotiate token and the connection reset at
      // once: the server accepts the token (a GSS-API step off the event loop), decides 403, and has no one to answer.
      const { port } = new URL(url);
      // A token of bob's from the kerberos module's client side, in a process of its own (jest's process.env is not the
      // C library's environment).
      const tokenOfBob = () =>
        execFileSync(
          process.execPath,
          ['-e', "require('kerberos').initializeClient(process.argv[1]).then((c) => c.step('')).then((t) => process.stdout.write(t))", kdc.spn],
          {
            cwd: ROOT,
            env: { ...process.env, KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5CCNAME: kdc.ccacheFor('bob') },
            encoding: 'utf8',
          },
        );
      for (let i = 0; i < 3; i++) {
        const token = tokenOfBob();
        await new Promise<void>((resolve, reject) => {
          const socket = connect(Number(port), '127.0.0.1', () => {
            socket.write(`GET /fedramp/vdr HTTP/1.1\r\nHost: localhost\r\nAuthorization: Negotiate ${token}\r\n\r\n`, () => {
              socket.resetAndDestroy();
              resolve();
            });
          });
          socket.on('error', reject);
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const access = await negotiate(kdc.ccacheFor('alice'), '/fedramp/access');
      const summaries = (access.body as { summaries: { principal: string; document: string; served: number; denied: number }[] }).summaries;
      expect(summaries.filter((s) => s.principal === 'bob@SVC.TEST').map((s) => [s.document, s.served, s.denied])).toEqual([['vdr', 0, 3]]);
    });
  });

  describe('cross-origin reads of the public JSON (FRC-CSO-JSN, rules 2026.10.05.01)', () => {
    let api: StartedApi;
    let other: Server;
    let otherOrigin: string;
    beforeAll(async () => {
      const config = at('proxy.json');
      writeFileSync(
        config,
        JSON.stringify({ port: 0, auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } }, roles: { auditor: ['alice@SVC.TEST'] } }),
      );
      api = await startSvcApi(['--config', config], { SVC_HOME: at('.svc') }, { cwd: work });
      // A web application of another origin, as FedRAMP's schema validator or an agency's GRC tool is.
      other = createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>GRC</title>');
      });
      await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
      otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await api.stop();
      await new Promise((done) => other.close(done));
    });

    it('GET /fedramp/public: Access-Control-Allow-Origin *, no credentials, application/json, nosniff, cross-origin resource policy', async () => {
      const res = await curl(['-H', `Origin: ${otherOrigin}`, `${api.url}/fedramp/public`]);
      expect(res.status).toBe(200);
      expect({
        origin: res.headers['access-control-allow-origin'],
        credentials: res.headers['access-control-allow-credentials'],
        expose: res.headers['access-control-expose-headers'],
        type: res.headers['content-type'],
        nosniff: res.headers['x-content-type-options'],
        corp: res.headers['cross-origin-resource-policy'],
      }).toEqual({
        origin: '*',
        credentials: undefined,
        expose: 'ETag, Content-Digest, Content-Length, X-Request-Id',
        type: 'application/json',
        nosniff: 'nosniff',
        corp: 'cross-origin',
      });
    });

    it('OPTIONS /fedramp/public is the preflight: 204 with the methods and headers allowed, no credentials', async () => {
      const res = await curl([
        '-X',
        'OPTIONS',
        '-H',
        `Origin: ${otherOrigin}`,
        '-H',
        'Access-Control-Request-Method: GET',
        '-H',
        'Access-Control-Request-Headers: if-none-match',
        `${api.url}/fedramp/public`,
      ]);
      expect(res.status).toBe(204);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': 'Accept, Accept-Language, Content-Language, If-None-Match, If-Modified-Since, Cache-Control, Pragma, X-Request-Id',
        'access-control-max-age': '86400',
      });
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it.each(['cpo', 'sdr', 'ocr', 'incidents', 'access', 'snapshots', `evidence/${'a'.repeat(64)}`])(
      '/fedramp/%s sends no CORS header, to a preflight (405) or a read, with or without credentials',
      async (name) => {
        const preflight = await curl([
          '-X',
          'OPTIONS',
          '-H',
          `Origin: ${otherOrigin}`,
          '-H',
          'Access-Control-Request-Method: GET',
          `${api.url}/fedramp/${name}`,
        ]);
        expect(preflight.status).toBe(405);
        const anonymous = await curl(['-H', `Origin: ${otherOrigin}`, `${api.url}/fedramp/${name}`]);
        const auditor = await curl(['-H', `Origin: ${otherOrigin}`, '-H', 'X-Forwarded-User: alice@SVC.TEST', `${api.url}/fedramp/${name}`]);
        for (const res of [preflight, anonymous, auditor]) {
          expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
          expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
        }
        expect(anonymous.status).toBe(401);
      },
    );

    it('a page of another origin in headless Chromium reads the public JSON with fetch, and cannot read a protected route', async () => {
      const browser = await openBrowser();
      try {
        const page = await (await browser.newContext()).newPage();
        await page.goto(otherOrigin);
        const results = await page.evaluate(async (base) => {
          const read = async (path: string) => {
            try {
              const res = await fetch(`${base}${path}`, { headers: { 'If-None-Match': '"x"' } });
              return {
                status: res.status,
                etag: res.headers.get('ETag') !== null,
                fedRampPackageId: ((await res.json()) as { serviceIdentification?: { fedRampPackageId?: string } }).serviceIdentification?.fedRampPackageId,
              };
            } catch (error) {
              return { error: (error as Error).name };
            }
          };
          return { public: await read('/fedramp/public'), cpo: await read('/fedramp/cpo') };
        }, api.url);
        expect(results).toEqual({ public: { status: 200, etag: true, fedRampPackageId: TRUST_PROFILE.fedramp_id }, cpo: { error: 'TypeError' } });
      } finally {
        await browser.close();
      }
    });
  });
});
