import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { AccessEvent } from '../../../src/domain/trust/access-log';
import { buildApi } from '../../../src/interfaces/http/server';
import { CLOCK } from '../../../src/ports/clock';
import { FEDRAMP_RULES_SOURCE } from '../../../src/ports/fedramp-rules-source';
import { ACCESS_STORE, type AccessStore } from '../../../src/ports/access-store';
import { FixedClock } from '../../fakes/fixed-clock';
import { builtInRules, FixedRulesSource } from '../../fakes/fixed-rules-source';
import { FileRunStore } from '../../../src/infrastructure/store/file-run-store';
import { capturingLogger, homeWithRecordedRun, openApiChecker, proxyConfig, startSvcApi, type StartedApi } from '../../support/api';
import { AGENCY_ISSUER, TRUST_PROFILE } from '../../support/trust-center';
import { ROOT } from '../../support/run-svc';

const OPERATOR = { 'X-Forwarded-User': 'bob@SVC.TEST' };
const AUDITOR = { 'X-Forwarded-User': 'alice@SVC.TEST' };
/** Recognized by the proxy-asserted domain: the Agency of Samples' and the Department of Examples' users. */
const SAM = { 'X-Forwarded-User': 'sam@samples.gov' };
const DANA = { 'X-Forwarded-User': 'dana@examples.gov' };
/** Named under roles.agency, recognized by no pattern. */
const FRANK = { 'X-Forwarded-User': 'frank@partner.gov' };
/** Federal by its domain, but no agency of the profile is the Treasury. */
const ZOE = { 'X-Forwarded-User': 'zoe@treasury.gov' };
/** No role: SVC.TEST is a realm, not a domain, so through the proxy carol is nobody's. */
const NOBODY = { 'X-Forwarded-User': 'carol@SVC.TEST' };

/** Wednesday 2027-01-20, 15:00 UTC: the requests of these tests are logged then. */
const NOW = new Date('2027-01-20T15:00:00Z');

const served = (at: string, principal: string, document: string, agency?: string): AccessEvent => ({
  at,
  principal,
  ...(agency ? { agency } : {}),
  document,
  outcome: 'served',
  status: 200,
});
const denied = (at: string, principal: string, document: string, agency?: string): AccessEvent => ({
  ...served(at, principal, document, agency),
  outcome: 'denied',
  status: 403,
});

/** The log of earlier days, written to the store as the recorder writes it. */
const EARLIER: AccessEvent[] = [
  served('2026-07-19T10:00:00Z', 'dana@examples.gov', 'cpo', 'Department of Examples'),
  served('2026-07-20T10:00:00Z', 'dana@examples.gov', 'sdr', 'Department of Examples'),
  served('2027-01-12T09:00:00Z', 'sam@samples.gov', 'vdr', 'Agency of Samples'),
  served('2027-01-12T10:00:00Z', 'frank@partner.gov', 'avi'),
  served('2027-01-12T11:00:00Z', 'alice@SVC.TEST', 'cpo'),
  denied('2027-01-12T12:00:00Z', 'carol@SVC.TEST', 'avi'),
  denied('2027-01-13T09:30:00Z', 'sam@samples.gov', 'incidents', 'Agency of Samples'),
  // Friday before Martin Luther King Jr. Day (Monday 2027-01-18).
  denied('2027-01-15T16:00:00Z', 'zoe@treasury.gov', 'cpo'),
];

const EXAMPLES = { name: 'Department of Examples', realms: ['SVC.TEST'], issuers: [AGENCY_ISSUER], domains: ['examples.gov', 'EXAMPLES'] };
const SAMPLES = { name: 'Agency of Samples', realms: [], issuers: [], domains: ['samples.gov'] };

const sha256 = (text: string) => createHash('sha256').update(text).digest();

describe('svc-api trust center: GET /fedramp/access (CDS-TRC-ACL, CDS-TRC-AAI, CDS-UTC-AAD)', () => {
  let work: string;
  let api: ReturnType<typeof buildApi>;
  let store: AccessStore;
  let conforms: ReturnType<typeof openApiChecker>;
  const clock = new FixedClock(NOW);
  const get = (path: string, headers: Record<string, string>) => request(api.handler).get(path).set(headers);
  /** The report as `who` gets it, checked against the route's OpenAPI schema. */
  const report = async (who: Record<string, string>, query = '') => {
    const res = await get(`/fedramp/access${query}`, who);
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    expect(conforms('/fedramp/access', 'get', 200, res.body)).toEqual([]);
    return res;
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'svc-trust-access-'));
    writeFileSync(join(work, 'svc.config.json'), JSON.stringify({ fedramp: TRUST_PROFILE }));
    const config = proxyConfig({ roles: { auditor: ['alice@SVC.TEST'], operator: ['bob@SVC.TEST'], agency: ['frank@partner.gov'] } });
    api = buildApi(config, {
      env: { ...process.env, SVC_HOME: join(work, '.svc'), SVC_STORE: '', SVC_SIGNING_KEY: '', SVC_CONFIG: '', SVC_FEDRAMP_RULES: '' },
      cwd: work,
      logger: capturingLogger().logger,
      overrides: (c) => c.register(CLOCK, { useValue: clock }),
    });
    conforms = openApiChecker(api.openapi);
    store = api.container.resolve(ACCESS_STORE);
    await store.appendAccess(EARLIER);
  });
  afterAll(async () => {
    await api.access.flush();
    rmSync(work, { recursive: true, force: true });
  });

  it('an operator sees everything over the default six months: every summary, the inventory, every agency denial with the day FedRAMP must be told by', async () => {
    expect((await get('/fedramp/scn', DANA)).status).toBe(200);
    expect((await get('/fedramp/cpo', ZOE)).status).toBe(403);
    const res = await report(OPERATOR);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toBe(`"${sha256(res.text).toString('hex')}"`);
    expect(res.headers['content-digest']).toBe(`sha-256=:${sha256(res.text).toString('base64')}:`);
    const body = res.body;
    expect(res.text).toBe(JSON.stringify(body)); // canonical: no spaces, keys in order
    expect(body).toMatchObject({
      from: '2026-07-20',
      to: '2027-01-20',
      scope: 'all',
      rules: ['CDS-TRC-ACL', 'CDS-TRC-AAI', 'CDS-UTC-AAD'],
      notify_fedramp: { rule: 'CDS-UTC-AAD', within: { unit: 'bizdays', num: 5 } },
    });
    // How to tell FedRAMP, as the rules data names it: the form of the rule's notification entry.
    expect(body.notify_fedramp).toEqual({
      rule: 'CDS-UTC-AAD',
      within: { unit: 'bizdays', num: 5 },
      party: 'FedRAMP',
      method: 'form',
      target: 'https://help.fedramp.gov/hc/en-us/requests/new?ticket_form_id=51829826617243',
      name: '[CSP] Agency Access Denial',
    });
    // 2026-07-19 is before the six months; everything from 2026-07-20 on, today's requests (flushed at once) included.
    expect(
      body.summaries.map((s: { day: string; principal: string; document: string; served: number; denied: number }) => [
        s.day,
        s.principal,
        s.document,
        s.served,
        s.denied,
      ]),
    ).toEqual([
      ['2026-07-20', 'dana@examples.gov', 'sdr', 1, 0],
      ['2027-01-12', 'alice@SVC.TEST', 'cpo', 1, 0],
      ['2027-01-12', 'carol@SVC.TEST', 'avi', 0, 1],
      ['2027-01-12', 'frank@partner.gov', 'avi', 1, 0],
      ['2027-01-12', 'sam@samples.gov', 'vdr', 1, 0],
      ['2027-01-13', 'sam@samples.gov', 'incidents', 0, 1],
      ['2027-01-15', 'zoe@treasury.gov', 'cpo', 0, 1],
      ['2027-01-20', 'dana@examples.gov', 'scn', 1, 0],
      ['2027-01-20', 'zoe@treasury.gov', 'cpo', 0, 1],
    ]);
    expect(body.summaries[0]).toEqual({
      day: '2026-07-20',
      principal: 'dana@examples.gov',
      agency: 'Department of Examples',
      document: 'sdr',
      served: 1,
      denied: 0,
      first: '2026-07-20T10:00:00Z',
      last: '2026-07-20T10:00:00Z',
    });
    expect(body.inventory).toEqual({
      agencies: [SAMPLES, EXAMPLES],
      named: ['frank@partner.gov'],
      observed: [
        {
          principal: 'dana@examples.gov',
          agency: 'Department of Examples',
          basis: 'recognized',
          first: '2026-07-20T10:00:00Z',
          last: '2027-01-20T15:00:00Z',
          documents: ['scn', 'sdr'],
          served: 2,
          denied: 0,
        },
        {
          principal: 'frank@partner.gov',
          basis: 'named',
          first: '2027-01-12T10:00:00Z',
          last: '2027-01-12T10:00:00Z',
          documents: ['avi'],
          served: 1,
          denied: 0,
        },
        {
          principal: 'sam@samples.gov',
          agency: 'Agency of Samples',
          basis: 'recognized',
          first: '2027-01-12T09:00:00Z',
          last: '2027-01-13T09:30:00Z',
          documents: ['vdr'],
          served: 1,
          denied: 1,
        },
        { principal: 'zoe@treasury.gov', basis: 'federal', first: '2027-01-15T16:00:00Z', last: '2027-01-20T15:00:00Z', documents: [], served: 0, denied: 2 },
      ],
    });
    expect(body.denials).toEqual([
      // Wednesday: Thursday, Friday, (MLK Day), Tuesday, Wednesday, Thursday.
      {
        day: '2027-01-13',
        at: '2027-01-13T09:30:00Z',
        last: '2027-01-13T09:30:00Z',
        count: 1,
        principal: 'sam@samples.gov',
        agency: 'Agency of Samples',
        document: 'incidents',
        notify_fedramp_by: '2027-01-21T23:59:59Z',
      },
      // The Friday before a Monday holiday: Tuesday is the first business day after it.
      {
        day: '2027-01-15',
        at: '2027-01-15T16:00:00Z',
        last: '2027-01-15T16:00:00Z',
        count: 1,
        principal: 'zoe@treasury.gov',
        document: 'cpo',
        notify_fedramp_by: '2027-01-25T23:59:59Z',
      },
      {
        day: '2027-01-20',
        at: '2027-01-20T15:00:00Z',
        last: '2027-01-20T15:00:00Z',
        count: 1,
        principal: 'zoe@treasury.gov',
        document: 'cpo',
        notify_fedramp_by: '2027-01-27T23:59:59Z',
      },
    ]);
  });

  it('the auditor sees everything too; the request for /fedramp/access is itself logged as access', async () => {
    const before = (await report(AUDITOR)).body;
    expect(before.scope).toBe('all');
    const after = (await report(AUDITOR)).body;
    const own = (b: { summaries: { day: string; principal: string; document: string; served: number }[] }) =>
      b.summaries.find((s) => s.day === '2027-01-20' && s.principal === 'alice@SVC.TEST' && s.document === 'access')?.served ?? 0;
    expect(own(after)).toBe(own(before) + 1);
  });

  it('zoe@treasury.gov, federal but unrecognized, is denied /fedramp/access too, and that denial is listed at once', async () => {
    const refused = await get('/fedramp/access', ZOE);
    expect([refused.status, refused.body.code]).toEqual([403, 'role-required']);
    const { denials } = (await report(OPERATOR)).body;
    expect(denials).toContainEqual({
      day: '2027-01-20',
      at: '2027-01-20T15:00:00Z',
      last: '2027-01-20T15:00:00Z',
      count: 1,
      principal: 'zoe@treasury.gov',
      document: 'access',
      notify_fedramp_by: '2027-01-27T23:59:59Z',
    });
    expect(denials.map((d: { principal: string }) => d.principal)).not.toContain('carol@SVC.TEST');
  });

  it("an agency's user sees only its agency: its summaries, its denials, its own entry and principals in the inventory", async () => {
    const { body, text } = await report(SAM);
    expect(body.scope).toEqual({ agency: 'Agency of Samples' });
    expect(body.summaries.length).toBeGreaterThan(0);
    expect(body.summaries.every((s: { agency?: string }) => s.agency === 'Agency of Samples')).toBe(true);
    expect(body.summaries.map((s: { day: string; document: string }) => [s.day, s.document]).slice(0, 2)).toEqual([
      ['2027-01-12', 'vdr'],
      ['2027-01-13', 'incidents'],
    ]);
    expect(body.inventory).toEqual({
      agencies: [SAMPLES],
      named: [],
      // This request is logged once answered: the next one sees it.
      observed: [
        {
          principal: 'sam@samples.gov',
          agency: 'Agency of Samples',
          basis: 'recognized',
          first: '2027-01-12T09:00:00Z',
          last: '2027-01-13T09:30:00Z',
          documents: ['vdr'],
          served: 1,
          denied: 1,
        },
      ],
    });
    expect(body.denials).toEqual([
      {
        day: '2027-01-13',
        at: '2027-01-13T09:30:00Z',
        last: '2027-01-13T09:30:00Z',
        count: 1,
        principal: 'sam@samples.gov',
        agency: 'Agency of Samples',
        document: 'incidents',
        notify_fedramp_by: '2027-01-21T23:59:59Z',
      },
    ]);
    for (const other of ['Department of Examples', 'examples.gov', 'EXAMPLES', 'treasury', 'frank', 'alice', 'carol', 'bob'])
      expect([other, text.includes(other)]).toEqual([other, false]);
    expect((await report(SAM)).body.inventory.observed[0]).toMatchObject({ last: '2027-01-20T15:00:00Z', documents: ['access', 'vdr'], served: 2 });

    const dana = await report(DANA);
    expect(dana.body.scope).toEqual({ agency: 'Department of Examples' });
    expect(dana.body.inventory.agencies).toEqual([EXAMPLES]);
    expect(dana.body.denials).toEqual([]);
    for (const other of ['Agency of Samples', 'samples.gov', 'treasury', 'frank', 'alice', 'carol', 'bob'])
      expect([other, dana.text.includes(other)]).toEqual([other, false]);
  });

  it('a principal named under roles.agency sees only its own rows', async () => {
    const { body, text } = await report(FRANK);
    expect(body.scope).toEqual({ principal: 'frank@partner.gov' });
    expect(body.summaries.every((s: { principal: string; agency?: string }) => s.principal === 'frank@partner.gov' && s.agency === undefined)).toBe(true);
    expect(body.summaries[0]).toEqual({
      day: '2027-01-12',
      principal: 'frank@partner.gov',
      document: 'avi',
      served: 1,
      denied: 0,
      first: '2027-01-12T10:00:00Z',
      last: '2027-01-12T10:00:00Z',
    });
    expect(body.inventory.agencies).toEqual([]);
    expect(body.inventory.named).toEqual(['frank@partner.gov']);
    expect(body.inventory.observed.map((o: { principal: string }) => o.principal)).toEqual(['frank@partner.gov']);
    expect(body.denials).toEqual([]);
    for (const other of ['Agency of Samples', 'Department of Examples', 'treasury', 'sam@', 'dana', 'alice', 'carol'])
      expect([other, text.includes(other)]).toEqual([other, false]);
  });

  it('a range: the days asked for, the same bytes while they do not change, 304 on If-None-Match', async () => {
    const first = await report(OPERATOR, '?from=2027-01-12&to=2027-01-13');
    expect([first.body.from, first.body.to]).toEqual(['2027-01-12', '2027-01-13']);
    expect(first.body.summaries.map((s: { day: string }) => s.day)).toEqual(['2027-01-12', '2027-01-12', '2027-01-12', '2027-01-12', '2027-01-13']);
    const again = await report(OPERATOR, '?from=2027-01-12&to=2027-01-13');
    expect([again.text, again.headers.etag]).toEqual([first.text, first.headers.etag]);
    const cached = await get('/fedramp/access?from=2027-01-12&to=2027-01-13', { ...OPERATOR, 'If-None-Match': first.headers.etag });
    expect([cached.status, cached.text]).toEqual([304, '']);
    expect((await report(OPERATOR, '?from=2027-01-20&to=2027-01-20')).body.summaries.every((s: { day: string }) => s.day === '2027-01-20')).toBe(true);
  });

  it('answers the last days of the calendar (the day after 9999-12-31 is a six-digit year) and the first', async () => {
    const last = await report(OPERATOR, '?to=9999-12-31');
    expect([last.status, last.body.from, last.body.to, last.body.summaries]).toEqual([200, '9999-06-30', '9999-12-31', []]);
    const first = await report(OPERATOR, '?from=0001-01-01&to=0001-01-31');
    expect([first.status, first.body.from, first.body.to]).toEqual([200, '0001-01-01', '0001-01-31']);
  });

  it.each([
    ['?from=2027-02-01&to=2027-01-20', 'invalid-range', 'from 2027-02-01 is after to 2027-01-20; give a from on or before 2027-01-20'],
    ['?from=2027-02-01', 'invalid-range', 'from 2027-02-01 is after to 2027-01-20 (today, the default); give a from on or before 2027-01-20'],
    [
      '?from=2025-12-16',
      'invalid-range',
      'from 2025-12-16 to 2027-01-20 is 401 days; ask for at most 400 days at a time (from 2025-12-17 or later for this to), and for older days in further requests',
    ],
    ['?from=2026-02-30', 'invalid-request', 'query parameter from must match format "date"; see /openapi.json for this route'],
    ['?to=yesterday', 'invalid-request', 'query parameter to must match format "date"; see /openapi.json for this route'],
    ['?since=2027-01-01', 'invalid-request', 'query parameter since is not a known field; see /openapi.json for this route'],
  ])('%s: 400 %s, one line saying the fix', async (query, code, detail) => {
    const res = await get(`/fedramp/access${query}`, OPERATOR);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({ type: `urn:svc:problem:${code}`, code, status: 400, detail });
    expect(JSON.stringify(res.body)).not.toMatch(/stack|\.ts:\d|\n/);
  });

  it('401 without credentials, 403 without a role, 406 for an Accept without JSON', async () => {
    const anonymous = await request(api.handler).get('/fedramp/access');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'authentication-required']);
    const nobody = await get('/fedramp/access', NOBODY);
    expect(nobody.status).toBe(403);
    expect(nobody.body.detail).toBe(
      "carol@SVC.TEST does not hold the agency or auditor or operator role; an administrator grants it under roles in the API config, or recognizes the principal's agency by its realm, certificate issuer or domain (fedramp.agencies in svc.config.json)",
    );
    const html = await get('/fedramp/access', { ...OPERATOR, Accept: 'text/html' });
    expect([html.status, html.body.code, html.body.detail]).toEqual([406, 'not-acceptable', 'Accept "text/html": this route answers application/json']);
  });

  it('reads the summaries one day at a time, never the raw events, and past days once: later requests read only yesterday and today', async () => {
    const access = api.container.resolve(ACCESS_STORE);
    const reads = jest.spyOn(access, 'accessTallies');
    const raw = jest.spyOn(access, 'accessLog');
    try {
      await report(OPERATOR, '?from=2025-06-01&to=2025-06-30');
      expect(reads.mock.calls).toHaveLength(30);
      reads.mockClear();
      await report(OPERATOR, '?from=2025-06-01&to=2025-06-30');
      await report(OPERATOR);
      expect(reads.mock.calls).toEqual([['2027-01-19'], ['2027-01-20']]);
      expect(raw).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      raw.mockRestore();
    }
  });

  it("a rules release without CDS-UTC-AAD's timeframe is the server's configuration: 500 no-timeframe naming the rule, after the range is checked", async () => {
    const rules = builtInRules();
    delete rules.rules.find((r) => r.id === 'CDS-UTC-AAD')!.timeframe;
    const other = buildApi(proxyConfig(), {
      env: { ...process.env, SVC_HOME: join(work, '.svc'), SVC_STORE: '', SVC_SIGNING_KEY: '', SVC_CONFIG: '', SVC_FEDRAMP_RULES: '' },
      cwd: work,
      logger: capturingLogger().logger,
      overrides: (c) => {
        c.register(CLOCK, { useValue: clock });
        c.register(FEDRAMP_RULES_SOURCE, { useValue: new FixedRulesSource(rules) });
      },
    });
    const res = await request(other.handler).get('/fedramp/access').set(OPERATOR);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      code: 'no-timeframe',
      detail: `CR26 ${rules.info.version}: CDS-UTC-AAD gives no timeframe, so svc cannot date when FedRAMP must be told of a denied agency request; use a release that gives it (SVC_FEDRAMP_RULES)`,
    });
    expect((await request(other.handler).get('/fedramp/access?from=2027-02-01').set(OPERATOR)).status).toBe(400);
    await other.access.flush();
  });

  it('is in the OpenAPI document: roles agency, auditor and operator, the query, a precise schema', () => {
    const op = api.openapi.paths['/fedramp/access'].get as Record<string, any>;
    expect(op).toMatchObject({ operationId: 'getFedrampAccess', tags: ['trust'], 'x-svc-roles': ['agency', 'auditor', 'operator'] });
    expect(op.parameters.map((p: { name: string; in: string }) => [p.name, p.in])).toEqual([
      ['from', 'query'],
      ['to', 'query'],
    ]);
    const schema = op.responses['200'].content['application/json'].schema;
    expect(schema.required).toEqual(['from', 'to', 'scope', 'rules', 'summaries', 'inventory', 'denials']);
    expect(conforms('/fedramp/access', 'get', 200, { from: '2027-01-20' })).not.toEqual([]);
  });
});

describe('svc-api, the built binary on loopback: the access log holds up (CDS-TRC-ACL, CDS-TRC-AAI, CDS-UTC-AAD)', () => {
  let home: { home: string; cleanup(): void };
  let dir: string;
  let api: StartedApi;
  const accessDir = () => join(home.home, 'store', 'access');
  const logLines = () =>
    readFileSync(join(dir, 'api.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const call = (path: string, user: string) => fetch(`${api.url}${path}`, { headers: { 'x-forwarded-user': Buffer.from(user, 'utf8').toString('latin1') } });
  const accessReport = async (query: string) => {
    const res = await call(`/fedramp/access${query}`, 'bob@SVC.TEST');
    expect(res.status).toBe(200);
    return (await res.json()) as {
      summaries: { day: string; principal: string; document: string; served: number; denied: number }[];
      inventory: { observed: Record<string, unknown>[] };
      denials: Record<string, unknown>[];
    };
  };
  /** Waits until `done` holds: the API writes its access log in the background. */
  const eventually = async (done: () => boolean) => {
    for (let i = 0; i < 100 && !done(); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done()).toBe(true);
  };
  const CAC = 'DOE.JOHN.1234567890';

  beforeAll(async () => {
    home = homeWithRecordedRun('svc-access-log-');
    dir = mkdtempSync(join(tmpdir(), 'svc-access-log-api-'));
    // Earlier days, before svc-api starts: a day svc 0.6 logged (raw events only, every denial a line) and a day
    // logged with summaries whose denials were judged federal by the client certificate (the name alone is not).
    mkdirSync(accessDir(), { recursive: true });
    const zoe = (i: number): AccessEvent => denied(`2026-11-02T10:00:${String(i).padStart(2, '0')}Z`, 'zoe@treasury.gov', 'cpo');
    writeFileSync(join(accessDir(), '2026-11-02.ndjson'), Array.from({ length: 3 }, (_, i) => `${JSON.stringify(zoe(i))}\n`).join(''));
    await new FileRunStore({ dir: join(home.home, 'store') }).appendAccess([
      { ...denied('2026-12-01T09:00:00Z', CAC, 'sdr'), federal: true },
      { ...denied('2026-12-01T09:30:00Z', CAC, 'sdr'), federal: true },
      served('2026-12-01T10:00:00Z', 'dana@examples.gov', 'cpo', 'Department of Examples'),
    ]);
    const config = join(dir, 'api.json');
    writeFileSync(
      config,
      JSON.stringify({
        port: 0,
        auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
        roles: { auditor: ['alice@SVC.TEST'], operator: ['bob@SVC.TEST'] },
        limits: { requests_per_minute: 1_000_000, access_log_days: 30 },
        log: { file: join(dir, 'api.log') },
      }),
    );
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: TRUST_PROFILE }));
    api = await startSvcApi(['--config', config], {
      SVC_HOME: home.home,
      SVC_CONFIG: join(dir, 'svc.config.json'),
      SOURCE_DATE_EPOCH: String(NOW.getTime() / 1000),
      SVC_STORE: '',
    });
  });
  afterAll(async () => {
    await api?.stop();
    home?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a retention shorter than six months of summaries, or raw events kept longer than their summaries, stops the start: exit 3, one line naming the key and the fix', () => {
    for (const [limits, line] of [
      [
        { access_summary_days: 180 },
        'limits.access_summary_days: expected at least 187 days (the six months CDS-TRC-ACL asks summaries of access be kept), got 180; write e.g. 400',
      ],
      [
        { access_log_days: 500 },
        'limits.access_log_days: expected 2 days (today and yesterday, still written to) to limits.access_summary_days (400), got 500; write e.g. 90',
      ],
    ] as const) {
      const config = join(dir, 'short.json');
      writeFileSync(config, JSON.stringify({ port: 0, limits }));
      const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'svc-api.js'), '--config', config], {
        env: { ...process.env, SVC_HOME: home.home },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect([run.status, run.stderr]).toEqual([3, `Error: ${config}: ${line}\n`]);
    }
  });

  it("a principal the log refuses is refused alone: another user's 16 requests beside it are all logged, and its name is in no store file and no refusal line", async () => {
    // KELVIN SIGN: a letter the proxy header takes, but not in NFC, which the name rule (principalNameProblem) requires.
    const hostile = 'fran\u212Ak@partner.gov';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 5 === 4 ? call('/fedramp/cpo', hostile) : call('/fedramp/cpo', 'alice@SVC.TEST'))),
    );
    // 403 (no role) while authentication takes the name; 401 once it refuses it as the log does.
    expect(answers.map((a, i) => (i % 5 === 4 ? [401, 403].includes(a.status) : a.status === 200))).toEqual(Array.from({ length: 20 }, () => true));
    const today = (await accessReport('?from=2027-01-20&to=2027-01-20')).summaries;
    expect(today.filter((s) => s.document === 'cpo').map((s) => [s.principal, s.served, s.denied])).toEqual([['alice@SVC.TEST', 16, 0]]);
    // The upkeep may be writing a summary beside (a temporary file, then renamed): read once it has, if it has within
    // five seconds. It may start another between the listing and the reading (CI once listed a temporary file and
    // found it renamed; on a loaded machine one was beside them for five seconds): the files are read as listed, less
    // temporary ones (a summary's next version), less any gone by the time it is read.
    for (let i = 0; i < 100 && readdirSync(accessDir()).some((name) => name.includes('.svc-tmp-')); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const readIfThere = (name: string): string => {
      try {
        return readFileSync(join(accessDir(), name), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
        throw error;
      }
    };
    const stored = readdirSync(accessDir())
      .filter((name) => !name.includes('.svc-tmp-'))
      .map(readIfThere)
      .join('');
    expect([stored.includes('\u212A'), stored.includes('fran'), stored.includes('\\u212a')]).toEqual([false, false, false]);
    // Refused where it arrived: by the log (here, where authentication takes the name), or by authentication itself
    // once it holds names to principalNameProblem too; either way a warn line without the name.
    const refusals = logLines().filter((l) => l.msg === 'access event refused' || l.msg === 'credential refused');
    expect(refusals.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(refusals)).not.toMatch(/fran|\u212A|\\u212a/i);
    const sha = createHash('sha256').update(hostile).digest('hex');
    for (const { level, reason, principal_length, principal_sha256 } of refusals.filter((l) => l.msg === 'access event refused')) {
      expect({ level, reason, principal_length, principal_sha256 }).toEqual({
        level: 40,
        reason: 'principal is not a name: it is not in Unicode normalization form C (NFC)',
        principal_length: 18,
        principal_sha256: sha,
      });
    }
  });

  it('a client refused 300 times in a day: the summaries count all 300, the raw log keeps its first 100', async () => {
    for (let i = 0; i < 300; i += 1) expect((await call('/fedramp/sdr', 'carol@SVC.TEST')).status).toBe(403);
    const { summaries } = await accessReport('?from=2027-01-20&to=2027-01-20');
    expect(summaries.filter((s) => s.principal === 'carol@SVC.TEST').map((s) => [s.document, s.served, s.denied])).toEqual([['sdr', 0, 300]]);
    const raw = readFileSync(join(accessDir(), '2027-01-20.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"carol@SVC.TEST"'));
    expect(raw).toHaveLength(100);
    // Three batches at most: a line of tallies each, not a line per request.
    expect(readFileSync(join(accessDir(), '2027-01-20.tally.ndjson'), 'utf8').split('\n').filter(Boolean).length).toBeLessThan(20);
  });

  it('after the raw events are pruned (limits.access_log_days: 30), the summaries alone answer: the federal basis from the certificate, the denials, a day svc 0.6 logged', async () => {
    expect((await call('/health', 'bob@SVC.TEST')).status).toBe(200);
    await accessReport('?from=2027-01-20&to=2027-01-20');
    // The upkeep runs in the API process after its first write: raw events before 2026-12-22 go, summaries stay.
    await eventually(() => !readdirSync(accessDir()).some((n) => n.startsWith('2026-11-02.n') || n.startsWith('2026-12-01.n') || n.startsWith('2026-12-01.t')));
    expect(
      readdirSync(accessDir())
        .filter((n) => n < '2027')
        .sort(),
    ).toEqual(['2026-11-02.summary.json', '2026-12-01.summary.json']);
    expect(logLines().find((l) => l.msg === 'access log upkeep')).toMatchObject({ level: 30, access_upkeep: { summarized: 1, raw_days: 2, summary_days: 0 } });
    const body = await accessReport('?from=2026-11-01&to=2026-12-31');
    expect(body.summaries.map((s) => [s.day, s.principal, s.document, s.served, s.denied])).toEqual([
      ['2026-11-02', 'zoe@treasury.gov', 'cpo', 0, 3],
      ['2026-12-01', CAC, 'sdr', 0, 2],
      ['2026-12-01', 'dana@examples.gov', 'cpo', 1, 0],
    ]);
    expect(body.inventory.observed).toEqual([
      { principal: CAC, basis: 'federal', first: '2026-12-01T09:00:00Z', last: '2026-12-01T09:30:00Z', documents: [], served: 0, denied: 2 },
      {
        principal: 'dana@examples.gov',
        agency: 'Department of Examples',
        basis: 'recognized',
        first: '2026-12-01T10:00:00Z',
        last: '2026-12-01T10:00:00Z',
        documents: ['cpo'],
        served: 1,
        denied: 0,
      },
      { principal: 'zoe@treasury.gov', basis: 'federal', first: '2026-11-02T10:00:00Z', last: '2026-11-02T10:00:02Z', documents: [], served: 0, denied: 3 },
    ]);
    expect(body.denials).toEqual([
      {
        day: '2026-11-02',
        at: '2026-11-02T10:00:00Z',
        last: '2026-11-02T10:00:02Z',
        count: 3,
        principal: 'zoe@treasury.gov',
        document: 'cpo',
        notify_fedramp_by: '2026-11-09T23:59:59Z',
      },
      {
        day: '2026-12-01',
        at: '2026-12-01T09:00:00Z',
        last: '2026-12-01T09:30:00Z',
        count: 2,
        principal: CAC,
        document: 'sdr',
        notify_fedramp_by: '2026-12-08T23:59:59Z',
      },
    ]);
  });
});
