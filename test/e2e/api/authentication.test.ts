import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homeWithRecordedRun, startSvcApi, type StartedApi } from '../../support/api';
import { startKdc, type Kdc } from '../../support/kdc';
import { createTestPki, type TestPki } from '../../support/pki';

/** curl as a user runs it; -D - puts the response headers before the body. */
function curl(args: string[], env: NodeJS.ProcessEnv = {}): { status: number; headers: string; body: string } {
  const run = spawnSync('curl', ['-s', '-D', '-', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  const [head, ...rest] = run.stdout.split('\r\n\r\n');
  const headers = /^HTTP\/1\.1 401/.test(head) && rest.length > 1 && /^HTTP\//.test(rest[0]) ? rest.shift()! : head;
  return { status: Number(/^HTTP\/[\d.]+ (\d+)/m.exec(headers)?.[1]), headers, body: rest.join('\r\n\r\n') };
}

describe('svc-api authentication end to end (the built binary)', () => {
  let home: { home: string; cleanup(): void };
  let dir: string;
  beforeAll(() => {
    home = homeWithRecordedRun();
    dir = mkdtempSync(join(tmpdir(), 'svc-api-auth-'));
  });
  afterAll(() => {
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('Kerberos through Negotiate, against a real MIT KDC on loopback', () => {
    let kdc: Kdc;
    let api: StartedApi;
    let url: string;
    const log = () => readFileSync(join(dir, 'negotiate.log'), 'utf8');
    beforeAll(async () => {
      kdc = await startKdc();
      const config = join(dir, 'negotiate.json');
      writeFileSync(config, JSON.stringify({ port: 0, auth: { negotiate: { spn: kdc.spn, keytab: kdc.keytab } }, roles: { auditor: [kdc.users.alice] }, log: { file: join(dir, 'negotiate.log') } }));
      api = await startSvcApi(['--config', config], { SVC_HOME: home.home, KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5RCACHEDIR: kdc.env.KRB5RCACHEDIR });
      url = api.url.replace('127.0.0.1', 'localhost');
    });
    afterAll(async () => {
      await api.stop();
      await kdc.stop();
    });

    it('curl --negotiate gets the findings as alice, with the mutual-auth token', () => {
      const res = curl(['--negotiate', '-u', ':', `${url}/auditor/findings?status=FAIL`], { KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5CCNAME: kdc.ccacheFor('alice') });
      expect(res.status).toBe(200);
      expect(res.headers).toMatch(/^www-authenticate: Negotiate [A-Za-z0-9+/=]+$/im);
      expect(JSON.parse(res.body).items.map((f: { ksi_id: string }) => f.ksi_id)).toEqual(['KSI-AC-02', 'KSI-IA-02']);
    });

    it('without a ticket: 401 with WWW-Authenticate: Negotiate', () => {
      const res = curl([`${url}/auditor/evidence`]);
      expect(res.status).toBe(401);
      expect(res.headers).toMatch(/^www-authenticate: Negotiate\r?$/im);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'authentication-required', detail: 'authentication required: negotiate' });
    });

    it('bob has a ticket but not the auditor role: 403', () => {
      const res = curl(['--negotiate', '-u', ':', `${url}/auditor/evidence`], { KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5CCNAME: kdc.ccacheFor('bob') });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).detail).toBe('bob@SVC.TEST does not hold the auditor role; an administrator grants it under roles in the API config');
    });

    it('a forged token is 401, and the access log names principals, never tokens', async () => {
      const res = curl(['-H', 'Authorization: Negotiate YIIBHgYGKwYBBQUCoIIBEjCCAQ6gDTALBgkqhkiG9xIBAgI=', `${url}/auditor/evidence`]);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).code).toMatch(/^negotiate-/);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = log().trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.msg === 'request' && l.status === 200).map((l) => [l.principal, l.auth, l.route])).toEqual([['alice@SVC.TEST', 'negotiate', '/auditor/findings']]);
      expect(log()).not.toContain('YIIBHgYGKwYBBQUCoIIBEjCCAQ6gDTALBgkqhkiG9xIBAgI=');
    });
  });

  describe('mutual TLS with certificates generated for the test', () => {
    let pki: TestPki;
    let api: StartedApi;
    let url: string;
    beforeAll(async () => {
      pki = createTestPki(join(dir, 'pki'));
      const config = join(dir, 'mtls.json');
      writeFileSync(config, JSON.stringify({ port: 0, auth: { mtls: { ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key } }, roles: { auditor: ['alice@SVC.TEST'] }, log: { file: join(dir, 'mtls.log') } }));
      api = await startSvcApi(['--config', config], { SVC_HOME: home.home });
      url = api.url.replace('127.0.0.1', 'localhost');
    });
    afterAll(() => api.stop());

    it('serves HTTPS; the UPN of a verified client certificate is the principal', () => {
      expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const alice = pki.client('alice', { upn: 'alice@SVC.TEST', email: 'alice@example.com' });
      const res = curl(['--cacert', pki.ca.cert, '--cert', alice.cert, '--key', alice.key, `${url}/auditor/evidence?limit=1`]);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).total).toBe(5);
    });

    it('no certificate: /health is open, /auditor is 401; a foreign CA\'s certificate is 401', () => {
      expect(curl(['--cacert', pki.ca.cert, `${url}/health`]).status).toBe(200);
      expect(curl(['--cacert', pki.ca.cert, `${url}/auditor/evidence`]).status).toBe(401);
      const mallory = pki.client('mallory', { upn: 'alice@SVC.TEST', ca: pki.foreignCa });
      const res = curl(['--cacert', pki.ca.cert, '--cert', mallory.cert, '--key', mallory.key, `${url}/auditor/evidence`]);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).code).toBe('client-certificate-refused');
    });

    it('a verified certificate of someone without the role is 403', () => {
      const eve = pki.client('eve', { upn: 'eve@SVC.TEST' });
      expect(curl(['--cacert', pki.ca.cert, '--cert', eve.cert, '--key', eve.key, `${url}/auditor/evidence`]).status).toBe(403);
    });
  });
});
