import { join } from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { buildApi } from '../../src/interfaces/http/server';
import { capturingLogger, homeWithRecordedRun, proxyConfig } from '../support/api';
import { FIXTURES } from '../support/run-svc';
import { jsonKey, jsonValue, mutate, mutations, SEED } from './bad-input';

const AUDITOR = { 'X-Forwarded-User': 'alice@SVC.TEST' };
const OPERATOR = { 'X-Forwarded-User': 'bob@SVC.TEST' };
const CALLERS = [OPERATOR, OPERATOR, OPERATOR, AUDITOR, {}];
const DIRECTORY = {
  graph: { export: join(FIXTURES, 'graph-export.json') },
  orgpath: {
    rules: [
      { match: { department: 'Finance' }, path: '/Contoso/Finance' },
      { match: { user_type: 'Guest' }, path: '/Contoso/Guests' },
    ],
  },
  boundary: { environment: 'GCCHigh', required: ['conditional-access', 'privileged-identity-management', 'my-staff'] },
};
const POSTS = ['/survey/run', '/survey/findings', '/orgpath/assign', '/boundary/run'] as const;
const GETS: Record<string, { headers: Record<string, string>; params: string[] }> = {
  '/auditor/evidence': { headers: AUDITOR, params: ['ksi', 'status', 'limit', 'cursor'] },
  '/auditor/findings': { headers: AUDITOR, params: ['status', 'severity', 'limit', 'cursor'] },
  '/auditor/poam': { headers: AUDITOR, params: ['status', 'overdue', 'limit', 'cursor'] },
  '/auditor/manifest': { headers: AUDITOR, params: [] },
  '/auditor/oscal/sar': { headers: AUDITOR, params: ['envelope'] },
  '/auditor/oscal/ssp': { headers: AUDITOR, params: [] },
  '/orgpath/assignments': { headers: OPERATOR, params: ['path_prefix'] },
  '/boundary/gaps': { headers: OPERATOR, params: ['environment', 'required', 'probe'] },
};

/** What every answer must be: a success, or problem+json with the RFC 9457 members, never an internal error or a stack. */
function checkAnswer(res: request.Response, what: string): void {
  const where = `${what} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (/\n\s+at |at [\w.<>]+ \(.*:\d+:\d+\)/.test(res.text)) throw new Error(`a stack trace in the answer: ${where}`);
  if (res.status < 300 || res.status === 304) return;
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) throw new Error(`not problem+json: ${where}`);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  for (const member of ['type', 'code', 'title', 'status', 'detail']) if (body[member] === undefined) throw new Error(`no ${member}: ${where}`);
  if (body.status !== res.status || body.type !== `urn:svc:problem:${String(body.code)}`) throw new Error(`status or type does not match: ${where}`);
  // A 500 is only a configuration problem (a ConfigError, as a Graph export that cannot be written), never "internal".
  if (res.status >= 500 && (res.status !== 500 || body.code === 'internal')) throw new Error(`a server error: ${where}`);
  if (/[\r\n]/.test(String(body.detail))) throw new Error(`a detail of several lines: ${where}`);
}

describe('svc-api on bad requests', () => {
  let home: { home: string; cleanup(): void };
  let api: ReturnType<typeof buildApi>;
  const log = capturingLogger();
  let survey: unknown;
  beforeAll(async () => {
    home = homeWithRecordedRun('svc-property-api-');
    api = buildApi(proxyConfig({ ...DIRECTORY, limits: { requests_per_minute: 1_000_000 } }), {
      env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '', SVC_SIGNING_KEY: '' },
      cwd: home.home,
      logger: log.logger,
    });
    survey = (await request(api.handler).post('/survey/run').set(OPERATOR).send({})).body;
  });
  afterAll(() => home.cleanup());
  afterEach(() => {
    // An internal error is logged with its stack: none may have happened.
    expect(log.lines.filter((line) => line.msg === 'request failed')).toEqual([]);
  });

  /** Valid bodies of each POST route, to be mutated. */
  const validBodies = () => ({
    '/survey/run': { stale_days: 30 },
    '/survey/findings': { survey, stale_days: 60, policy: { global_admin_min: 2 } },
    '/orgpath/assign': { rules: DIRECTORY.orgpath.rules, apply: false },
    '/boundary/run': { environment: 'GCC' },
  });

  it('answers any JSON body, mutated valid bodies included, with a success or a problem', async () => {
    const body = (path: (typeof POSTS)[number]) =>
      fc.oneof(
        jsonValue(3),
        mutations(3).map((changes) => mutate(validBodies()[path], changes)),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POSTS).chain((path) => fc.tuple(fc.constant(path), body(path))),
        fc.constantFrom(...CALLERS),
        async ([path, value], caller) => {
          const res = await request(api.handler).post(path).set(caller).set('Content-Type', 'application/json').send(JSON.stringify(value));
          checkAnswer(res, `POST ${path} ${JSON.stringify(value).slice(0, 200)}`);
        },
      ),
      { seed: SEED, numRuns: 120 },
    );
  });

  it('answers raw text of any Content-Type with a success or a problem', async () => {
    const type = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/merge-patch+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'APPLICATION/JSON',
      'application/json;charset=utf-16',
      '',
      '*/*',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom(
        '',
        '{',
        '[]',
        'null',
        '"x"',
        '1',
        '{"stale_days": 1e999}',
        '{"a":1,"a":2}',
        '\uFEFF{}',
        '{"__proto__": {"x": 1}}',
        '{"rules": [{"match": {}, "path": "/a"}]}',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POSTS), type, text, async (path, contentType, body) => {
        const res = await request(api.handler).post(path).set(OPERATOR).set('Content-Type', contentType).send(body);
        checkAnswer(res, `POST ${path} (${contentType}) ${JSON.stringify(body)}`);
      }),
      { seed: SEED, numRuns: 120 },
    );
  });

  it('answers any query string on the GET routes with a success or a problem', async () => {
    const raw = fc.constantFrom(
      '%',
      '%zz',
      '%00',
      '%0A',
      '%E0%A4%A',
      '[]',
      '[x]=1',
      '..',
      '+',
      '%2C%2C',
      ',,,',
      'a,,b',
      '-1',
      '0',
      '1001',
      '1e3',
      'true',
      'FAIL,PASS,WARN',
      'KSI-AC-02,KSI-IA-02',
      'Open',
      'GCC',
      '/',
      '/Contoso',
      'x'.repeat(300),
    );
    const value = fc.oneof(raw, fc.string({ maxLength: 20 }).map(encodeURIComponent), fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent));
    const query = (params: string[]) =>
      fc
        .array(
          fc.tuple(
            fc.oneof(
              { weight: 4, arbitrary: params.length > 0 ? fc.constantFrom(...params) : fc.constant('x') },
              { weight: 1, arbitrary: jsonKey.map(encodeURIComponent) },
            ),
            fc.option(value, { nil: undefined }),
          ),
          { maxLength: 5 },
        )
        .map((pairs) => pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(GETS)).chain((path) => fc.tuple(fc.constant(path), query(GETS[path].params))),
        async ([path, qs]) => {
          const res = await request(api.handler).get(`${path}?${qs}`).set(GETS[path].headers);
          checkAnswer(res, `GET ${path}?${qs}`);
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('answers any control id in /auditor/graph/{control_id} with a success or a problem', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'ac-2',
        'AC-2(1)',
        'ia-2.1',
        'zz-99',
        'ac-2.99',
        'AC-2(',
        'ac--2',
        '%',
        '%zz',
        '%00',
        '%2F',
        '..',
        '.',
        '%2E%2E',
        'ac-2%0A',
        'x'.repeat(200),
        '__proto__',
        'constructor',
      ),
      fc.string({ maxLength: 20 }).map(encodeURIComponent),
      fc
        .tuple(fc.constantFrom('ac', 'IA', 'sc', 'zz'), fc.nat({ max: 120 }), fc.option(fc.nat({ max: 120 }), { nil: undefined }))
        .map(([f, c, e]) => `${f}-${c}${e === undefined ? '' : `.${e}`}`),
    );
    await fc.assert(
      fc.asyncProperty(segment, fc.constantFrom('', '?x=1', '/', '/extra'), async (id, tail) => {
        const res = await request(api.handler).get(`/auditor/graph/${id}${tail}`).set(AUDITOR);
        checkAnswer(res, `GET /auditor/graph/${id}${tail}`);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('still answers after all that', async () => {
    const res = await request(api.handler).get('/health');
    expect(res.status).toBe(200);
    expect((await request(api.handler).get('/auditor/manifest').set(AUDITOR)).status).toBe(200);
  });
});
