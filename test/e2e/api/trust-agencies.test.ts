import { execFileSync, spawnSync } from 'node:child_process';
import { createServer as createHttpsServer } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createAuthenticator } from '../../../src/interfaces/http/auth/authenticator';
import { agencyRecognition } from '../../../src/interfaces/http/auth/agency-recognition';
import { tlsServerOptions } from '../../../src/interfaces/http/auth/tls-server-options';
import { readApiConfig } from '../../../src/interfaces/http/config/api-config';
import { readFedrampProfile } from '../../../src/domain/fedramp/profile';
import { buildApi } from '../../../src/interfaces/http/server';
import { capturingLogger, proxyConfig, startSvcApi, type StartedApi } from '../../support/api';
import { authTestApp, call, curl, listen, type CallOptions } from '../../support/auth-test-app';
import { fedrampSchemaErrors, FEDRAMP_SCHEMAS } from '../../support/fedramp-schemas';
import { startKdc, type Kdc } from '../../support/kdc';
import { ISSUER_FORMS } from '../../../src/domain/trust/issuer-reference';
import { certificateGrant, createTestPki, fingerprintOf, issueCa, type Issued, type TestPki } from '../../support/pki';
import { readTrustedAuthorities } from '../../../src/interfaces/http/auth/certificate-chain';
import { ROOT, svc } from '../../support/run-svc';
import { AGENCY_CA_SUBJECT, AGENCY_ISSUER, prowlerReport, TRUST_PROFILE } from '../../support/trust-center';

const PROTECTED = ['cpo', 'vdr', 'avi', 'history', 'scn'] as const;

/** A second CA, the agency's, with a subject of several RDNs and an escaped comma (issued with the openssl CLI). */
function agencyCa(dir: string): Issued {
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'agency-ca.key']);
  run([
    'req',
    '-x509',
    '-new',
    '-key',
    'agency-ca.key',
    '-sha256',
    '-days',
    '2',
    '-subj',
    AGENCY_CA_SUBJECT,
    '-addext',
    'basicConstraints=critical,CA:true',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-out',
    'agency-ca.crt',
  ]);
  const cert = join(dir, 'agency-ca.crt');
  const key = join(dir, 'agency-ca.key');
  return { cert, key, certPem: readFileSync(cert, 'utf8'), keyPem: readFileSync(key, 'utf8') };
}

describe('svc-api trust center: agency principals by Kerberos realm, certificate issuer and configuration', () => {
  let work: string;
  const at = (...parts: string[]) => join(work, ...parts);
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-trust-agencies-'));
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: TRUST_PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
    writeFileSync(at('november.json'), JSON.stringify(prowlerReport('2026-11-02', 'FAIL', ['iam_password_policy_strong'])));
    const r = svc(['conmon', 'process', 'november.json'], { cwd: work, env: { SVC_HOME: at('.svc') } });
    if (r.status !== 0) throw new Error(r.stderr);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  describe("Kerberos through Negotiate against a real MIT KDC: the realm SVC.TEST is the Department of Examples'", () => {
    let kdc: Kdc;
    let api: StartedApi;
    let url: string;
    const negotiate = (user: 'alice' | 'bob', path: string) =>
      curl(['--negotiate', '-u', ':', `${url}${path}`], { ...process.env, KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5CCNAME: kdc.ccacheFor(user) });
    beforeAll(async () => {
      kdc = await startKdc();
      const config = at('negotiate.json');
      // Nobody is named under roles: the realm alone admits alice and bob to the trust center.
      writeFileSync(config, JSON.stringify({ port: 0, auth: { negotiate: { spn: kdc.spn, keytab: kdc.keytab } }, log: { file: at('negotiate.log') } }));
      api = await startSvcApi(
        ['--config', config],
        { SVC_HOME: at('.svc'), KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5RCACHEDIR: kdc.env.KRB5RCACHEDIR },
        { cwd: work },
      );
      url = api.url.replace('127.0.0.1', 'localhost');
    });
    afterAll(async () => {
      await api.stop();
      await kdc.stop();
    });

    it('alice@SVC.TEST reads every trust-center document as the agency, with no one granting her a role', async () => {
      for (const name of PROTECTED) {
        const res = await negotiate('alice', `/fedramp/${name}`);
        expect([name, res.status]).toEqual([name, 200]);
        if (name !== 'scn') expect([name, fedrampSchemaErrors(name, res.body)]).toEqual([name, []]);
      }
      expect((await negotiate('bob', '/fedramp/vdr')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = readFileSync(at('negotiate.log'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'request' && l.status === 200);
      expect(lines.map((l) => [l.principal, l.auth, l.agency, l.route]).at(-1)).toEqual([
        'bob@SVC.TEST',
        'negotiate',
        'Department of Examples',
        '/fedramp/vdr',
      ]);
    });

    it("the agency role is not the auditor's: /auditor/* stays 403; without a ticket the trust center is 401 and /fedramp/public 200", async () => {
      const auditor = await negotiate('alice', '/auditor/evidence');
      expect([auditor.status, (auditor.body as { detail: string }).detail]).toEqual([
        403,
        'alice@SVC.TEST does not hold the auditor role; an administrator grants it under roles in the API config',
      ]);
      const anonymous = await curl([`${url}/fedramp/cpo`]);
      expect([anonymous.status, anonymous.headers['www-authenticate']]).toEqual([401, 'Negotiate']);
      const open = await curl([`${url}/fedramp/public`]);
      expect(open.status).toBe(200);
      expect((open.body as { trustCenter: { authentication: string[] } }).trustCenter.authentication).toEqual(['Kerberos (HTTP Negotiate, RFC 4559)']);
    });
  });

  describe("mutual TLS: a certificate issued by the agency's CA makes its holder the agency's, and nothing else", () => {
    let pki: TestPki;
    let agency: Issued;
    let samplesCa: Issued;
    let port: number;
    let close: () => Promise<void>;
    let log: ReturnType<typeof capturingLogger>;
    let mtlsDir: string;
    const tls = (client?: Issued, chain: Issued[] = []): CallOptions => ({
      tls: { ca: pki.ca.certPem, ...(client ? { key: client.keyPem, cert: client.certPem + chain.map((c) => c.certPem).join('') } : {}) },
    });
    const get = (path: string, options: CallOptions) => call('127.0.0.1', port, path, options);
    /** The agency the request log says the last request to `path` was recognized as (null: none). */
    const recognizedAs = async (path: string) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return log.lines.filter((l) => l.msg === 'request' && l.path === path).at(-1)?.agency;
    };

    beforeAll(async () => {
      pki = createTestPki(at('pki'));
      agency = agencyCa(pki.dir);
      samplesCa = issueCa(pki.dir, 'samples-ca', '/C=US/O=Agency of Samples/CN=Samples Root CA');
      // The API trusts the provider's CA and both agencies' CAs. The Department of Examples names its CA by its exact
      // subject (resolved in that bundle), the Agency of Samples by its certificate's fingerprint.
      writeFileSync(at('pki', 'clients.pem'), pki.ca.certPem + agency.certPem + samplesCa.certPem);
      mtlsDir = mkdtempSync(join(work, 'mtls-'));
      const agencies = [TRUST_PROFILE.agencies[0], { name: 'Agency of Samples', domains: ['samples.gov'], issuers: [fingerprintOf(samplesCa)] }];
      writeFileSync(join(mtlsDir, 'svc.config.json'), JSON.stringify({ fedramp: { ...TRUST_PROFILE, agencies }, fedramp_schemas: FEDRAMP_SCHEMAS }));
      const mtls = { ca: at('pki', 'clients.pem'), cert: pki.server.cert, key: pki.server.key };
      // A careless grant too: every certificate of the Agency of Samples' CA as an auditor. An agency's CA still mints
      // only that agency's principals.
      const roles = {
        auditor: [certificateGrant('alice@SVC.TEST', pki.ca), certificateGrant('*', samplesCa)],
        operator: [certificateGrant('bob@SVC.TEST', pki.ca)],
      };
      const config = readApiConfig({ port: 0, auth: { mtls }, roles }, 'api.json', work);
      log = capturingLogger();
      const api = buildApi(config, { env: { ...process.env, SVC_HOME: at('.svc'), SVC_STORE: '', SVC_CONFIG: '' }, cwd: mtlsDir, logger: log.logger });
      ({ port, close } = await listen(createHttpsServer(tlsServerOptions(config.auth.mtls!), api.handler)));
    });
    afterAll(() => close());

    it("the principal carries the certificate's issuer and subject as RFC 4514 strings, most specific RDN first, and the CAs of its verified chain", async () => {
      const config = readApiConfig({ port: 0, auth: { mtls: { ca: at('pki', 'clients.pem'), cert: pki.server.cert, key: pki.server.key } } }, 'api.json', work);
      const trusted = { file: config.auth.mtls!.ca, authorities: readTrustedAuthorities(config.auth.mtls!.ca) };
      const authenticator = createAuthenticator(config.auth, {
        recognize: agencyRecognition(
          {
            file: at('svc.config.json'),
            profile: readFedrampProfile(TRUST_PROFILE, (path, problem) => {
              throw new Error(`${path}: ${problem}`);
            }),
          },
          trusted,
        ),
      });
      const server = await listen(createHttpsServer(tlsServerOptions(config.auth.mtls!), authTestApp(authenticator)));
      try {
        const erin = pki.client('erin', { upn: 'erin@examples.gov', ca: agency });
        const eve = pki.client('eve', { upn: 'eve@SVC.TEST' });
        expect((await call('127.0.0.1', server.port, '/whoami', tls(erin))).body).toEqual({
          name: 'erin@examples.gov',
          method: 'mtls',
          issuer: AGENCY_ISSUER,
          subject: 'CN=erin',
          authorities: [AGENCY_ISSUER],
          agency: 'Department of Examples',
        });
        expect((await call('127.0.0.1', server.port, '/whoami', tls(eve))).body).toEqual({
          name: 'eve@SVC.TEST',
          method: 'mtls',
          issuer: 'CN=svc test CA',
          subject: 'CN=eve',
          authorities: ['CN=svc test CA'],
        });
      } finally {
        await server.close();
      }
    });

    it("every trust-center route: 200 for the agency's certificate and the auditor, 403 for a certificate of no role and for the operator, 401 for none", async () => {
      const erin = pki.client('erin', { upn: 'erin@examples.gov', ca: agency });
      const alice = pki.client('alice', { upn: 'alice@SVC.TEST' });
      const eve = pki.client('eve', { upn: 'eve@SVC.TEST' });
      const bob = pki.client('bob', { upn: 'bob@SVC.TEST' });
      for (const name of PROTECTED) {
        const statuses = [];
        for (const who of [erin, alice, eve, bob, undefined]) statuses.push((await get(`/fedramp/${name}`, tls(who))).status);
        expect([name, statuses]).toEqual([name, [200, 200, 403, 403, 401]]);
      }
      expect((await get('/fedramp/ocr', tls(erin))).status).toBe(404);
      expect((await get('/fedramp/public', tls())).status).toBe(200);
      expect((await get('/auditor/evidence', tls(erin))).status).toBe(403);
      expect((await get('/auditor/evidence', tls(alice))).status).toBe(200);
      const line = log.lines.filter((l) => l.msg === 'request' && l.route === '/fedramp/cpo' && l.status === 200)[0];
      expect([line.principal, line.auth, line.agency]).toEqual(['erin@examples.gov', 'mtls', 'Department of Examples']);
    });

    it("an agency's CA cannot mint the auditor or the operator: its certificates with their UPNs are that agency's principals, 403 on /auditor and the operator's routes", async () => {
      const fakeAlice = pki.client('alice-from-examples', { upn: 'alice@SVC.TEST', ca: agency });
      const fakeBob = pki.client('bob-from-samples', { upn: 'bob@SVC.TEST', ca: samplesCa });
      const anySamples = pki.client('sam', { upn: 'sam@samples.gov', ca: samplesCa });
      expect((await get('/auditor/evidence', tls(fakeAlice))).status).toBe(403);
      expect(await recognizedAs('/auditor/evidence')).toBe('Department of Examples');
      expect((await get('/auditor/evidence', tls(fakeBob))).status).toBe(403);
      expect((await get('/auditor/evidence', tls(anySamples))).status).toBe(403); // the careless auditor grant of the Samples CA
      expect((await get('/fedramp/access', tls(anySamples))).status).toBe(200);
      const operatorOnly = await get('/orgpath/assignments', tls(fakeBob));
      expect(operatorOnly.status).toBe(403);
      // The same UPN from the provider's CA is the auditor.
      expect((await get('/auditor/evidence', tls(pki.client('alice', { upn: 'alice@SVC.TEST' })))).status).toBe(200);
    });

    it.each([
      ['its exact subject', AGENCY_CA_SUBJECT],
      ['its subject in lower case', AGENCY_CA_SUBJECT.toLowerCase()],
      ['its subject in upper case', AGENCY_CA_SUBJECT.toUpperCase()],
      ['its RDNs in the other order', `/${AGENCY_CA_SUBJECT.split('/').filter(Boolean).reverse().join('/')}`],
      ['its common name with two spaces', AGENCY_CA_SUBJECT.replace('Examples Issuing CA', 'Examples  Issuing CA')],
    ])(
      "a sub-CA the Agency of Samples' CA minted with the Department of Examples' CA's name (%s) issues the Agency of Samples' principals, never the Department's",
      async (_how, subj) => {
        const impostor = issueCa(pki.dir, `impostor-${subj.length}-${subj.charCodeAt(5)}`, subj, samplesCa);
        const mallory = pki.client(`mallory-${impostor.cert.length}`, { upn: 'mallory@examples.gov', ca: impostor });
        expect((await get('/fedramp/cpo', tls(mallory, [impostor]))).status).toBe(200);
        expect(await recognizedAs('/fedramp/cpo')).toBe('Agency of Samples');
      },
    );

    it('a certificate whose chain the client pads with a CA certificate that did not sign it is refused: only links that verify count', async () => {
      const erin = pki.client('erin-chain', { upn: 'erin@examples.gov', ca: agency });
      // erin's certificate followed by the Samples CA's: the chain node builds still ends at the Department's CA.
      expect((await get('/fedramp/cpo', tls(erin, [samplesCa]))).status).toBe(200);
      expect(await recognizedAs('/fedramp/cpo')).toBe('Department of Examples');
    });
  });

  describe('configuration', () => {
    const profileWith = (agencies: unknown[]) => {
      const dir = mkdtempSync(join(work, 'config-'));
      writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: { ...TRUST_PROFILE, agencies } }));
      return dir;
    };
    const build = (dir: string) => () =>
      buildApi(proxyConfig(), { env: { ...process.env, SVC_HOME: at('.svc'), SVC_STORE: '', SVC_CONFIG: '' }, cwd: dir, logger: capturingLogger().logger });

    it.each([
      [
        [{ name: 'A', issuers: ['CN=Agency CA;O=A'] }],
        `fedramp.agencies[0].issuers[0]: "CN=Agency CA;O=A" is not an issuer (unescaped ; in a value; write \\; at character 13); write ${ISSUER_FORMS}`,
      ],
      [
        [{ name: 'A', issuers: ['XX=Agency CA'] }],
        'fedramp.agencies[0].issuers[0]: "XX=Agency CA" is not an issuer (unknown attribute type XX (known: CN, L, ST, O, OU, C, STREET, DC, UID, serialNumber, SN, GN, title, organizationIdentifier, emailAddress, or a dotted OID) at character 3)',
      ],
      [[{ name: 'A', issuers: ['AB:CD:EF'] }], 'fedramp.agencies[0].issuers[0]: "AB:CD:EF" is not an issuer (a fingerprint is the 32 hex pairs of a SHA-256)'],
      [
        [{ name: 'A', realms: ['AGENCY GOV'] }],
        'fedramp.agencies[0].realms[0]: "AGENCY GOV" is not a Kerberos realm; write the realm as the agency\'s principals end, e.g. "AGENCY.GOV" for alice@AGENCY.GOV',
      ],
      [
        [{ name: 'A', domains: ['agency.gov/'] }],
        'fedramp.agencies[0].domains[0]: "agency.gov/" is not a domain; write the DNS domain of user@agency.gov or the NetBIOS domain of AGENCY\\user, e.g. "agency.gov" or "AGENCY"',
      ],
      [
        [
          { name: 'A', realms: ['AGENCY.GOV'] },
          { name: 'B', realms: ['agency.gov'] },
        ],
        'fedramp.agencies[1].realms[0]: "agency.gov" is also fedramp.agencies[0].realms[0]; a realm, issuer or domain recognizes one agency: keep it under one',
      ],
      [
        [
          { name: 'A', issuers: ['CN=CA,O=A'] },
          { name: 'B', issuers: ['CN = CA, O = A'] },
        ],
        'fedramp.agencies[1].issuers[0]: "CN = CA, O = A" is also fedramp.agencies[0].issuers[0]; a realm, issuer or domain recognizes one agency: keep it under one',
      ],
    ])('a wrong agency pattern stops the start with one line naming svc.config.json and the key (%#)', (agencies, message) => {
      const dir = profileWith(agencies);
      expect(build(dir)).toThrow(`${join(dir, 'svc.config.json')}: ${message}`);
      try {
        build(dir)();
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
      }
    });

    it('svc-api exits 3 with that line', () => {
      const dir = profileWith([{ name: 'A', issuers: ['not a name'] }]);
      writeFileSync(join(dir, 'api.json'), JSON.stringify({ port: 0 }));
      const api = spawnSync(process.execPath, [join(ROOT, 'bin', 'svc-api.js'), '--config', join(dir, 'api.json')], {
        cwd: dir,
        env: { ...process.env, SVC_HOME: at('.svc'), SVC_CONFIG: '' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(api.stderr).toBe(
        `Error: ${join(dir, 'svc.config.json')}: fedramp.agencies[0].issuers[0]: "not a name" is not an issuer (unknown attribute type not (known: CN, L, ST, O, OU, C, STREET, DC, UID, serialNumber, SN, GN, title, organizationIdentifier, emailAddress, or a dotted OID) at character 4); write ${ISSUER_FORMS}; see docs/api.md (agency access)\n`,
      );
      expect(api.status).toBe(3);
    });

    it('roles.agency names principals too; an unknown role names the three', () => {
      expect(readApiConfig({ roles: { agency: ['frank@partner.gov'] } }, 'api.json', work).roles).toEqual({
        auditor: [],
        operator: [],
        agency: [{ name: 'frank@partner.gov', methods: ['negotiate', 'proxy'] }],
      });
      expect(() => readApiConfig({ roles: { admin: [] } }, 'api.json', work)).toThrow('api.json: roles.admin: unknown role; use auditor, operator or agency');
    });

    it('a profile the public information cannot be built from is a 500 that names nothing of the server to anyone, and the log says what is missing', async () => {
      const dir = mkdtempSync(join(work, 'config-'));
      writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: { type: '20x', class: 'B' } }));
      const log = capturingLogger();
      const api = buildApi(proxyConfig(), { env: { ...process.env, SVC_HOME: at('.svc'), SVC_STORE: '', SVC_CONFIG: '' }, cwd: dir, logger: log.logger });
      const open = await request(api.handler).get('/fedramp/public');
      expect(open.status).toBe(500);
      expect(open.body).toMatchObject({
        code: 'trust-center-not-configured',
        detail: "the trust center cannot build its public information from the offering's profile yet; the server log names what is missing",
      });
      expect(log.lines.find((l) => l.msg === 'trust center not configured')).toMatchObject({
        err: { code: 'invalid-config', message: expect.stringContaining(`${join(dir, 'svc.config.json')}: fedramp.fedramp_id: missing;`) },
      });
      const cpo = await request(api.handler).get('/fedramp/cpo').set('X-Forwarded-User', 'alice@SVC.TEST');
      expect([cpo.status, cpo.body.code]).toEqual([500, 'invalid-config']);
      // The auditor reads where the file is as [server]; the log keeps the path.
      expect(cpo.body.detail).toMatch(/^\[server\]\/svc\.config\.json: fedramp\.fedramp_id: missing; svc trust center \(svc-api\) needs it: /);
      expect(log.lines.find((l) => l.msg === 'problem detail sent without server paths')).toMatchObject({
        code: 'invalid-config',
        detail: expect.stringMatching(new RegExp(`^${join(dir, 'svc.config.json').replace(/[.]/g, '\\.')}: fedramp`)),
      });
    });
  });
});
