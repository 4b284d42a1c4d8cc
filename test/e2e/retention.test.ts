import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FileRunStore } from '../../src/infrastructure/store/file-run-store';
import { buildApi } from '../../src/interfaces/http/server';
import { capturingLogger, proxyConfig } from '../support/api';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';
import { removeStoredDocument, storedDocumentNames } from '../support/stored-documents';

/*
 * Issue 35: conmon.retention prunes old runs' full documents after each recording, but the latest run of each source
 * and the runs of a recorded OCR's snapshot; the pruning is a journal entry; the KSI metrics, the OCR snapshot's
 * documents and the chain read as before.
 */
const RUNS: { source: string; at: string }[] = [
  { source: 'ScubaGear', at: '2026-09-01T06:00:00Z' },
  { source: 'Prowler', at: '2026-09-06T06:00:00Z' },
  { source: 'ScubaGear', at: '2026-09-11T06:00:00Z' },
  { source: 'ScubaGear', at: '2026-09-21T06:00:00Z' },
  // (the OCR of the period ending 2026-09-21 is recorded here: its snapshot holds runs 2 and 4)
  { source: 'ScubaGear', at: '2026-10-01T06:00:00Z' },
  { source: 'ScubaGear', at: '2026-10-11T06:00:00Z' },
  { source: 'ScubaGear', at: '2026-10-23T06:00:00Z' },
];
const NOW = '2026-10-23T12:00:00Z';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-retention-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A working directory with the profile (and `retention` when given), each run recorded in turn; the outputs. */
function record(name: string, retention?: { keep_days: number }): { dir: string; env: NodeJS.ProcessEnv; outputs: SvcRun[] } {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'svc.config.json'),
    JSON.stringify({ fedramp: { ...PACKAGE_PROFILE, class: 'C' }, ...(retention === undefined ? {} : { conmon: { retention } }) }),
  );
  const env = {
    SVC_HOME: join(dir, '.svc'),
    SVC_STORE: '',
    SVC_FEDRAMP_RULES: join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.10.05.01.json'),
    SVC_CACHE_DIR: join(tmp, 'cache'),
  };
  const ok = (args: string[]) => {
    const run = svc(args, { cwd: dir, env });
    if (run.status !== 0) throw new Error(`svc ${args.join(' ')}: ${run.stderr}`);
    return run;
  };
  const outputs = RUNS.map(({ source, at }, i) => {
    const day = Number(at.slice(8, 10));
    const results = ['KSI-IAM-APM', 'KSI-CNA-RNT', 'KSI-SVC-ASM'].map((ksi, k) => ({
      ksi_id: ksi,
      status: (day + k) % 3 === 0 ? 'FAIL' : 'PASS',
      observed_at: at,
      checks: [{ id: `${source}-${k}`, status: 'PASS' }],
    }));
    writeFileSync(join(dir, `run-${i + 1}.json`), JSON.stringify({ schema_version: '1', generated_at: at, source: { tool: source, version: '1' }, results }));
    const run = ok(['conmon', 'process', `run-${i + 1}.json`, '--now', at]);
    if (i === 3) ok(['fedramp', 'ocr', '--to', '2026-09-21', '--now', '2026-09-21T12:00:00Z']);
    return run;
  });
  return { dir, env, outputs };
}

describe('conmon.retention (issue 35)', () => {
  let kept: ReturnType<typeof record>;
  let pruned: ReturnType<typeof record>;
  beforeAll(() => {
    kept = record('kept');
    pruned = record('pruned', { keep_days: 31 });
  });

  it('prunes, after a recording, the runs older than keep_days before the newest run, but each source’s latest and the OCR snapshot’s', () => {
    const lines = pruned.outputs.map((o) => o.stdout.split('\n').find((l) => l.startsWith('Pruned: ')));
    expect(lines).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      // 2026-10-11 less 31 days: run 1 (2026-09-01) is old enough; run 2 is Prowler's latest, runs 2 and 4 the OCR's.
      expect.stringMatching(
        /^Pruned: 1 run as of before 2026-09-10T06:00:00Z \(conmon\.retention\.keep_days 31, journal entry 2\): \d+ documents, \d+ bytes removed; their summaries, chain links, POA&M state, events and KSI counts are kept$/,
      ),
      // 2026-10-23 less 31 days: run 3 (2026-09-11) too.
      expect.stringMatching(
        /^Pruned: 1 run as of before 2026-09-22T06:00:00Z \(conmon\.retention\.keep_days 31, journal entry 3\): \d+ documents, \d+ bytes removed; /,
      ),
    ]);
    expect(kept.outputs.every((o) => !o.stdout.includes('Pruned: '))).toBe(true);
  });

  it('keeps a pruned run’s KSI counts, manifest and document list; records each pruning in the journal', async () => {
    const store = new FileRunStore({ dir: join(pruned.dir, '.svc', 'store') });
    const runs = await store.list();
    expect(runs).toHaveLength(7);
    const left = (seq: number) => storedDocumentNames(join(pruned.dir, '.svc', 'store', 'documents', runs[seq - 1].id)).sort();
    expect([left(1), left(3)]).toEqual([
      ['.list.json', 'ksi-counts.json', 'manifest.json'],
      ['.list.json', 'ksi-counts.json', 'manifest.json'],
    ]);
    expect(left(2).length).toBe(left(7).length);
    expect(left(4)).toContain('evidence-bundle.json');
    const entries = await store.journal('run-prune');
    expect(entries.map((e) => (e.record as { runs: { seq: number }[] }).runs.map((r) => r.seq))).toEqual([[1], [3]]);
    await expect(
      (async () => {
        for await (const chunk of (await store.openDocument(1, 'evidence-bundle.json'))!.chunks) void chunk;
      })(),
    ).rejects.toMatchObject({ code: 'run-pruned' });
    expect((await store.get(1))?.summary.seq).toBe(1);
  });

  it('writes the same SDR as a store that kept everything: the KSI metrics come from the counts each run kept', () => {
    const sdr = ({ dir, env }: ReturnType<typeof record>) => {
      const run = svc(['fedramp', 'sdr', 'run-7.json', '--out', 'sdr.json', '--now', NOW], { cwd: dir, env });
      if (run.status !== 0) throw new Error(run.stderr);
      return JSON.parse(readFileSync(join(dir, 'sdr.json'), 'utf8')) as { ksiMetrics: unknown };
    };
    const fromPruned = sdr(pruned);
    expect(fromPruned.ksiMetrics).toBeDefined();
    expect(fromPruned).toEqual(sdr(kept));
  });

  it('svc-api still serves the current documents and every document of the OCR snapshot', async () => {
    const api = buildApi(proxyConfig(), {
      env: {
        ...process.env,
        ...pruned.env,
        SVC_SIGNING_KEY: '',
        SVC_CONFIG: join(pruned.dir, 'svc.config.json'),
        SOURCE_DATE_EPOCH: String(Date.parse(NOW) / 1000),
      },
      cwd: pruned.dir,
      logger: capturingLogger().logger,
    });
    const get = (path: string) => request(api.handler).get(path).set('X-Forwarded-User', 'alice@SVC.TEST').set('Accept', 'application/json');
    for (const path of ['/auditor/manifest', '/auditor/evidence', '/fedramp/sdr', '/fedramp/metrics', '/fedramp/snapshots'])
      expect([path, (await get(path)).status]).toEqual([path, 200]);
    for (const document of ['cpo', 'sdr', 'ocr', 'vdr', 'metrics'])
      expect([document, (await get(`/fedramp/${document}?snapshot=2026-09-21`)).status]).toEqual([document, 200]);
  });

  it('still reports a document removed from a run no pruning names as tampering (after the others: it breaks the store)', async () => {
    const root = join(pruned.dir, '.svc', 'store');
    const store = new FileRunStore({ dir: root });
    const second = (await store.list())[1];
    removeStoredDocument(join(root, 'documents', second.id), 'sar.json');
    await expect(
      (async () => {
        for await (const chunk of (await store.openDocument(2, 'sar.json'))!.chunks) void chunk;
      })(),
    ).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining(`run ${second.id} is a document of run 2 that index.json lists, but its file is missing`),
    });
  });

  it('refuses a keep_days under a month, naming the key', () => {
    const dir = join(tmp, 'short');
    mkdirSync(dir);
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ conmon: { retention: { keep_days: 7 } } }));
    const run = svc(['conmon', 'process', join(pruned.dir, 'run-1.json')], { cwd: dir, env: { SVC_HOME: join(dir, '.svc'), SVC_STORE: '' } });
    expect([run.status, run.stderr.trim()]).toEqual([
      3,
      `Error: ${join(dir, 'svc.config.json')}: conmon.retention.keep_days: expected a whole number of days, at least 31, got 7; see docs/configuration.md`,
    ]);
  });
});
