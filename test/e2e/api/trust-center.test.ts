import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { buildApi } from '../../../src/interfaces/http/server';
import { capturingLogger, openApiChecker, proxyConfig } from '../../support/api';
import { openBrowser } from '../../support/browser';
import { fedrampSchemaErrors, FEDRAMP_SCHEMAS } from '../../support/fedramp-schemas';
import { svc } from '../../support/run-svc';
import {
  FIXTURE_IDENTIFICATION,
  initialIncidentArgs,
  prowlerReport as report,
  TRUST_CENTER_REPOSITORY as TRUST_CENTER,
  TRUST_PROFILE as PROFILE,
} from '../../support/trust-center';
import { BuildCpo } from '../../../src/application/fedramp/build-cpo';
import { VulnerabilityRegister } from '../../../src/application/vulnerabilities/vulnerability-register';
import { HtmlTrustPages } from '../../../src/infrastructure/renderers/html/html-trust-pages';
import { FileRunStore } from '../../../src/infrastructure/store/file-run-store';
import { CLOCK } from '../../../src/ports/clock';

const DOCUMENTS = ['cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history', 'scn', 'metrics', 'incidents', 'snapshots'] as const;
const AUDITOR = { 'X-Forwarded-User': 'alice@SVC.TEST' };
const OPERATOR = { 'X-Forwarded-User': 'bob@SVC.TEST' };
/** An agency's user by the proxy-asserted domain, both forms IIS gives. */
const AGENCY_UPN = { 'X-Forwarded-User': 'dana@examples.gov' };
const AGENCY_NETBIOS = { 'X-Forwarded-User': 'EXAMPLES\\erin' };
/** SVC.TEST is an agency's Kerberos realm, not a domain: through the proxy carol holds no role. */
const NOBODY = { 'X-Forwarded-User': 'carol@SVC.TEST' };

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest();
const etagOf = (bytes: Buffer | string) => `"${sha256(bytes).toString('hex')}"`;
const digestOf = (bytes: Buffer | string) => `sha-256=:${sha256(bytes).toString('base64')}:`;
/** Whether the page is wider than the 1280 px window, and the tables that would need their own sideways scrolling. */
const wider = async (page: Page) => ({
  page: (await page.locator('html').evaluate((html) => html.scrollWidth)) > 1280,
  tables: await page.locator('.table-wrap').evaluateAll((wraps) => wraps.filter((w) => w.scrollWidth > w.clientWidth).map((w) => w.querySelector('table')?.id)),
});
/** The trust center rechecks the store at most once a second (StoreState). */
const afterRecheck = () => new Promise((resolve) => setTimeout(resolve, 1100));

/** The server's clock: real time passing from 2026-12-05, moved forward by `jump` (the CLI's writes give --now). */
class MovingClock {
  private readonly started = Date.now();
  private base = Date.parse('2026-12-05T00:00:00Z');
  now(): Date {
    return new Date(this.base + Date.now() - this.started);
  }
  jump(to: string): void {
    this.base = Date.parse(to) - (Date.now() - this.started);
  }
}

describe('svc-api trust center: /fedramp/* documents (supertest, trusted proxy on loopback)', () => {
  let work: string;
  let api: ReturnType<typeof buildApi>;
  let log: ReturnType<typeof capturingLogger>;
  let conforms: ReturnType<typeof openApiChecker>;
  const clock = new MovingClock();
  /** The JSON of each document of the OCR's snapshot as first served. */
  const atOcr: Record<string, string> = {};
  const at = (...parts: string[]) => join(work, ...parts);
  const run = (args: string[]) => {
    const r = svc(args, { cwd: work, env: { SVC_HOME: at('.svc') } });
    if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
    return r;
  };
  const get = (path: string, headers: Record<string, string> = AUDITOR) => request(api.handler).get(path).set(headers);

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-trust-'));
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
    writeFileSync(at('october.json'), JSON.stringify(report('2026-10-01', 'PASS', [])));
    writeFileSync(at('november.json'), JSON.stringify(report('2026-11-02', 'FAIL', ['iam_root_mfa_enabled', 'iam_password_policy_strong'])));
    run(['conmon', 'process', 'october.json']);
    run(['conmon', 'process', 'november.json']);
    run([
      'vuln',
      'evaluate',
      'iam_root_mfa_enabled',
      '--accept',
      '--reason',
      'break-glass account in a vault',
      '--by',
      'ciso',
      '--now',
      '2026-11-03T00:00:00Z',
    ]);
    log = capturingLogger();
    const config = proxyConfig({ roles: { auditor: ['alice@SVC.TEST'], operator: ['bob@SVC.TEST'], agency: ['frank@partner.gov'] } });
    api = buildApi(config, {
      env: { ...process.env, SVC_HOME: at('.svc'), SVC_STORE: '', SVC_SIGNING_KEY: '', SVC_CONFIG: '' },
      cwd: work,
      logger: log.logger,
      overrides: (c) => c.register(CLOCK, { useValue: clock }),
    });
    conforms = openApiChecker(api.openapi);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  describe('before any OCR is recorded', () => {
    it("GET /fedramp/public needs no credentials: the CPO cut to CDS-CSO-PUB, valid against FedRAMP's CPO schema", async () => {
      const res = await request(api.handler).get('/fedramp/public');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(fedrampSchemaErrors('cpo', res.body)).toEqual([]);
      expect(conforms('/fedramp/public', 'get', 200, res.body)).toEqual([]);
      expect(res.body.serviceIdentification).toEqual({ ...FIXTURE_IDENTIFICATION, fedRampPackageId: 'FR2611250001', certificationType: '20x' });
      expect(res.body.serviceProperties).toEqual({
        serviceType: ['SaaS'],
        deploymentModel: 'Public Cloud',
        trustCenter: TRUST_CENTER,
        nextOngoingCertificationReportDate: '2027-02-03',
      });
      expect(res.body.contactInformation.map((c: { contactType: string }) => c.contactType)).toEqual(['Security', 'Sales']);
      expect(res.body).toMatchObject({
        assessor: PROFILE.cpo.assessor,
        certifiedServices: PROFILE.cpo.certifiedServices,
        certificationPackageOverviewUri: PROFILE.package_uri,
      });
      expect(res.body).not.toHaveProperty('metadata');
      expect(res.body.trustCenter).toEqual({
        rule: 'CDS-CSO-PUB',
        certificationClass: 'B',
        lastUpdated: '2026-11-03T00:00:00Z',
        documents: [
          { path: '/fedramp/public', title: 'Public Information (CDS-CSO-PUB)', access: ['anyone'] },
          { path: '/fedramp/cpo', title: 'Certification Package Overview', access: ['agency', 'auditor'] },
          { path: '/fedramp/sdr', title: 'Security Decision Record', access: ['agency', 'auditor'] },
          { path: '/fedramp/ocr', title: 'Ongoing Certification Report', access: ['agency', 'auditor'] },
          { path: '/fedramp/vdr', title: 'Vulnerability Detail Report', access: ['agency', 'auditor'] },
          { path: '/fedramp/avi', title: 'Accepted Vulnerability Info', access: ['agency', 'auditor'] },
          { path: '/fedramp/history', title: 'Historical VER Activity', access: ['agency', 'auditor'] },
          { path: '/fedramp/scn', title: 'Significant Change Notifications', access: ['agency', 'auditor'] },
          { path: '/fedramp/metrics', title: 'Key Security Indicator Metrics (SDR-CSX-KMT)', access: ['agency', 'auditor'] },
          { path: '/fedramp/incidents', title: 'Incident Reports', access: ['agency', 'auditor'] },
          { path: '/fedramp/snapshots', title: 'Snapshots of the Certification Data (CDS-CSO-HAD)', access: ['agency', 'auditor'] },
          { path: '/fedramp/access', title: 'Access to the Certification Data (CDS-TRC-ACL, CDS-TRC-AAI)', access: ['agency', 'auditor', 'operator'] },
          { path: '/fedramp/evidence/{sha256}', title: "The Security Decision Record's Evidence", access: ['agency', 'auditor'] },
        ],
        authentication: ["the provider's sign-in proxy (Windows authentication)"],
        accessInstructions: expect.stringMatching(
          /^Federal agencies get access without a request per user \(CDS-TRC-USH\): .* Authenticate with the provider's sign-in proxy \(Windows authentication\)\. /,
        ),
      });
    });

    it('GET /fedramp/ocr is 404 problem+json saying none is recorded', async () => {
      const res = await get('/fedramp/ocr');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.body).toEqual({
        type: 'urn:svc:problem:no-ocr-recorded',
        code: 'no-ocr-recorded',
        title: 'Not Found',
        status: 404,
        detail: 'no Ongoing Certification Report is recorded yet; the provider records one with svc fedramp ocr --to <period end>',
        instance: '/fedramp/ocr',
        request_id: expect.any(String),
      });
      expect(JSON.stringify(res.body)).not.toMatch(/stack|\.ts:\d/);
    });

    it("the CPO, VDR, AVI and history are what the CLI builds from the same store, and valid against FedRAMP's schemas", async () => {
      const cpo = await get('/fedramp/cpo', AGENCY_UPN);
      expect(cpo.status).toBe(200);
      expect(fedrampSchemaErrors('cpo', cpo.body)).toEqual([]);
      run(['fedramp', 'cpo', '--now', '2026-11-03T00:00:00Z']);
      const written = JSON.parse(readFileSync(at('cpo.json'), 'utf8'));
      expect(cpo.body).toEqual({ ...written, metadata: { ...written.metadata, updateSource: 'svc 0.5.0 trust center (svc-api)' } });
      for (const type of ['vdr', 'avi', 'history'] as const) {
        const res = await get(`/fedramp/${type}`, AGENCY_NETBIOS);
        expect([type, res.status, fedrampSchemaErrors(type, res.body)]).toEqual([type, 200, []]);
        run(['vuln', 'report', '--format', type, '--now', '2026-11-03T00:00:00Z', '--out', `${type}.json`]);
        expect(res.text).toBe(readFileSync(at(`${type}.json`), 'utf8'));
      }
      expect(
        (await get('/fedramp/vdr')).body.vulnerabilities.map((v: { vulnerabilityDescription: string }) => v.vulnerabilityDescription.split(':')[0]),
      ).toEqual(['iam_password_policy_strong']);
      expect((await get('/fedramp/avi')).body.acceptedVulnerabilities).toHaveLength(1);
      expect((await get('/fedramp/scn')).body).toEqual([]);
    });
  });

  describe('the SDR of the latest run', () => {
    it("is the SDR `svc fedramp sdr` builds for the store's latest run, valid against FedRAMP's schema", async () => {
      const res = await get('/fedramp/sdr', AGENCY_UPN);
      expect(res.status).toBe(200);
      expect(fedrampSchemaErrors('sdr', res.body)).toEqual([]);
      run(['fedramp', 'sdr', 'november.json', '--now', '2026-11-03T00:00:00Z', '--out', 'sdr.json']);
      const written = JSON.parse(readFileSync(at('sdr.json'), 'utf8'));
      // The same rules, KSIs and evidence; the metadata names where each came from.
      const { metadata: served, ...servedRest } = res.body;
      const { metadata: cli, ...cliRest } = written;
      expect(servedRest).toEqual(cliRest);
      expect([served.lastUpdated, cli.lastUpdated]).toEqual(['2026-11-03T00:00:00Z', '2026-11-03T00:00:00Z']);
      expect(served.updateSource).toBe('svc trust center (svc-api) november.json (svc 0.5.0)');
    });
  });

  describe('the KSI metrics (SDR-CSX-KMT)', () => {
    it("GET /fedramp/metrics is the SDR's ksiMetrics with the package URI, FedRAMP ID and class, in the route's schema", async () => {
      const [metrics, sdr] = [await get('/fedramp/metrics', AGENCY_UPN), await get('/fedramp/sdr')];
      expect(metrics.status).toBe(200);
      expect(conforms('/fedramp/metrics', 'get', 200, metrics.body)).toEqual([]);
      expect(metrics.body).toEqual({
        certificationPackageOverviewUri: PROFILE.package_uri,
        fedRampPackageId: PROFILE.fedramp_id,
        certificationClass: 'B',
        rule: 'SDR-CSX-KMT',
        asOf: '2026-11-03T00:00:00Z',
        ksiMetrics: sdr.body.ksiMetrics,
      });
      expect(Object.keys(metrics.body.ksiMetrics)).toHaveLength(46);
      // Passed on 2026-10-01, failed on 2026-11-02: only the failure is within the 30 days up to 2026-11-03.
      expect(metrics.body.ksiMetrics['KSI-IAM-APM']).toEqual({
        last30Days: { days: 30, implemented: 0, partially: 0, notImplemented: 1, noEvidence: 29 },
        lastYear: { days: 34, implemented: 1, partially: 0, notImplemented: 1, noEvidence: 32 },
      });
    });
  });

  describe('access (CDS-TRC-USH): role agency by proxy-asserted domain or by name, or auditor', () => {
    it.each(DOCUMENTS)('/fedramp/%s: 401 without credentials, 403 without a role and for operator', async (name) => {
      const anonymous = await request(api.handler).get(`/fedramp/${name}`);
      expect([anonymous.status, anonymous.body.code]).toEqual([401, 'authentication-required']);
      const nobody = await get(`/fedramp/${name}`, NOBODY);
      expect(nobody.status).toBe(403);
      expect(nobody.body.detail).toBe(
        "carol@SVC.TEST does not hold the agency or auditor role; an administrator grants it under roles in the API config, or recognizes the principal's agency by its realm, certificate issuer or domain (fedramp.agencies in svc.config.json)",
      );
      expect((await get(`/fedramp/${name}`, OPERATOR)).status).toBe(403);
    });

    it.each(['cpo', 'sdr', 'vdr', 'avi', 'history', 'scn', 'metrics', 'snapshots'])(
      '/fedramp/%s: 200 for the auditor, an agency user by UPN domain and by NetBIOS domain, and a named agency principal',
      async (name) => {
        const bodies = [];
        for (const who of [AUDITOR, AGENCY_UPN, AGENCY_NETBIOS, { 'X-Forwarded-User': 'frank@partner.gov' }, { 'X-Forwarded-User': 'sam@SAMPLES.GOV' }]) {
          const res = await get(`/fedramp/${name}`, who);
          expect([who['X-Forwarded-User'], res.status]).toEqual([who['X-Forwarded-User'], 200]);
          bodies.push(res.text);
        }
        expect(new Set(bodies).size).toBe(1);
      },
    );

    it('logs the agency a principal was recognized as', async () => {
      await get('/fedramp/cpo', AGENCY_NETBIOS);
      await get('/fedramp/cpo', { 'X-Forwarded-User': 'sam@samples.gov' });
      await get('/fedramp/cpo', { 'X-Forwarded-User': 'frank@partner.gov' });
      const lines = log.lines.filter((l) => l.msg === 'request' && l.route === '/fedramp/cpo').slice(-3);
      expect(lines.map((l) => [l.principal, l.agency, l.status])).toEqual([
        ['EXAMPLES\\erin', 'Department of Examples', 200],
        ['sam@samples.gov', 'Agency of Samples', 200],
        ['frank@partner.gov', null, 200],
      ]);
    });
  });

  describe('access logging (CDS-TRC-ACL)', () => {
    it('logs each request for certification data in the run store: who, which agency, which document, served or denied', async () => {
      const day = (offset: number) => new Date(clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
      const logged = async () => {
        await api.access.flush();
        return new FileRunStore({ dir: at('.svc', 'store') }).accessLog(day(-1), day(1));
      };
      const before = (await logged()).length;
      const served = await get('/fedramp/avi', { 'X-Forwarded-User': 'gail@examples.gov' });
      expect(served.status).toBe(200);
      expect((await get('/fedramp/avi', { 'X-Forwarded-User': 'gail@examples.gov', 'If-None-Match': served.headers.etag })).status).toBe(304);
      expect((await get('/fedramp/avi', OPERATOR)).status).toBe(403);
      expect((await request(api.handler).get('/fedramp/avi')).status).toBe(401);
      const events = (await logged()).slice(before);
      expect(events.map(({ at: _at, ...e }) => e)).toEqual([
        { principal: 'gail@examples.gov', agency: 'Department of Examples', document: 'avi', outcome: 'served', status: 200 },
        { principal: 'gail@examples.gov', agency: 'Department of Examples', document: 'avi', outcome: 'served', status: 304 },
        { principal: 'bob@SVC.TEST', document: 'avi', outcome: 'denied', status: 403 },
      ]);
      expect(events.every((e) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(e.at))).toBe(true);
    });
  });

  describe('representations', () => {
    it.each(['public', 'cpo', 'sdr', 'vdr', 'avi', 'history', 'scn', 'metrics', 'incidents', 'snapshots'])(
      '/fedramp/%s: ETag and Content-Digest of the bytes, 304 on If-None-Match, the same bytes twice',
      async (name) => {
        const first = await get(`/fedramp/${name}`);
        expect(first.status).toBe(200);
        expect(first.headers.etag).toBe(etagOf(first.text));
        expect(first.headers['content-digest']).toBe(digestOf(first.text));
        expect(first.headers.vary).toBe('Accept');
        const second = await get(`/fedramp/${name}`);
        expect(second.text).toBe(first.text);
        expect(second.headers.etag).toBe(first.headers.etag);
        const again = await get(`/fedramp/${name}`).set('If-None-Match', first.headers.etag);
        expect([again.status, again.text]).toEqual([304, '']);
        const html = await get(`/fedramp/${name}`).set('Accept', 'text/html');
        expect(html.status).toBe(200);
        expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(html.headers.etag).toBe(etagOf(html.text));
        expect(html.headers['content-digest']).toBe(digestOf(html.text));
        expect(html.headers.etag).not.toBe(first.headers.etag);
        expect(html.text).toContain(`sha256:${sha256(first.text).toString('hex')}`);
        expect((await get(`/fedramp/${name}`).set('Accept', 'text/html')).text).toBe(html.text);
        expect((await get(`/fedramp/${name}`).set('Accept', 'text/html').set('If-None-Match', html.headers.etag)).status).toBe(304);
        const head = await request(api.handler).head(`/fedramp/${name}`).set(AUDITOR);
        expect([head.status, head.headers.etag, head.headers['content-length'], head.text]).toEqual([
          200,
          first.headers.etag,
          String(Buffer.byteLength(first.text)),
          undefined,
        ]);
      },
    );

    it('builds each representation once per store state, not per request', async () => {
      const all = async () => {
        for (const name of ['public', 'cpo', 'vdr', 'history']) {
          expect((await get(`/fedramp/${name}`)).status).toBe(200);
          expect((await get(`/fedramp/${name}`).set('Accept', 'text/html')).status).toBe(200);
        }
      };
      await all();
      const spies = [
        jest.spyOn(VulnerabilityRegister.prototype, 'judge'),
        jest.spyOn(BuildCpo.prototype, 'execute'),
        jest.spyOn(HtmlTrustPages.prototype, 'page'),
      ];
      try {
        for (let i = 0; i < 5; i++) await all();
        expect(spies.map((s) => s.mock.calls.length)).toEqual([0, 0, 0]);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    });

    it('answers an Accept it cannot meet with 406 problem+json', async () => {
      const res = await get('/fedramp/cpo').set('Accept', 'application/xml');
      expect(res.status).toBe(406);
      expect(res.body).toMatchObject({ code: 'not-acceptable', detail: 'Accept "application/xml": this route answers application/json or text/html' });
    });

    it("an HTML page escapes what the profile says and allows its own script by hash under helmet's CSP", async () => {
      const res = await get('/fedramp/public').set('Accept', 'text/html');
      const policy = res.headers['content-security-policy'];
      const script = /<script>([\s\S]*?)<\/script>/.exec(res.text)![1];
      expect(policy).toBe(
        `default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self' 'sha256-${sha256(script).toString('base64')}';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests`,
      );
      // A 304 keeps the page's policy: a browser revalidating its copy would otherwise take helmet's and block the script.
      const revalidated = await get('/fedramp/public').set('Accept', 'text/html').set('If-None-Match', res.headers.etag);
      expect([revalidated.status, revalidated.headers['content-security-policy']]).toEqual([304, policy]);
      expect(res.text).toContain('<dd>A multi-tenant platform for case management.</dd>');
      expect(res.text).not.toContain('<dd>Pat Primary');
    });
  });

  describe('after store writes', () => {
    let before: Record<string, { json: string; html: string }>;
    const snapshot = async () => {
      const out: Record<string, { json: string; html: string }> = {};
      for (const name of ['public', ...DOCUMENTS])
        out[name] = { json: (await get(`/fedramp/${name}`)).text, html: (await get(`/fedramp/${name}`).set('Accept', 'text/html')).text };
      return out;
    };

    it('an OCR recorded (svc fedramp ocr) is served exactly as written, and the CPO and public information carry its next report date', async () => {
      before = await snapshot();
      run(['fedramp', 'ocr', '--to', '2026-11-30', '--now', '2026-12-01T00:00:00Z']);
      await afterRecheck();
      const ocr = await get('/fedramp/ocr', AGENCY_UPN);
      expect(ocr.status).toBe(200);
      expect(ocr.text).toBe(readFileSync(at('ocr-2026-11-30.json'), 'utf8'));
      expect(fedrampSchemaErrors('ocr', ocr.body)).toEqual([]);
      const after = await snapshot();
      for (const name of ['public', 'cpo', 'vdr', 'avi', 'history']) expect([name, after[name].json === before[name].json]).toEqual([name, false]);
      expect(JSON.parse(after.cpo.json).serviceProperties.nextOngoingCertificationReportDate).toBe('2027-02-28');
      expect(JSON.parse(after.public.json).serviceProperties.nextOngoingCertificationReportDate).toBe('2027-02-28');
      for (const name of ['public', 'cpo', 'vdr', 'avi', 'history', 'scn']) expect([name, after[name].html === before[name].html]).toEqual([name, false]);
      before = after;
    });

    it("the OCR's snapshot (CDS-CSO-HAD) is listed, and ?snapshot= serves each document as it was when the OCR was recorded", async () => {
      const listed = await get('/fedramp/snapshots', AGENCY_UPN);
      expect(conforms('/fedramp/snapshots', 'get', 200, listed.body)).toEqual([]);
      const snapshotDocuments = ['cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history', 'scn', 'metrics', 'incidents'];
      expect(listed.body).toEqual({
        rule: 'CDS-CSO-HAD',
        snapshots: [
          {
            snapshot: '2026-11-30',
            period: { from: '2026-08-31', to: '2026-11-30' },
            recordedAt: '2026-12-01T00:00:00Z',
            nextReportDate: '2027-02-28',
            runSeq: 2,
            journalSeq: expect.any(Number),
            documents: snapshotDocuments.map((d) => `/fedramp/${d}?snapshot=2026-11-30`),
          },
        ],
      });
      // Nothing was written since the OCR: the snapshot is the current data, byte for byte.
      for (const name of snapshotDocuments) {
        const frozen = await get(`/fedramp/${name}?snapshot=2026-11-30`, AGENCY_NETBIOS);
        expect([name, frozen.status, frozen.text]).toEqual([name, 200, before[name].json]);
        atOcr[name] = frozen.text;
      }
      const page = await get('/fedramp/sdr?snapshot=2026-11-30').set('Accept', 'text/html');
      expect(page.text).toContain('as of the Ongoing Certification Report for the period ending 2026-11-30 (CDS-CSO-HAD)');
    });

    it('?snapshot= names a recorded OCR: another date is 404 naming /fedramp/snapshots, a malformed one 400, and the open and listing routes take none', async () => {
      const missing = await get('/fedramp/vdr?snapshot=2026-10-31');
      expect([missing.status, missing.body.code, missing.body.detail]).toEqual([
        404,
        'no-such-snapshot',
        'no Ongoing Certification Report with the period ending 2026-10-31 is recorded, so there is no snapshot of it; GET /fedramp/snapshots lists the snapshots',
      ]);
      for (const path of ['/fedramp/vdr?snapshot=last', '/fedramp/snapshots?snapshot=2026-11-30', '/fedramp/public?snapshot=2026-11-30']) {
        const res = await get(path);
        expect([path, res.status, res.body.code]).toEqual([path, 400, 'invalid-request']);
      }
    });

    it("an SCN recorded (svc fedramp scn) joins the list, each valid against FedRAMP's SCN schema", async () => {
      run([
        'fedramp',
        'scn',
        '--type',
        'adaptive',
        '--summary',
        'Move the audit log store to a second region',
        '--finish',
        '2026-12-04',
        '--now',
        '2026-12-02T00:00:00Z',
      ]);
      await afterRecheck();
      const scn = await get('/fedramp/scn', AGENCY_NETBIOS);
      expect(scn.status).toBe(200);
      expect(scn.body).toHaveLength(1);
      expect(scn.body[0]).toMatchObject({ changeType: 'Adaptive', certificationPackageOverviewUri: PROFILE.package_uri });
      expect(fedrampSchemaErrors('scn', scn.body[0])).toEqual([]);
      expect(scn.text).not.toBe(before.scn.json);
      const page = await get('/fedramp/scn').set('Accept', 'text/html');
      expect(page.text).toContain('<h2 id="s-notification-1-h">Notification 1</h2>');
      before = await snapshot();
    });

    it('a new run (svc conmon process) gives new bytes where it changes the data, and new pages', async () => {
      writeFileSync(
        at('december.json'),
        JSON.stringify(report('2026-12-03', 'FAIL', ['iam_root_mfa_enabled', 'iam_password_policy_strong', 'iam_no_root_access_key'])),
      );
      run(['conmon', 'process', 'december.json']);
      await afterRecheck();
      const after = await snapshot();
      expect(after.vdr.json).not.toBe(before.vdr.json);
      expect(JSON.parse(after.vdr.json).vulnerabilities).toHaveLength(2);
      expect(fedrampSchemaErrors('vdr', JSON.parse(after.vdr.json))).toEqual([]);
      expect(after.history.json).not.toBe(before.history.json);
      // A run changes nothing the CPO says: only the time it is as of moves, and its content version stays.
      const [cpoBefore, cpoAfter] = [JSON.parse(before.cpo.json), JSON.parse(after.cpo.json)];
      expect(cpoAfter.metadata).toEqual({ ...cpoBefore.metadata, lastUpdated: '2026-12-03T08:00:00Z' });
      expect({ ...cpoAfter, metadata: undefined }).toEqual({ ...cpoBefore, metadata: undefined });
      for (const name of DOCUMENTS) expect([name, after[name].html === before[name].html]).toEqual([name, false]);
    });
  });

  describe('incident reports (IEC) to auditors and the agencies each lists as affected', () => {
    const incident = (summary: string, agency: string, at: string) => run(initialIncidentArgs(summary, agency, at));

    beforeAll(async () => {
      incident('Examples case exports exposed', 'Department of Examples', '2026-12-04T10:00:00Z');
      incident('Samples sign-in outage', 'Agency of Samples', '2026-12-04T11:00:00Z');
      await afterRecheck();
    });

    it('an auditor reads every report; an agency user those that list its agency; a principal named in roles.agency, recognized as none, none', async () => {
      const written = ['Examples.json', 'Samples.json'].map((f) => JSON.parse(readFileSync(at(f), 'utf8')));
      const auditor = await get('/fedramp/incidents');
      expect(auditor.body).toEqual(written);
      for (const report of auditor.body) expect(fedrampSchemaErrors('incident', report)).toEqual([]);
      expect((await get('/fedramp/incidents', AGENCY_UPN)).body).toEqual([written[0]]);
      expect((await get('/fedramp/incidents', AGENCY_NETBIOS)).body).toEqual([written[0]]);
      expect((await get('/fedramp/incidents', { 'X-Forwarded-User': 'sam@samples.gov' })).body).toEqual([written[1]]);
      expect((await get('/fedramp/incidents', { 'X-Forwarded-User': 'frank@partner.gov' })).body).toEqual([]);
      const page = await get('/fedramp/incidents', { 'X-Forwarded-User': 'sam@samples.gov' }).set('Accept', 'text/html');
      expect(page.text).toContain('Samples sign-in outage');
      expect(page.text).not.toContain('Examples case exports');
    });

    it('each audience gets its own bytes and ETag, built once', async () => {
      const examples = await get('/fedramp/incidents', AGENCY_UPN);
      const samples = await get('/fedramp/incidents', { 'X-Forwarded-User': 'sam@samples.gov' });
      expect(examples.headers.etag).not.toBe(samples.headers.etag);
      const revalidated = await get('/fedramp/incidents', { 'X-Forwarded-User': 'gail@examples.gov', 'If-None-Match': examples.headers.etag });
      expect(revalidated.status).toBe(304);
      expect((await get('/fedramp/incidents', { 'X-Forwarded-User': 'sam@samples.gov', 'If-None-Match': examples.headers.etag })).status).toBe(200);
    });

    it('the snapshot taken before them lists none', async () => {
      expect((await get('/fedramp/incidents?snapshot=2026-11-30')).body).toEqual([]);
    });
  });

  describe('when a stored due time passes, with nothing written', () => {
    it('the documents are built again once, as of the second after it; the snapshot does not move', async () => {
      const vdr = await get('/fedramp/vdr');
      const group = vdr.body.vulnerabilities.find((v: { vulnerabilityDescription: string }) =>
        v.vulnerabilityDescription.startsWith('iam_password_policy_strong'),
      );
      expect(group).toBeDefined();
      // The N4 group detected on 2026-11-02 is to be mitigated by 2027-01-05T08:00:00Z (VDR-TFR-PVR, Class B).
      clock.jump('2027-01-05T07:59:00Z');
      await afterRecheck();
      expect((await get('/fedramp/vdr')).text).toBe(vdr.text);
      clock.jump('2027-01-05T08:00:05Z');
      const after = await get('/fedramp/vdr');
      expect(after.text).not.toBe(vdr.text);
      expect(fedrampSchemaErrors('vdr', after.body)).toEqual([]);
      expect((await get('/fedramp/cpo')).body.metadata.lastUpdated).toBe('2027-01-05T08:00:01Z');
      const spy = jest.spyOn(VulnerabilityRegister.prototype, 'judge');
      try {
        await afterRecheck();
        expect((await get('/fedramp/vdr')).text).toBe(after.text);
        expect(spy).not.toHaveBeenCalled();
      } finally {
        spy.mockRestore();
      }
      for (const name of Object.keys(atOcr)) expect([name, (await get(`/fedramp/${name}?snapshot=2026-11-30`)).text]).toEqual([name, atOcr[name]]);
    });
  });

  describe('the pages in headless Chromium', () => {
    let server: Server;
    let base: string;
    beforeAll(async () => {
      server = createServer(api.handler).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it("every page renders under the API's CSP at 1280 px: no console error, no CSP violation, no request off the server, the sorting script runs, nothing wider than the page", async () => {
      const browser = await openBrowser();
      try {
        for (const name of ['public', ...DOCUMENTS]) {
          const problems: string[] = [];
          const context = await browser.newContext({ extraHTTPHeaders: name === 'public' ? {} : AUDITOR, viewport: { width: 1280, height: 900 } });
          const page = await context.newPage();
          // Runs before the page's own script, outside its CSP (Playwright injects it), and records every violation.
          await page.addInitScript({
            content:
              "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));",
          });
          page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
          page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
          page.on('request', (r) => r.url() !== `${base}/fedramp/${name}` && !r.url().startsWith('data:') && problems.push(`request: ${r.url()}`));
          const response = await page.goto(`${base}/fedramp/${name}`);
          expect([name, response?.status(), response?.headers()['content-type']]).toEqual([name, 200, 'text/html; charset=utf-8']);
          expect(await page.locator('h1').innerText()).not.toBe('');
          const sortable = page.locator('table[data-sortable] th button').first();
          if ((await sortable.count()) > 0) {
            await sortable.click();
            expect([name, await page.locator('table[data-sortable] th').first().getAttribute('aria-sort')]).toEqual([name, 'ascending']);
          }
          expect([name, await page.evaluate('window.violations')]).toEqual([name, []]);
          expect([name, problems]).toEqual([name, []]);
          expect([name, await wider(page)]).toEqual([name, { page: false, tables: [] }]);
          await context.close();
        }
      } finally {
        await browser.close();
      }
    });

    it('the SDR page: rule or KSI and name, status, statement; a chart per KSI. The VDR page: tracking id and description first', async () => {
      const sdr = (await get('/fedramp/sdr')).body;
      const vdr = (await get('/fedramp/vdr')).body;
      const browser = await openBrowser();
      try {
        const context = await browser.newContext({ extraHTTPHeaders: AUDITOR, viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        await page.goto(`${base}/fedramp/sdr`);
        const headers = (table: string) => page.locator(`#${table} thead th`).allTextContents();
        expect(await headers('s-fed-ramp-requirements-t')).toEqual(['Rule', 'Status', 'Statement']);
        expect(await page.locator('#s-fed-ramp-requirements-t tbody td:first-child code').allTextContents()).toEqual(
          sdr.fedRampRequirements.map((r: { frrID: string }) => r.frrID),
        );
        expect(await headers('s-key-security-indicators-t')).toEqual(['KSI', 'Status', 'Statement']);
        const ksis = sdr.keySecurityIndicators.map((k: { ksiId: string }) => k.ksiId);
        expect(await page.locator('#s-key-security-indicators-t tbody td:first-child code').allTextContents()).toEqual(ksis);
        expect(await page.locator('#s-key-security-indicators-t tbody tr', { hasText: 'KSI-IAM-APM' }).locator('td:first-child').innerText()).toBe(
          'KSI-IAM-APM\nAdopting Passwordless Methods',
        );
        expect(Object.keys(sdr.ksiMetrics)).toEqual([...ksis].sort());
        expect(await page.locator('svg').count()).toBe(ksis.length);
        expect(await page.locator('#s-ksi-metrics svg[data-chart]').evaluateAll((charts) => charts.map((c) => c.getAttribute('data-chart')))).toEqual(
          [...ksis].sort().map((id) => `ksi-metrics-${id}`),
        );
        await page.goto(`${base}/fedramp/vdr`);
        expect((await headers('s-vulnerabilities-t')).slice(0, 2)).toEqual(['Provider tracking ID', 'Vulnerability description']);
        expect(await page.locator('#s-vulnerabilities-t tbody td:first-child code').allTextContents()).toEqual(
          vdr.vulnerabilities.map((v: { providerTrackingId: string }) => v.providerTrackingId),
        );
        expect(await page.locator('#s-vulnerabilities-t tbody td:nth-child(2)').allTextContents()).toEqual(
          vdr.vulnerabilities.map((v: { vulnerabilityDescription: string }) => v.vulnerabilityDescription),
        );
        await context.close();
      } finally {
        await browser.close();
      }
    });
  });
});
