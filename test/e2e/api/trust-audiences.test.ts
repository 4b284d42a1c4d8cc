import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { FEDRAMP_SCHEMAS, fedrampSchemaErrors } from '../../support/fedramp-schemas';
import { ROOT, svc } from '../../support/run-svc';
import { prowlerReport, TRUST_PROFILE } from '../../support/trust-center';

/*
 * Issue 32, critical: every cached representation of every trust-center route (JSON, HTML, ETag, 304) is keyed by
 * everything that decides its content, the audience included. Against the built svc-api (dist/, over a real socket):
 * each audience's bytes are first taken from a server that only it has asked; then, on a fresh server for every order
 * of the five audiences, each route is opened as each audience in that order, in every representation, and every
 * answer must be exactly that audience's bytes. Each incident's summary and lesson carry a marker, so a baseline that
 * held another audience's data would show too.
 */

// The built server, as svc-api runs it (its CLOCK token is dist's own).

const { buildApi } = require(join(ROOT, 'dist', 'interfaces', 'http', 'server.js'));

const { readApiConfig } = require(join(ROOT, 'dist', 'interfaces', 'http', 'config', 'api-config.js'));

const { CLOCK } = require(join(ROOT, 'dist', 'ports', 'clock.js'));

const AGENCIES = [...TRUST_PROFILE.agencies, { name: 'Bureau of Tests', domains: ['tests.gov'] }];

/** Who asks, by the name the trusted proxy forwards. */
const AUDIENCES = {
  auditor: 'alice@SVC.TEST',
  examples: 'dana@examples.gov',
  samples: 'sam@samples.gov',
  tests: 'tess@tests.gov',
  named: 'frank@partner.gov',
} as const;
type Audience = keyof typeof AUDIENCES;

/** The incidents, each with the marker its summary and lesson carry and the agencies it lists as affected. */
const INCIDENTS = [
  { marker: 'ALPHA-7F3', summary: 'Examples case exports exposed', agencies: ['Department of Examples'], at: '2026-11-10T10:00:00Z' },
  { marker: 'BRAVO-9C1', summary: 'Samples sign-in outage', agencies: ['Agency of Samples'], at: '2026-11-12T10:00:00Z' },
  { marker: 'CHARLIE-2D4', summary: 'Shared queue backlog', agencies: ['Department of Examples', 'Agency of Samples'], at: '2026-11-14T10:00:00Z' },
  // After the OCR of 2026-11-30: in the current data, not in the snapshot.
  { marker: 'DELTA-5E8', summary: 'Tests uploads misrouted', agencies: ['Bureau of Tests'], at: '2026-12-02T10:00:00Z' },
];
const MARKERS = INCIDENTS.map((i) => i.marker);
const AGENCY_OF: Record<Audience, string | undefined> = {
  auditor: undefined,
  examples: 'Department of Examples',
  samples: 'Agency of Samples',
  tests: 'Bureau of Tests',
  named: undefined,
};

/** The markers an audience may read: an auditor every incident, an agency those that list it, anyone else none. */
function allowed(audience: Audience): string[] {
  if (audience === 'auditor') return MARKERS;
  const agency = AGENCY_OF[audience];
  return INCIDENTS.filter((i) => agency !== undefined && i.agencies.includes(agency)).map((i) => i.marker);
}

const DOCUMENTS = ['public', 'cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history', 'scn', 'metrics', 'incidents', 'snapshots'];
const SNAPSHOT_DOCUMENTS = ['cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history', 'scn', 'metrics', 'incidents'];
const PATHS = [...DOCUMENTS.map((d) => `/fedramp/${d}`), ...SNAPSHOT_DOCUMENTS.map((d) => `/fedramp/${d}?snapshot=2026-11-30`)];
// JSON, the page, and a browser's `text/*` (an Accept of any type is JSON, as no Accept is).
const ACCEPTS = ['application/json', 'text/html', 'text/*'];

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

function get(port: number, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every order of `items`. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe("svc-api trust center: no response carries another audience's data (every route, every representation, every order)", () => {
  let work: string;
  const at = (...parts: string[]) => join(work, ...parts);
  let config: unknown;
  /** Each audience's bytes and ETag per path and Accept, from a server only it has asked. */
  const baseline = new Map<string, { text: string; etag: string | undefined; status: number }>();
  const key = (audience: Audience, path: string, accept: string) => `${audience} ${accept} ${path}`;

  async function server(): Promise<{ port: number; close(): Promise<void> }> {
    const api = buildApi(config, {
      env: { ...process.env, SVC_HOME: at('.svc'), SVC_STORE: '', SVC_CONFIG: '' },
      cwd: work,
      overrides: (c: { register(token: unknown, provider: unknown): void }) => c.register(CLOCK, { useValue: { now: () => new Date('2026-12-05T00:00:00Z') } }),
      logger: require('pino')({ level: 'silent' }),
    });
    const http = createServer(api.handler);
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    return {
      port: (http.address() as AddressInfo).port,
      close: async () => {
        await new Promise<void>((done) => {
          http.close(() => done());
          http.closeAllConnections();
        });
        await api.container.resolve(require(join(ROOT, 'dist', 'ports', 'run-store.js')).RUN_STORE).close();
      },
    };
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'svc-trust-audiences-'));
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: { ...TRUST_PROFILE, agencies: AGENCIES }, fedramp_schemas: FEDRAMP_SCHEMAS }));
    writeFileSync(at('november.json'), JSON.stringify(prowlerReport('2026-11-02', 'FAIL', ['iam_password_policy_strong'])));
    const run = (args: string[]) => {
      const r = svc(args, { cwd: work, env: { SVC_HOME: at('.svc') } });
      if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
    };
    run(['conmon', 'process', 'november.json']);
    const record = (incident: (typeof INCIDENTS)[number]) =>
      run([
        'fedramp',
        'incident',
        '--type',
        'initial',
        '--summary',
        `${incident.marker} ${incident.summary}`,
        '--n',
        '3',
        '--occurred-at',
        incident.at,
        ...incident.agencies.flatMap((a) => ['--agency', a]),
        '--lesson',
        `${incident.marker} lesson: review the runbook`,
        '--now',
        incident.at,
        '--out',
        `${incident.marker}.json`,
      ]);
    INCIDENTS.slice(0, 3).forEach(record);
    run(['fedramp', 'ocr', '--to', '2026-11-30', '--now', '2026-12-01T00:00:00Z', '--out', 'ocr.json']);
    record(INCIDENTS[3]);
    config = readApiConfig(
      {
        port: 0,
        auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
        roles: { auditor: [AUDIENCES.auditor], agency: [AUDIENCES.named] },
      },
      'api.json',
      work,
    );
    for (const audience of Object.keys(AUDIENCES) as Audience[]) {
      const alone = await server();
      try {
        for (const path of PATHS) {
          for (const accept of ACCEPTS) {
            const res = await get(alone.port, path, { 'x-forwarded-user': AUDIENCES[audience], accept });
            baseline.set(key(audience, path, accept), { text: res.text, etag: res.headers.etag, status: res.status });
          }
        }
      } finally {
        await alone.close();
      }
    }
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('each audience alone reads exactly its own incidents, in the incident list and in the OCR, as JSON and as the page', () => {
    for (const audience of Object.keys(AUDIENCES) as Audience[]) {
      for (const path of PATHS) {
        const snapshot = path.includes('snapshot=');
        for (const accept of ACCEPTS) {
          const { text, status } = baseline.get(key(audience, path, accept))!;
          expect([audience, path, accept, status]).toEqual([audience, path, accept, 200]);
          const seen = MARKERS.filter((m) => text.includes(m));
          const expected = !/\/fedramp\/(ocr|incidents)/.test(path)
            ? []
            : allowed(audience).filter((m) => !(snapshot || path.startsWith('/fedramp/ocr')) || m !== 'DELTA-5E8');
          expect([audience, path, accept, seen]).toEqual([audience, path, accept, expected]);
        }
      }
    }
  });

  it("an OCR read by an agency keeps one entry per incident, valid against FedRAMP's schema, withholding what the incidents that do not list it say", () => {
    const ocr = (audience: Audience) => JSON.parse(baseline.get(key(audience, '/fedramp/ocr', 'application/json'))!.text);
    const entries = (audience: Audience) =>
      ocr(audience).reportableIncidents.incidents as { summary: string; occurredAt?: string; incidentLessonsLearned?: string[] }[];
    expect(entries('auditor').map((e) => e.summary.split(': ')[1].split(' ')[0])).toEqual(['ALPHA-7F3', 'BRAVO-9C1', 'CHARLIE-2D4']);
    for (const audience of ['examples', 'samples', 'tests', 'named'] as Audience[]) {
      expect(fedrampSchemaErrors('ocr', ocr(audience))).toEqual([]);
      const list = entries(audience);
      expect(list).toHaveLength(3);
      list.forEach((entry, i) => {
        const incident = INCIDENTS[i];
        if (allowed(audience).includes(incident.marker)) expect(entry).toEqual(entries('auditor')[i]);
        else
          expect(entry).toEqual({
            summary:
              'A FedRAMP Reportable Incident that did not affect your agency occurred in this period. Its summary, times and lessons learned are withheld here; they go to the agencies it affected, to FedRAMP and to the assessor (CCM-OCR-AVL).',
          });
      });
      const { reportableIncidents, ...rest } = ocr(audience);
      const { reportableIncidents: _all, ...auditorRest } = ocr('auditor');
      expect([audience, rest]).toEqual([audience, auditorRest]);
      expect(reportableIncidents.incidents).not.toEqual([]);
    }
  });

  // Every order of the audiences on the routes whose content depends on the audience (the incidents and the OCR, now
  // and as snapshots); on every route, the orders that put each audience first and last (rotations, and reversed).
  const audiences = Object.keys(AUDIENCES) as Audience[];
  const rotations = audiences.flatMap((_, i) => [
    [...audiences.slice(i), ...audiences.slice(0, i)],
    [...audiences.slice(i), ...audiences.slice(0, i)].reverse(),
  ]);
  const cases = [
    ...permutations(audiences).map((order) => [
      `${order.join(' → ')}, the incidents and the OCR`,
      order,
      PATHS.filter((p) => /\/fedramp\/(ocr|incidents)/.test(p)),
    ]),
    ...rotations.map((order) => [`${order.join(' → ')}, every route`, order, PATHS]),
  ] as [string, Audience[], string[]][];
  it.each(cases)('in the order %s: each audience gets its own bytes, ETag and 304', async (_name, order, paths) => {
    const fresh = await server();
    try {
      for (const path of paths) {
        for (const accept of ACCEPTS) {
          for (const audience of order as Audience[]) {
            const res = await get(fresh.port, path, { 'x-forwarded-user': AUDIENCES[audience], accept });
            const own = baseline.get(key(audience, path, accept))!;
            if (res.text !== own.text) throw new Error(`${audience} ${accept} ${path} (order ${(order as string[]).join(', ')}): not its own bytes`);
            expect(res.headers.etag).toBe(own.etag);
          }
          // Revalidating with another audience's ETag is a 304 only where the bytes are the same.
          const [first, second] = order as Audience[];
          const theirs = baseline.get(key(first, path, accept))!;
          const mine = baseline.get(key(second, path, accept))!;
          const revalidated = await get(fresh.port, path, { 'x-forwarded-user': AUDIENCES[second], accept, 'if-none-match': theirs.etag! });
          expect([path, accept, revalidated.status]).toEqual([path, accept, theirs.etag === mine.etag ? 304 : 200]);
        }
      }
    } finally {
      await fresh.close();
    }
  });
});
