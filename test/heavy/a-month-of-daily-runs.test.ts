import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { container as root } from 'tsyringe';
import { registerAdapters } from '../../src/infrastructure/register-adapters';
import { RUN_STORE, type RunStore } from '../../src/ports/run-store';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import { REFERENCE, svc } from '../support/run-svc';
import { HIDE_COUNTS, sdrFromStore } from '../support/sdr-from-store';
import { openedText } from '../support/stored-documents';

// The bench's daily series (scripts/bench/daily-runs.js): day d is day d-1 with 1% of the results changed.
const daily = require('../../scripts/bench/daily-runs') as {
  generateDay(n: number, day: number, file: string): number;
  dateOf(day: number): string;
  recordedAt(day: number): string;
  treeBytes(dir: string): number;
};

/*
 * Issue 35, heavy tier (`npm run test:heavy`; skipped unless SVC_HEAVY=1): forty daily runs of a changing
 * 20,000-result report (1% of its results changed a day), recorded into the file store and PostgreSQL with
 * conmon.retention.keep_days 31 (so that the first eight are pruned), an OCR recorded on the way, and into a file store that keeps everything. Checked:
 * every run after the first adds at most 5% of the first run's bytes, in every store (judged from 10,000 results: a
 * run's own files, its index entry and lists, are tens of KB whatever its size); every run reads back, its chain
 * verifying; what pruning removed reads as pruned while every run of the OCR's snapshot still reads whole; the SDR of
 * day 40 is the same from every store, and the same as the one built the old way, from every run's evidence.
 */
const HEAVY = process.env.SVC_HEAVY === '1';
const RESULTS = Number(process.env.SVC_HEAVY_DAILY_RESULTS ?? 20_000);
const RUNS = 40;
/** The series' day of run k (1-based). */
const dayOf = (k: number) => k;
/** conmon.retention.keep_days of the stores that prune (31 at least): the runs of the first eight days are pruned by the last. */
const KEEP_DAYS = 31;
/** Issue 35's bound: a run with 1% of its results changed adds at most this much of the first run's bytes. */
const BYTES_BOUND = 0.05;
/** The OCR is recorded after this run: its snapshot is that run. */
const OCR_AFTER = 5;
const NOW = `${daily.dateOf(dayOf(RUNS))}T12:00:00Z`;

/** The bytes of the svc_ tables, with their indexes and TOAST, after VACUUM (as the bench's daily-bytes). */
async function tablesBytes(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM');
    const { rows } = await client.query(
      "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND c.relname LIKE 'svc\\_%' AND n.nspname = 'public'",
    );
    return Number(rows[0].bytes);
  } finally {
    await client.end();
  }
}

(HEAVY ? describe : describe.skip)(`a month of daily runs (${RUNS} runs of ${RESULTS} results, 1% changed a day)`, () => {
  jest.setTimeout(4 * 60 * 60 * 1000);
  let dir: string;
  let postgres: PostgresServer;
  const stores: { name: string; cwd: string; env: NodeJS.ProcessEnv; bytes: number[] }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-heavy-month-'));
    postgres = await startPostgres();
    const rules = join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.10.05.01.json');
    const storeOf = (name: string, store: string, retention: boolean) => {
      const cwd = join(dir, name);
      mkdirSync(cwd);
      writeFileSync(
        join(cwd, 'svc.config.json'),
        JSON.stringify({ fedramp: PACKAGE_PROFILE, ...(retention ? { conmon: { retention: { keep_days: KEEP_DAYS } } } : {}) }),
      );
      return {
        name,
        cwd,
        env: {
          SVC_HOME: join(cwd, '.svc'),
          SVC_STORE: store,
          SVC_FEDRAMP_RULES: rules,
          SVC_CACHE_DIR: join(dir, 'cache'),
          NODE_OPTIONS: '--max-old-space-size=4096',
        },
        bytes: [] as number[],
      };
    };
    stores.push(storeOf('file', '', true), storeOf('postgres', postgres.url, true), storeOf('file-kept', '', false));
    const sizeOf = async (store: (typeof stores)[number]) =>
      store.env.SVC_STORE ? await tablesBytes(postgres.url) : daily.treeBytes(join(store.cwd, '.svc', 'store'));
    for (let k = 1; k <= RUNS; k++) {
      const report = join(dir, `day-${dayOf(k)}.json`);
      daily.generateDay(RESULTS, dayOf(k), report);
      for (const store of stores) {
        const before = await sizeOf(store);
        const run = svc(['conmon', 'process', report, '--now', daily.recordedAt(dayOf(k))], { cwd: store.cwd, env: store.env });
        if (run.status !== 0) throw new Error(`${store.name}, run ${k}: ${run.stderr}`);
        store.bytes.push((await sizeOf(store)) - before);
        if (k === OCR_AFTER) {
          const ocr = svc(['fedramp', 'ocr', '--to', daily.dateOf(dayOf(k)), '--now', `${daily.dateOf(dayOf(k))}T12:00:00Z`], {
            cwd: store.cwd,
            env: store.env,
          });
          if (ocr.status !== 0) throw new Error(`${store.name}, OCR: ${ocr.stderr}`);
        }
      }
      rmSync(report);
    }
    for (const store of stores) process.stdout.write(`${store.name}: bytes added by each run: ${store.bytes.join(', ')}\n`);
  });
  afterAll(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (store: (typeof stores)[number]) =>
    registerAdapters(root.createChildContainer(), { env: store.env, cwd: store.cwd }).resolve<RunStore>(RUN_STORE);

  it.each(['file', 'postgres'])('the %s store: every run reads back; pruning removed the old runs’ documents but the OCR snapshot’s', async (name) => {
    const store = open(stores.find((s) => s.name === name)!);
    try {
      const runs = await store.list();
      expect(runs.map((r) => r.seq)).toEqual(Array.from({ length: RUNS }, (_, i) => i + 1));
      // Each run whole, checked against its link: summary, record, POA&M state and events.
      for (const run of runs) expect((await store.get(run.seq))?.summary).toEqual(run);
      // Pruned: the runs before the newest run's as_of less KEEP_DAYS days, but the OCR's snapshot (run OCR_AFTER).
      const cutoff = Date.parse(runs.at(-1)!.as_of) - KEEP_DAYS * 86_400_000;
      const old = runs.filter((r) => Date.parse(r.as_of) < cutoff);
      expect(old.length).toBeGreaterThan(OCR_AFTER);
      for (const run of old) {
        const reading = openedText(await store.openDocument(run.seq, 'sar.json'));
        if (run.seq === OCR_AFTER) expect(JSON.parse(await reading)).toHaveProperty('assessment-results');
        else await expect(reading).rejects.toMatchObject({ code: 'run-pruned' });
        // What a pruned run keeps still reads: its KSI counts and its manifest.
        for (const kept of ['ksi-counts.json', 'manifest.json'])
          expect(JSON.parse(await openedText(await store.openDocument(run.seq, kept)))).toBeInstanceOf(Object);
      }
      for (const run of runs.filter((r) => Date.parse(r.as_of) >= cutoff))
        expect(JSON.parse(await openedText(await store.openDocument(run.seq, 'manifest.json')))).toHaveProperty('artifacts');
    } finally {
      await store.close();
    }
  });

  (RESULTS >= 10_000 ? it.each : it.skip.each)(['file', 'postgres', 'file-kept'])(
    'the %s store: each run after the first adds at most 5%% of the first run’s bytes',
    (name) => {
      const { bytes } = stores.find((s) => s.name === name)!;
      expect(bytes).toHaveLength(RUNS);
      const over = bytes
        .slice(1)
        .map((added, i) => ({ run: i + 2, share: added / bytes[0] }))
        .filter((run) => run.share > BYTES_BOUND);
      expect(over).toEqual([]);
    },
  );

  it('builds the same SDR from every store, and the same as from every run’s evidence (the old way)', async () => {
    const [file, pg, kept] = stores;
    const fromHistory = await sdrFromStore({ env: file.env, cwd: file.cwd, now: NOW });
    const fromEvidence = await sdrFromStore({ env: kept.env, cwd: kept.cwd, now: NOW, hide: HIDE_COUNTS });
    expect(fromEvidence.opened.get('evidence-bundle.json')).toBeGreaterThanOrEqual(RUNS);
    // The days read from the newest run's KSI history, no run's counts.
    expect([fromHistory.opened.get('ksi-history.json'), fromHistory.opened.get('ksi-counts.json')]).toEqual([1, undefined]);
    expect(JSON.stringify(fromHistory.document)).toBe(JSON.stringify(fromEvidence.document));
    expect(JSON.stringify((await sdrFromStore({ env: pg.env, cwd: pg.cwd, now: NOW })).document)).toBe(JSON.stringify(fromHistory.document));
    // The metrics read every day of the year since the first run: a day without a run stands on the run before it.
    const metrics = (fromHistory.document as { ksiMetrics: Record<string, { lastYear: { days: number } }> }).ksiMetrics;
    expect(Object.values(metrics)[0].lastYear.days).toBe(dayOf(RUNS));
  });
});
