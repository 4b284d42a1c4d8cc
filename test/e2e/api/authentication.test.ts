import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homeWithRecordedRun, startSvcApi, type StartedApi } from '../../support/api';
import { curl } from '../../support/auth-test-app';
import { startKdc, type Kdc } from '../../support/kdc';
import { certificateGrant, createTestPki, type TestPki } from '../../support/pki';

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
      writeFileSync(
        config,
        JSON.stringify({
          port: 0,
          auth: { negotiate: { spn: kdc.spn, keytab: kdc.keytab } },
          roles: { auditor: [kdc.users.alice] },
          log: { file: join(dir, 'negotiate.log') },
        }),
      );
      api = await startSvcApi(['--config', config], { SVC_HOME: home.home, KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5RCACHEDIR: kdc.env.KRB5RCACHEDIR });
      url = api.url.replace('127.0.0.1', 'localhost');
    });
    afterAll(async () => {
      await api.stop();
      await kdc.stop();
    });

    it('curl --negotiate gets the findings as alice, with the mutual-auth token', async () => {
      const res = await curl(['--negotiate', '-u', ':', `${url}/auditor/findings?status=FAIL`], {
        ...process.env,
        KRB5_CONFIG: kdc.env.KRB5_CONFIG,
        KRB5CCNAME: kdc.ccacheFor('alice'),
      });
      expect(res.status).toBe(200);
      expect(res.headers['www-authenticate']).toMatch(/^Negotiate [A-Za-z0-9+/=]+$/);
      expect((res.body as { items: { ksi_id: string }[] }).items.map((f: { ksi_id: string }) => f.ksi_id)).toEqual(['KSI-AC-02', 'KSI-IA-02']);
    });

    it('without a ticket: 401 with WWW-Authenticate: Negotiate', async () => {
      const res = await curl([`${url}/auditor/evidence`]);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Negotiate');
      expect(res.body as Record<string, any>).toMatchObject({ code: 'authentication-required', detail: 'authentication required: negotiate' });
    });

    it('bob has a ticket but not the auditor role: 403', async () => {
      const res = await curl(['--negotiate', '-u', ':', `${url}/auditor/evidence`], {
        ...process.env,
        KRB5_CONFIG: kdc.env.KRB5_CONFIG,
        KRB5CCNAME: kdc.ccacheFor('bob'),
      });
      expect(res.status).toBe(403);
      expect((res.body as Record<string, any>).detail).toBe(
        'bob@SVC.TEST does not hold the auditor role; an administrator grants it under roles in the API config',
      );
    });

    it('a forged token is 401, and the access log names principals, never tokens', async () => {
      const res = await curl(['-H', 'Authorization: Negotiate YIIBHgYGKwYBBQUCoIIBEjCCAQ6gDTALBgkqhkiG9xIBAgI=', `${url}/auditor/evidence`]);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Negotiate');
      expect((res.body as Record<string, any>).code).toBe('negotiate-failed');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = log()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.msg === 'request' && l.status === 200).map((l) => [l.principal, l.auth, l.route])).toEqual([
        ['alice@SVC.TEST', 'negotiate', '/auditor/findings'],
      ]);
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
      writeFileSync(
        config,
        JSON.stringify({
          port: 0,
          auth: { mtls: { ca: pki.ca.cert, cert: pki.server.cert, key: pki.server.key } },
          roles: { auditor: [certificateGrant('alice@SVC.TEST', pki.ca)] },
          log: { file: join(dir, 'mtls.log') },
        }),
      );
      api = await startSvcApi(['--config', config], { SVC_HOME: home.home });
      url = api.url.replace('127.0.0.1', 'localhost');
    });
    afterAll(() => api.stop());

    it('serves HTTPS; the UPN of a verified client certificate is the principal', async () => {
      expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const alice = pki.client('alice', { upn: 'alice@SVC.TEST', email: 'alice@example.com' });
      const res = await curl(['--cacert', pki.ca.cert, '--cert', alice.cert, '--key', alice.key, `${url}/auditor/evidence?limit=1`]);
      expect(res.status).toBe(200);
      expect((res.body as Record<string, any>).total).toBe(5);
    });

    it("no certificate: /health is open, /auditor is 401; a foreign CA's certificate is 401", async () => {
      expect((await curl(['--cacert', pki.ca.cert, `${url}/health`])).status).toBe(200);
      expect((await curl(['--cacert', pki.ca.cert, `${url}/auditor/evidence`])).status).toBe(401);
      const mallory = pki.client('mallory', { upn: 'alice@SVC.TEST', ca: pki.foreignCa });
      const res = await curl(['--cacert', pki.ca.cert, '--cert', mallory.cert, '--key', mallory.key, `${url}/auditor/evidence`]);
      expect(res.status).toBe(401);
      expect((res.body as Record<string, any>).code).toBe('client-certificate-refused');
    });

    it('a verified certificate of someone without the role is 403', async () => {
      const eve = pki.client('eve', { upn: 'eve@SVC.TEST' });
      expect((await curl(['--cacert', pki.ca.cert, '--cert', eve.cert, '--key', eve.key, `${url}/auditor/evidence`])).status).toBe(403);
    });
  });
});
