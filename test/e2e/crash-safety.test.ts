import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRunStore } from '../../src/infrastructure/store/file-run-store';
import { BIN, ROOT, svc } from '../support/run-svc';
import { hasStoredState, readStoredDocument, storedDocumentNames } from '../support/stored-documents';

const { generate } = require('../../scripts/bench/generate-report.js') as { generate: (n: number, file: string, variant?: string) => number };

/**
 * Crash safety: `ir auditor-bundle` and `conmon process` are killed with SIGKILL at pseudo-random points, and what
 * they leave is checked. The points come from a seeded generator and are measured from one of a few moments of the
 * command, in turn: its start (a point anywhere up to a little past its whole duration in an unkilled pilot run here),
 * and the moments it starts writing, seen by watching the disk every 2 ms (a point anywhere up to a little past the
 * time from there to the end in the pilot). So whatever the machine's load, kills land in the moves, renames and lock
 * handling as well as before them.
 */
const BUNDLE_RESULTS = 20_000;
const BUNDLE_KILLS = 10;
const STORE_RESULTS = 3_000;
const STORE_KILLS = 9;
const SIX = ['evidence-bundle.json', 'governance-report.md', 'lineage.json', 'manifest.json', 'poam.json', 'ssp-narrative.md'];
const ENV = { SOURCE_DATE_EPOCH: '1767225600' };

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-crash-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** mulberry32: the same seed gives the same kill points on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Moments of a run, each seen when its test first holds for the process's pid. */
type Moments = Record<string, (pid: number) => boolean>;

interface KillPoint {
  /** `start`, or one of the moments. */
  from: string;
  delay: number;
}

interface Run {
  /** Exit code when the command finished before the kill, else null. */
  status: number | null;
  signal: NodeJS.Signals | null;
  pid: number;
  stderr: string;
  /** When each moment was first seen, ms after the start (missing when the process ended before). */
  seen: Record<string, number>;
  /** From the start to the end, ms. */
  ms: number;
}

/** `count` kill points taking the start and each moment in turn, from 0 (5 ms from the start) to 1.2 times what the pilot took from there to its end. */
function killPoints(seed: number, count: number, pilot: Run, moments: Moments): KillPoint[] {
  const next = seeded(seed);
  const froms = ['start', ...Object.keys(moments)];
  return Array.from({ length: count }, (_, i) => {
    const from = froms[i % froms.length];
    const span = 1.2 * (pilot.ms - (from === 'start' ? 0 : pilot.seen[from]));
    return { from, delay: Math.round((from === 'start' ? 5 : 0) + span * next()) };
  });
}

/** Runs the CLI, watching for the moments every 2 ms, and sends SIGKILL at `point` (never without one); resolves once the process is gone and reaped. */
function runAndKill(point: KillPoint | undefined, args: string[], moments: Moments, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...ENV, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    const pid = child.pid as number;
    const seen: Record<string, number> = {};
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const kill = () => child.kill('SIGKILL');
    const timers = point?.from === 'start' ? [setTimeout(kill, point.delay)] : [];
    const watch = setInterval(() => {
      for (const [name, reached] of Object.entries(moments)) {
        if (seen[name] !== undefined || !reached(pid)) continue;
        seen[name] = Date.now() - started;
        if (point?.from === name) timers.push(setTimeout(kill, point.delay));
      }
    }, 2);
    child.on('close', (status, signal) => {
      clearInterval(watch);
      timers.forEach(clearTimeout);
      resolve({ status, signal, pid, stderr, seen, ms: Date.now() - started });
    });
  });
}

const label = (point: KillPoint) => `${point.from === 'start' ? '' : `${point.from}+`}${point.delay}ms`;
const pilotLabel = (pilot: Run) =>
  `T=${pilot.ms}ms${Object.entries(pilot.seen)
    .map(([name, at]) => `, ${name} at ${at}ms`)
    .join('')}`;
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const digests = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((f) => !f.startsWith('.'))
      .map((f) => [f, sha(join(dir, f))]),
  );
/**
 * The members of a bundle directory that was replaced at least once, checking its layout: each member a link through
 * `.svc-current`, which names the one generation there, and nothing else hidden.
 */
function generational(dir: string): string[] {
  const names = readdirSync(dir).sort();
  const hidden = names.filter((f) => f.startsWith('.'));
  const generation = readlinkSync(join(dir, '.svc-current'));
  expect(hidden).toEqual(['.svc-current', generation]);
  const members = names.filter((f) => !f.startsWith('.'));
  for (const f of members) expect(readlinkSync(join(dir, f))).toBe(`.svc-current/${f}`);
  expect(readdirSync(join(dir, generation)).sort()).toEqual(members);
  return members;
}
/** Whether a file of `dir` names process `pid` (a temporary name, or a lock file's owner). */
const tagged = (dir: string, pid: number) => existsSync(dir) && readdirSync(dir).some((f) => f.includes('.svc-tmp-') && f.includes(`-${pid}-`));
const lockedBy = (path: string, pid: number) => {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { pid: number }).pid === pid;
  } catch {
    return false;
  }
};

describe('svc ir auditor-bundle killed with SIGKILL while it replaces a bundle', () => {
  it(`leaves the previous bundle or the new one, whole, at each of ${BUNDLE_KILLS} kill points, and the next run leaves nothing else behind`, async () => {
    const inputs = { A: join(tmp, 'report-a.json'), B: join(tmp, 'report-b.json') };
    generate(BUNDLE_RESULTS, inputs.A, 'a');
    generate(BUNDLE_RESULTS, inputs.B, 'b');
    const out = join(tmp, 'out');
    const bundle = join(out, 'bundle');
    // B written into a new directory (a single rename), then A over it: the pilot, unkilled, timed.
    expect(svc(['ir', 'auditor-bundle', inputs.B, '--out-dir', bundle]).status).toBe(0);
    const reference = { A: {}, B: digests(bundle) } as Record<'A' | 'B', Record<string, string>>;
    // The staging directory appears in the bundle; the commit lock is taken to move the members in.
    const moments: Moments = { staging: (pid) => tagged(bundle, pid), commit: (pid) => lockedBy(join(bundle, '.svc-commit.lock'), pid) };
    const pilot = await runAndKill(undefined, ['ir', 'auditor-bundle', inputs.A, '--out-dir', bundle], moments);
    expect([pilot.status, pilot.stderr, Object.keys(pilot.seen).sort()]).toEqual([0, '', ['commit', 'staging']]);
    reference.A = digests(bundle);
    expect(generational(bundle)).toEqual(SIX);
    expect(Object.keys(reference.B).sort()).toEqual(SIX);
    expect(SIX.filter((f) => reference.A[f] === reference.B[f])).toEqual([]);

    const seen: string[] = [];
    let current: 'A' | 'B' = 'A';
    for (const point of killPoints(10, BUNDLE_KILLS, pilot, moments)) {
      const next: 'A' | 'B' = current === 'A' ? 'B' : 'A';
      const run = await runAndKill(point, ['ir', 'auditor-bundle', inputs[next], '--out-dir', bundle], moments);
      const now = digests(bundle);
      const state = (['A', 'B'] as const).find((name) => JSON.stringify(now) === JSON.stringify(reference[name]));
      const hidden = readdirSync(bundle).filter((f) => f.includes('.svc-tmp-'));
      const at = label(point);
      // Never a mix: the directory holds the previous bundle or the new one, whole, and ir validate says so.
      expect({ at, state }).toEqual({ at, state: expect.stringMatching(/^[AB]$/) });
      expect({ at, validate: svc(['ir', 'validate', bundle]).status }).toEqual({ at, validate: 0 });
      if (run.signal === null) expect({ at, status: run.status, stderr: run.stderr, state }).toEqual({ at, status: 0, stderr: '', state: next });
      seen.push(
        `${at}:${run.signal === null ? 'finished' : state === current ? 'kept' : 'replaced'}${hidden.length > 0 ? `+${hidden.map((f) => f.split('.svc-tmp-')[0] || f).join(',')}` : ''}`,
      );
      current = state as 'A' | 'B';
    }
    process.stdout.write(`auditor-bundle kills (${pilotLabel(pilot)}): ${seen.join(' ')}\n`);

    const next: 'A' | 'B' = current === 'A' ? 'B' : 'A';
    const last = svc(['ir', 'auditor-bundle', inputs[next], '--out-dir', bundle]);
    expect([last.status, last.stderr]).toEqual([0, '']);
    expect(digests(bundle)).toEqual(reference[next]);
    expect(generational(bundle)).toEqual(SIX);
    expect(readdirSync(out)).toEqual(['bundle']);
    expect(svc(['ir', 'validate', bundle])).toMatchObject({ status: 0, stderr: '' });
  }, 60_000);
});

describe('svc ir auditor-bundle killed at each step of replacing a bundle', () => {
  // SVC_FAILPOINT=<step> (src/infrastructure/artifacts/failpoint.ts) sends the process SIGKILL at that step of
  // bundle-generations.ts. The first two steps happen only while a bundle of plain files is adopted as a generation.
  const ADOPTION = ['bundle-adopt-current', 'bundle-adopted-one'];
  const STEPS = [...ADOPTION, 'bundle-generation', 'bundle-linked', 'bundle-switched'];
  let inputs: { A: string; B: string };
  let reference: Record<'A' | 'B', Record<string, string>>;
  beforeAll(() => {
    inputs = { A: join(tmp, 'step-a.json'), B: join(tmp, 'step-b.json') };
    generate(2_000, inputs.A, 'a');
    generate(2_000, inputs.B, 'b');
    reference = { A: {}, B: {} };
    for (const name of ['A', 'B'] as const) {
      expect(svc(['ir', 'auditor-bundle', inputs[name], '--out-dir', join(tmp, `plain-${name}`)]).status).toBe(0);
      reference[name] = digests(join(tmp, `plain-${name}`));
    }
  });

  for (const layout of ['plain files', 'generations'] as const) {
    it.each(layout === 'plain files' ? STEPS : STEPS.filter((s) => !ADOPTION.includes(s)))(
      `over a bundle of ${layout}: killed at %s, it leaves the old bundle or the new one, whole; the next run finishes`,
      async (step) => {
        const bundle = join(tmp, `step-${layout.replace(' ', '-')}-${step}`);
        cpSync(join(tmp, 'plain-A'), bundle, { recursive: true });
        if (layout === 'generations') {
          expect(svc(['ir', 'auditor-bundle', inputs.B, '--out-dir', bundle]).status).toBe(0);
          expect(svc(['ir', 'auditor-bundle', inputs.A, '--out-dir', bundle]).status).toBe(0);
          expect(generational(bundle)).toEqual(SIX);
        }
        const run = await runAndKill(undefined, ['ir', 'auditor-bundle', inputs.B, '--out-dir', bundle], {}, { SVC_FAILPOINT: step });
        expect(run.signal).toBe('SIGKILL');
        const expected = step === 'bundle-switched' ? 'B' : 'A';
        expect(digests(bundle)).toEqual(reference[expected]);
        expect(svc(['ir', 'validate', bundle])).toMatchObject({ status: 0, stderr: '' });

        const next = svc(['ir', 'auditor-bundle', inputs.A, '--out-dir', bundle]);
        expect([next.status, next.stderr]).toEqual([0, '']);
        expect(digests(bundle)).toEqual(reference.A);
        expect(generational(bundle)).toEqual(SIX);
        expect(svc(['ir', 'validate', bundle])).toMatchObject({ status: 0, stderr: '' });
      },
    );
  }
});

describe('svc conmon process killed with SIGKILL while it appends a run', () => {
  const home = () => join(tmp, 'home');
  const store = () => join(home(), 'store');
  const env = () => ({ SVC_HOME: home() });
  /** The runs as the CLI lists them. */
  const storedRuns = () => {
    const query = svc(['cql', 'query', 'FROM runs SELECT seq, id, as_of', '--json'], { env: env() });
    expect([query.status, query.stderr]).toEqual([0, '']);
    return (JSON.parse(query.stdout) as { rows: [number, string, string][] }).rows;
  };
  /**
   * The runs as the file store the CLI uses reads them (a CLI start per kill would double the test's time): the runs
   * from `seq` on read back whole and re-verified against their ids, every run file hashed here.
   */
  const readRuns = async (seq: number): Promise<[number, string, string][]> => {
    const reader = new FileRunStore({ dir: store() });
    const rows: [number, string, string][] = [];
    for (const summary of await reader.list()) {
      if (summary.seq >= seq) expect((await reader.get(summary.seq))?.summary).toEqual(summary);
      // The id is the SHA-256 of the record with its stored evidence bundle as `bundle` (recomputed here from the files).
      const head = readFileSync(join(store(), 'runs', `${summary.id}.json`), 'utf8');
      const bundle = readStoredDocument(join(store(), 'documents', summary.id), 'evidence-bundle.json');
      expect(
        createHash('sha256')
          .update('{"bundle":')
          .update(bundle)
          .update(`,${head.slice(1)}`)
          .digest('hex'),
      ).toBe(summary.id);
      expect(hasStoredState(store(), summary.seq, summary.id)).toBe(true);
      // Its documents were committed with it (reader.get checked their list against the chain).
      expect(storedDocumentNames(join(store(), 'documents', summary.id))).toEqual(
        expect.arrayContaining([
          '.list.json',
          'evidence-bundle.json',
          'manifest.json',
          'poam.json',
          'sap.json',
          'sar.json',
          'sar.json.dsse.json',
          'ssp.json',
          'graph.ac-2.json',
          'evidence.000000.json',
          'evidence.index.json',
          'findings.000000.json',
          'findings.index.json',
          'poam.000000.json',
          'poam.index.json',
        ]),
      );
      rows.push([summary.seq, summary.id, summary.as_of]);
    }
    return rows;
  };
  /** The lock names the process; later its first temporary file appears (its documents' directory, the run file, or the state file). */
  const moments: Moments = {
    lock: (pid) => lockedBy(join(store(), 'store.lock'), pid),
    writes: (pid) =>
      tagged(join(store(), 'runs'), pid) ||
      tagged(join(store(), 'states'), pid) ||
      (existsSync(join(store(), 'documents')) && tagged(join(store(), 'documents'), pid)),
  };
  /** The report of iteration i: the same results, a later generated_at, so each is a new run. */
  const asOf = (i: number) => `2026-11-10T${String(i + 1).padStart(2, '0')}:00:00Z`;

  it(`keeps the store readable, each run whole and recorded at most once, at each of ${STORE_KILLS} kill points; the next run takes the lock over`, async () => {
    const base = join(tmp, 'store-b.json');
    generate(STORE_RESULTS, join(tmp, 'store-a.json'), 'a');
    generate(STORE_RESULTS, base, 'b');
    const text = readFileSync(base, 'utf8');
    const input = (i: number) => {
      const file = join(tmp, `store-${i}.json`);
      writeFileSync(file, text.replace('"generated_at":"2026-11-10T00:00:00Z"', `"generated_at":"${asOf(i)}"`));
      return file;
    };
    expect(svc(['conmon', 'process', join(tmp, 'store-a.json')], { env: env() }).status).toBe(0);
    // The pilot, unkilled: a run after another one, as every run below is (it compares with its predecessor).
    const pilot = await runAndKill(undefined, ['conmon', 'process', input(0)], moments, env());
    expect([pilot.status, pilot.stderr, Object.keys(pilot.seen).sort()]).toEqual([0, '', ['lock', 'writes']]);
    let runs = storedRuns();
    expect(runs.map(([seq, , as]) => [seq, as])).toEqual([
      [1, '2026-11-10T00:00:00Z'],
      [2, asOf(0)],
    ]);

    const seen: string[] = [];
    const killed: number[] = [];
    for (const [k, point] of killPoints(20, STORE_KILLS, pilot, moments).entries()) {
      const at = label(point);
      const stale = existsSync(join(store(), 'store.lock'));
      const run = await runAndKill(point, ['conmon', 'process', input(k + 1)], moments, env());
      killed.push(run.pid);
      // A lock a killed process left was taken over when this process's name was seen in it.
      const tookOver = stale && run.seen.lock !== undefined;
      if (run.signal === null) expect({ at, status: run.status, stderr: run.stderr }).toEqual({ at, status: 0, stderr: '' });
      const lock = join(store(), 'store.lock');
      const locked = existsSync(lock);
      // A lock file a kill left is never empty: it names a killed process (this one, or an earlier one when this one
      // died before it got to the lock), so the next append can take it over.
      if (locked) expect(killed).toContain(JSON.parse(readFileSync(lock, 'utf8')).pid);
      const after = await readRuns(runs.length + 1);
      expect(after.slice(0, runs.length)).toEqual(runs);
      const added = after.slice(runs.length).map(([, , as]) => as);
      expect({ at, added }).toEqual({ at, added: run.signal === null || added.length > 0 ? [asOf(k + 1)] : [] });
      const leftovers = [store(), join(store(), 'runs'), join(store(), 'states'), join(store(), 'documents'), join(store(), 'pieces')].flatMap((d) =>
        readdirSync(d).filter((f) => f.includes('.svc-tmp-') || f.endsWith('.break')),
      );
      const orphans = readdirSync(join(store(), 'states')).filter(
        (f) => !f.startsWith('.') && !after.some(([seq, id]) => f === `${String(seq).padStart(8, '0')}-${id}.json.pieces`),
      );
      const what = [locked && 'lock', leftovers.length > 0 && 'temp', orphans.length > 0 && 'state'].filter(Boolean).join(',');
      seen.push(
        `${tookOver ? 'took-over,' : ''}${at}:${run.signal === null ? 'finished' : after.length > runs.length ? 'recorded' : 'not-recorded'}${what ? `+${what}` : ''}`,
      );
      runs = after;
    }
    process.stdout.write(`conmon process kills (${pilotLabel(pilot)}): ${seen.join(' ')}\n`);

    // The last report, unkilled: it takes over any lock and records its run if the kill came before the index;
    // a second time it is already recorded.
    const lastInput = join(tmp, `store-${STORE_KILLS}.json`);
    const stale = existsSync(join(store(), 'store.lock'));
    const started = Date.now();
    const last = svc(['conmon', 'process', lastInput], { env: env() });
    expect([last.status, last.stderr, Date.now() - started < 10_000]).toEqual([0, '', true]);
    process.stdout.write(`conmon process after the kills: ${stale ? 'took over the lock, ' : ''}${last.stdout.split('\n')[1]}\n`);
    const again = svc(['conmon', 'process', lastInput], { env: env() });
    const final = storedRuns();
    expect(final.slice(0, runs.length)).toEqual(runs);
    expect(final.length - runs.length).toBe(runs.at(-1)?.[2] === asOf(STORE_KILLS) ? 0 : 1);
    expect(final.at(-1)?.[2]).toBe(asOf(STORE_KILLS));
    expect([again.status, again.stdout.split('\n')[1]]).toEqual([
      0,
      `Already recorded run ${final.length}: ${final.at(-1)?.[1].slice(0, 12)} (as of ${asOf(STORE_KILLS)})`,
    ]);

    // Every run reads back and verifies (a record changed on disk would be exit 4); nothing but the store is left.
    const report = svc(['conmon', 'export-oa', '--from', '2026-11-01', '--to', '2026-11-30', '--json'], { env: env() });
    expect([report.status, report.stderr]).toEqual([0, '']);
    expect(readdirSync(store()).sort()).toEqual(['documents', 'index.json', 'pieces', 'runs', 'states']);
    expect(readdirSync(join(store(), 'documents')).sort()).toEqual(final.map(([, id]) => id).sort());
    expect(readdirSync(join(store(), 'states'))).toEqual(final.map(([seq, id]) => `${String(seq).padStart(8, '0')}-${id}.json.pieces`));
    // The packs of the recorded runs and the salt: none of a run a kill cut short.
    expect(readdirSync(join(store(), 'pieces'))).toEqual([...final.map(([seq]) => `${String(seq).padStart(8, '0')}.pack`), 'salt']);
    expect(readdirSync(join(store(), 'runs')).sort()).toEqual(final.map(([, id]) => `${id}.json`).sort());
    expect(final.map(([seq]) => seq)).toEqual(final.map((_, i) => i + 1));
  }, 90_000);
});
