import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { container as root } from 'tsyringe';
import { ProcessRun } from '../../src/application/conmon/process-run';
import { KSI_COUNTS_DOCUMENT, type KsiCounts } from '../../src/domain/conmon/ksi-counts';
import { KSI_HISTORY_DOCUMENT, readKsiHistory, replayKsiHistory } from '../../src/domain/conmon/ksi-history';
import { jsonText } from '../../src/domain/encoding/json-chunks';
import { EVIDENCE_BUNDLE_DOCUMENT } from '../../src/domain/conmon/run-record';
import { registerAdapters } from '../../src/infrastructure/register-adapters';
import { RUN_STORE, type AppendRequest, type RunStore } from '../../src/ports/run-store';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { REFERENCE, svc } from '../support/run-svc';
import { HIDE_COUNTS, HIDE_HISTORY, sdrFromStore } from '../support/sdr-from-store';

/*
 * Issue 35: the KSI metrics of a year of days read what each run stored when it was recorded, not its evidence: the
 * newest run's KSI history (one document for every run), else each run's KSI counts (a store recorded before svc kept
 * a history). The SDR built from either is the SDR built the old way, from every run's evidence bundle (what svc does
 * for a run recorded before it stored counts).
 */
const DAYS = 12;
/** The days recorded as an svc before the KSI history recorded them: the next run makes the history from their counts. */
const BEFORE_HISTORY = 6;
const NOW = '2026-11-20T12:00:00Z';
const KSIS = ['KSI-IAM-APM', 'KSI-CNA-RNT', 'KSI-SVC-ASM', 'KSI-MLA-OSM'];
/** A KSI that passes every day: after a source's first run, it is never among a run's changed rows. */
const STEADY = 'KSI-CMT-LMC';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-ksi-counts-'));
  env = {
    SVC_HOME: join(dir, '.svc'),
    SVC_STORE: '',
    SVC_CONFIG: join(dir, 'svc.config.json'),
    SVC_FEDRAMP_RULES: join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.10.05.01.json'),
    SVC_SIGNING_KEY: '',
  };
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: { ...PACKAGE_PROFILE, class: 'C' } }));
  // Two sources on alternate days, each KSI's status changing from day to day, some results of an id the catalog maps.
  for (let day = 1; day <= DAYS; day++) {
    const at = `2026-11-${String(day + 7).padStart(2, '0')}T06:00:00Z`;
    const tool = day % 2 === 0 ? 'Prowler' : 'ScubaGear';
    const results = KSIS.map((ksi, k) => ({
      ksi_id: ksi,
      status: (day + k) % 3 === 0 ? 'FAIL' : (day + k) % 5 === 0 ? 'WARN' : 'PASS',
      observed_at: at,
      checks: [{ id: `check-${k}`, status: 'PASS' }],
    }));
    results.push({ ksi_id: STEADY, status: 'PASS', observed_at: at, checks: [{ id: 'steady', status: 'PASS' }] });
    // An id of svc's catalog (reaching CR26 KSIs by its controls), and a scanner's own, which reaches none.
    results.push({ ksi_id: 'KSI-IAM-01', status: day % 4 === 0 ? 'FAIL' : 'PASS', observed_at: at, checks: [{ id: 'mfa', status: 'PASS' }] });
    results.push({ ksi_id: 'KSI-ZZZZ-01', status: 'FAIL', observed_at: at, checks: [{ id: 'own', status: 'FAIL' }] });
    const report = join(dir, `day-${day}.json`);
    writeFileSync(report, JSON.stringify({ schema_version: '1', generated_at: at, source: { tool, version: '1' }, results }));
    if (day <= BEFORE_HISTORY) await recordWithoutHistory(report, at);
    else {
      const run = svc(['conmon', 'process', report, '--now', at], { cwd: dir, env });
      if (run.status !== 0) throw new Error(run.stderr);
    }
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records `report` as an svc before the KSI history did: every document but ksi-history.json. */
async function recordWithoutHistory(report: string, at: string): Promise<void> {
  const container = registerAdapters(root.createChildContainer(), { env, cwd: dir });
  const store = container.resolve<RunStore>(RUN_STORE);
  const withoutHistory = (request: AppendRequest): AppendRequest => ({
    ...request,
    ...(request.produce === undefined ? {} : { produce: async (run) => (await request.produce!(run)).filter((d) => d.name !== KSI_HISTORY_DOCUMENT) }),
  });
  container.register(RUN_STORE, {
    useValue: Object.assign(Object.create(store) as RunStore, {
      appendAll: async (requests: AsyncIterable<AppendRequest> | Iterable<AppendRequest>) => {
        const all: AppendRequest[] = [];
        for await (const request of requests) all.push(withoutHistory(request));
        return store.appendAll(all);
      },
    }),
  });
  await container.resolve(ProcessRun).executeAll({ inputs: [report], now: new Date(at) });
  await store.close();
}

/** The text of a stored document of run `seq`. */
async function documentOf(seq: number, name: string): Promise<string | undefined> {
  const container = registerAdapters(root.createChildContainer(), { env, cwd: dir });
  const store = container.resolve<RunStore>(RUN_STORE);
  try {
    const opened = await store.openDocument(seq, name);
    if (opened === undefined) return undefined;
    let text = '';
    for await (const chunk of opened.chunks) text += Buffer.from(chunk).toString('utf8');
    return text;
  } finally {
    await store.close();
  }
}

/** The SDR of the store's latest run (test/support/sdr-from-store.ts). */
function sdrOf(hide: readonly string[], times = 1, now = NOW): ReturnType<typeof sdrFromStore> {
  return sdrFromStore({ env, cwd: dir, now, hide, times });
}

describe('KSI metrics from the counts stored with each run (issue 35)', () => {
  it('stores each run’s counts: a row per id a KSI can be reached from, the others counted', async () => {
    expect(JSON.parse((await documentOf(1, KSI_COUNTS_DOCUMENT))!)).toEqual({
      schema: 'svc.ksi-counts/v1',
      ksis: [
        { ksi_id: 'KSI-CMT-LMC', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-CNA-RNT', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-IAM-01', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-IAM-APM', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-MLA-OSM', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-SVC-ASM', pass: 0, fail: 1, other: 0 },
      ],
      unmapped: 1,
    });
  });

  it('keeps in the newest run a KSI history of every run, made from the counts of the runs recorded before it, each run’s rows that changed', async () => {
    expect(await documentOf(BEFORE_HISTORY, KSI_HISTORY_DOCUMENT)).toBeUndefined();
    const text = (await documentOf(DAYS, KSI_HISTORY_DOCUMENT))!;
    const history = readKsiHistory(JSON.parse(text));
    if (typeof history === 'string') throw new Error(history);
    // Canonical JSON, as every document svc stores.
    expect(jsonText(JSON.parse(text), 'canonical')).toBe(text);
    expect(history.from).toBeUndefined();
    expect(history.runs.map((r) => [r.seq, r.source])).toEqual(Array.from({ length: DAYS }, (_, k) => [k + 1, (k + 1) % 2 === 0 ? 'Prowler' : 'ScubaGear']));
    // Replayed, each run's rows are its stored counts, those recorded before the history and after.
    // (A run's rows are its source's as the replay stands at it: read before the replay goes on.)
    for (const { entry, rows } of replayKsiHistory(history.runs)) {
      const replayed = [...rows!.values()].sort((a, b) => a.ksi_id.localeCompare(b.ksi_id));
      const counts = JSON.parse((await documentOf(entry.seq, KSI_COUNTS_DOCUMENT))!) as { ksis: KsiCounts[] };
      expect(replayed).toEqual(counts.ksis);
    }
    // A source's first run says every row; its later ones only those that changed (the steady KSI never does).
    expect(history.runs.map((entry) => entry.changed!.some((r) => r.ksi_id === STEADY))).toEqual(Array.from({ length: DAYS }, (_, k) => k < 2));
  });

  it('builds the SDR from the newest run’s KSI history alone, as from every run’s counts and from every run’s evidence (the old way)', async () => {
    const fromHistory = await sdrOf([]);
    const fromCounts = await sdrOf(HIDE_HISTORY);
    const fromEvidence = await sdrOf(HIDE_COUNTS);
    expect(JSON.stringify(fromHistory.document)).toBe(JSON.stringify(fromEvidence.document));
    expect(JSON.stringify(fromCounts.document)).toBe(JSON.stringify(fromEvidence.document));
    expect(
      (fromHistory.document as { ksiMetrics: Record<string, { last30Days: { implemented: number; notImplemented: number } }> }).ksiMetrics['KSI-IAM-APM']
        .last30Days,
    ).toMatchObject({ implemented: expect.any(Number), notImplemented: expect.any(Number) });
    // With the history: one document for every day; only the state's latest run of each source is read whole.
    expect([
      fromHistory.opened.get(KSI_HISTORY_DOCUMENT),
      fromHistory.opened.get(KSI_COUNTS_DOCUMENT),
      fromHistory.opened.get(EVIDENCE_BUNDLE_DOCUMENT),
    ]).toEqual([1, undefined, 2]);
    // With counts: every day's runs read their counts.
    expect([fromCounts.opened.get(KSI_COUNTS_DOCUMENT), fromCounts.opened.get(EVIDENCE_BUNDLE_DOCUMENT)]).toEqual([DAYS, 2]);
    // Without: every run's evidence.
    expect(fromEvidence.opened.get(EVIDENCE_BUNDLE_DOCUMENT)).toBe(DAYS + 2);
  });

  it('reads the history for a time before the newest runs, leaving them out as the old way does', async () => {
    const before = '2026-11-16T12:00:00Z';
    const fromHistory = await sdrOf([], 1, before);
    expect(fromHistory.opened.get(KSI_HISTORY_DOCUMENT)).toBe(1);
    expect(JSON.stringify(fromHistory.document)).toBe(JSON.stringify((await sdrOf(HIDE_COUNTS, 1, before)).document));
  });

  it('reads each run’s counts once for the life of the builder: a second SDR reads only the latest runs again', async () => {
    const twice = await sdrOf(HIDE_HISTORY, 2);
    expect(JSON.stringify(twice.document)).toBe(JSON.stringify((await sdrOf(HIDE_HISTORY)).document));
    expect([twice.opened.get(KSI_COUNTS_DOCUMENT), twice.opened.get(EVIDENCE_BUNDLE_DOCUMENT)]).toEqual([DAYS, 4]);
  });
});
