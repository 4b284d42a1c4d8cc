import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { RunLoader } from '../../../src/application/shared/run-loader';
import { needsPoam, poamId } from '../../../src/domain/artifacts/poam';
import { formatDigest } from '../../../src/domain/evidence/content-digest';
import { buildApi } from '../../../src/interfaces/http/server';
import { RUN_STORE } from '../../../src/ports/run-store';
import { capturingLogger, proxyConfig } from '../../support/api';
import { svc } from '../../support/run-svc';
import { readStoredDocument, storedDocumentNames } from '../../support/stored-documents';

const { generate } = require('../../../scripts/bench/generate-report.js') as { generate: (n: number, file: string, variant?: string) => number };

const AUDITOR = { 'X-Forwarded-User': 'alice@SVC.TEST' };
type Item = Record<string, unknown>;
interface Listed {
  items: Item[];
  total: number;
  next_cursor: string | null;
}

/**
 * A run of 2,500 results recorded by `svc conmon process`: the list routes page through its stored page documents
 * (three evidence pages) and give what the routes computed from the whole run in memory before they were stored.
 */
describe('svc-api list routes over a run of 2,500 results, from its stored pages', () => {
  let home: string;
  let api: ReturnType<typeof buildApi>;
  /** What the routes computed from the whole run before the pages: evidence entries with their statuses, findings, POA&M. */
  let before: { entries: Item[]; statuses: string[]; findings: Item[]; poam: Item[]; tag: string };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'svc-api-pages-'));
    generate(2_500, join(home, 'report.json'));
    const run = svc(['conmon', 'process', join(home, 'report.json')], { env: { SVC_HOME: home, SVC_STORE: '', SVC_SIGNING_KEY: '' } });
    expect([run.status, run.stderr.replace(/^Warning: no signing key given.*\n/, '')]).toEqual([0, '']);
    api = buildApi(proxyConfig(), { env: { ...process.env, SVC_HOME: home, SVC_STORE: '', SVC_SIGNING_KEY: '' }, cwd: home, logger: capturingLogger().logger });
    const stored = (await api.container.resolve(RUN_STORE).latest())!;
    // The report read whole, the ordinary way, and the stored bundle parsed whole: the pages must say the same.
    const loaded = await api.container.resolve(RunLoader).load({ input: join(home, 'report.json') });
    const findings = loaded.results
      .filter(({ item }) => item.result.status !== 'PASS')
      .map(({ item, hash }) => ({
        ksi_id: item.result.ksi_id,
        status: item.result.status,
        title: item.result.title ?? null,
        details: item.result.details ?? null,
        observed_at: item.result.observed_at ?? null,
        controls: item.definition?.controls ?? [],
        action: item.action,
        poam_id: needsPoam(item) ? poamId(item.result.ksi_id) : null,
        content_hash: formatDigest(hash),
      }));
    before = {
      entries: (
        JSON.parse(readStoredDocument(join(home, 'store', 'documents', stored.summary.id), 'evidence-bundle.json').toString('utf8')) as { entries: Item[] }
      ).entries,
      statuses: loaded.results.map((r) => r.item.result.status),
      findings: JSON.parse(JSON.stringify(findings)),
      poam: stored.poam as unknown as Item[],
      tag: stored.summary.id.slice(0, 16),
    };
  }, 120_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /** Every page of `path` at limit 1000, following next_cursor to its null. */
  const pages = async (path: string): Promise<Listed[]> => {
    const out: Listed[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await request(api.handler)
        .get(`${path}${path.includes('?') ? '&' : '?'}limit=1000${cursor ? `&cursor=${cursor}` : ''}`)
        .set(AUDITOR);
      expect(res.status).toBe(200);
      out.push(res.body as Listed);
      cursor = (res.body as Listed).next_cursor;
    } while (cursor !== null && out.length < 10);
    return out;
  };
  const items = (listed: Listed[]) => listed.flatMap((l) => l.items);

  it('stores each list as pages of at most 1,000 items and an index', () => {
    const [id] = readdirSync(join(home, 'store', 'documents'));
    const names = storedDocumentNames(join(home, 'store', 'documents', id)).filter((n) => /^(evidence|findings|poam)\.(\d{6}|index)\.json$/.test(n));
    const findingPages = Math.ceil(before.findings.length / 1000);
    const poamPages = Math.ceil(before.poam.length / 1000);
    expect(names.sort()).toEqual(
      [
        'evidence.000000.json',
        'evidence.000001.json',
        'evidence.000002.json',
        'evidence.index.json',
        ...Array.from({ length: findingPages }, (_, n) => `findings.00000${n}.json`),
        'findings.index.json',
        ...Array.from({ length: poamPages }, (_, n) => `poam.00000${n}.json`),
        'poam.index.json',
      ].sort(),
    );
  });

  it('GET /auditor/evidence pages through the 2,500 entries as recorded, the cursors at 1000 and 2000', async () => {
    const listed = await pages('/auditor/evidence');
    expect(listed.map((l) => [l.items.length, l.total, l.next_cursor])).toEqual([
      [1000, 2500, `1000.${before.tag}`],
      [1000, 2500, `2000.${before.tag}`],
      [500, 2500, null],
    ]);
    expect(items(listed)).toEqual(before.entries);
  });

  it.each([['FAIL'], ['WARN'], ['FAIL,PASS']])('GET /auditor/evidence?status=%s gives the matching entries, with their total', async (status) => {
    const wanted = status.split(',');
    const expected = before.entries.filter((_, i) => wanted.includes(before.statuses[i]));
    const listed = await pages(`/auditor/evidence?status=${status}`);
    expect(listed.every((l) => l.total === expected.length)).toBe(true);
    expect(listed.at(-1)!.next_cursor).toBeNull();
    expect(items(listed)).toEqual(expected);
  });

  it('GET /auditor/evidence?ksi=… finds KSIs on both sides of page boundaries, and pages through them', async () => {
    const positions = [0, 998, 999, 1000, 1001, 1999, 2000, 2499];
    const ksis = positions.map((i) => before.entries[i].ksi_id as string);
    const query = `/auditor/evidence?ksi=${[...ksis].reverse().join(',')},KSI-ZZZZ-99,KSI-AAA-00`;
    const one = await request(api.handler).get(query).set(AUDITOR);
    expect([one.body.items, one.body.total, one.body.next_cursor]).toEqual([positions.map((i) => before.entries[i]), 8, null]);
    const seen: Item[] = [];
    let cursor: string | null = null;
    const cursors: (string | null)[] = [];
    do {
      const res: request.Response = await request(api.handler)
        .get(`${query}&limit=3${cursor ? `&cursor=${cursor}` : ''}`)
        .set(AUDITOR);
      expect(res.body.total).toBe(8);
      seen.push(...res.body.items);
      cursor = res.body.next_cursor;
      cursors.push(cursor);
    } while (cursor !== null);
    expect(seen).toEqual(positions.map((i) => before.entries[i]));
    expect(cursors).toEqual([`1000.${before.tag}`, `2000.${before.tag}`, null]);
    const failing = before.entries.filter((e, i) => ksis.includes(e.ksi_id as string) && before.statuses[i] === 'FAIL');
    expect((await request(api.handler).get(`${query}&status=FAIL`).set(AUDITOR)).body.items).toEqual(failing);
  });

  it.each([[''], ['?status=FAIL'], ['?status=WARN'], ['?severity=High'], ['?severity=Critical,Low'], ['?status=FAIL&severity=High,Medium']])(
    'GET /auditor/findings%s gives what the whole run gave',
    async (filter) => {
      const params = new URLSearchParams(filter.slice(1));
      const statuses = params.get('status')?.split(',');
      const severities = params.get('severity')?.split(',');
      const expected = before.findings.filter(
        (f) => (!statuses || statuses.includes(f.status as string)) && (!severities || severities.includes((f.action as { severity: string }).severity)),
      );
      expect(expected.length).toBeGreaterThan(0);
      const listed = await pages(`/auditor/findings${filter}`);
      expect(listed.every((l) => l.total === expected.length)).toBe(true);
      expect(listed.at(-1)!.next_cursor).toBeNull();
      expect(listed.slice(0, -1).every((l) => l.items.length === 1000)).toBe(true);
      expect(items(listed)).toEqual(expected);
    },
  );

  it.each([[''], ['?status=Open'], ['?status=Closed'], ['?overdue=false'], ['?status=Open&overdue=true']])(
    'GET /auditor/poam%s gives what the whole run gave',
    async (filter) => {
      const params = new URLSearchParams(filter.slice(1));
      const expected = before.poam.filter(
        (p) => (!params.has('status') || p.status === params.get('status')) && (!params.has('overdue') || String(p.overdue) === params.get('overdue')),
      );
      const listed = await pages(`/auditor/poam${filter}`);
      expect(listed.every((l) => l.total === expected.length)).toBe(true);
      expect(listed.at(-1)!.next_cursor).toBeNull();
      expect(items(listed)).toEqual(expected);
    },
  );

  it('the POA&M list of this run is long enough to page', () => {
    expect(before.poam.length).toBeGreaterThan(1000);
    expect(before.findings.length).toBeGreaterThan(1000);
  });
});
