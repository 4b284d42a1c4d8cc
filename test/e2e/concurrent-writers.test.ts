import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRunStore } from '../../src/infrastructure/store/file-run-store';
import { startSvc } from '../support/run-svc';

const { generate } = require('../../scripts/bench/generate-report.js') as { generate: (n: number, file: string, variant?: string) => number };

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-writers-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `svc conmon process <input>` as a user runs it, without waiting for it. */
const conmonProcess = (input: string, env: NodeJS.ProcessEnv) => startSvc(['conmon', 'process', input], { env });

describe('concurrent writers of one file store', () => {
  it('four `conmon process` at once all wait their turn, saying for whom, and every run is recorded with its own as_of', async () => {
    // Four reports of 2,000 results, generated on four days.
    generate(2_000, join(tmp, 'base.json'), 'a');
    const base = JSON.parse(readFileSync(join(tmp, 'base.json'), 'utf8'));
    const days = ['2026-11-04', '2026-11-01', '2026-11-03', '2026-11-02'];
    const inputs = days.map((day) => {
      const file = join(tmp, `report-${day}.json`);
      writeFileSync(file, JSON.stringify({ ...base, generated_at: `${day}T06:00:00Z` }));
      return file;
    });
    // This test holds the store's lock until all four wait for it, so they are certain to contend.
    const store = join(tmp, 'store');
    mkdirSync(store, { recursive: true });
    const lock = join(store, 'store.lock');
    const since = new Date().toISOString();
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since }));
    const waiting = `Waiting for the run store lock held by process ${process.pid} on ${hostname()} since ${since} ...`;
    // The lock this test wrote has no heartbeat: a long expiry keeps the writers from taking it over while they start.
    const runs = inputs.map((input) => conmonProcess(input, { SVC_STORE: store, SVC_STORE_LEASE_MS: '600000' }));
    try {
      const deadline = Date.now() + 120_000;
      while (!runs.every((run) => run.stderr().includes(waiting))) {
        if (Date.now() > deadline) throw new Error(`not all four said they wait for the lock:\n${runs.map((run) => run.stderr()).join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      unlinkSync(lock);
    }
    const done = await Promise.all(runs.map((run) => run.done));

    expect(done.map((d) => d.status)).toEqual([0, 0, 0, 0]);
    const seqs = done.map((d) => Number(/Recorded run (\d+):/.exec(d.stdout)?.[1]));
    expect([...seqs].sort()).toEqual([1, 2, 3, 4]);
    const listed = await new FileRunStore({ dir: store }).list();
    expect(listed.map((s) => s.seq)).toEqual([1, 2, 3, 4]);
    // Seq is the order the runs were recorded in; as_of stays each report's own time, whatever that order.
    for (const [i, d] of done.entries()) {
      expect(d.stdout).toContain(`(as of ${days[i]}T06:00:00Z)`);
      expect(listed[seqs[i] - 1].as_of).toBe(`${days[i]}T06:00:00Z`);
    }
  }, 180_000);
});
