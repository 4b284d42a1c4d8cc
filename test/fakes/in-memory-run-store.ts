import type { RunSummary, StoredRun } from '../../src/domain/conmon/run-record';
import { canonicalJson, checkDecided, parseRunKey, verifiedRecord } from '../../src/infrastructure/store/run-id';
import { instantsOf, isWithin } from '../../src/infrastructure/store/run-range';
import type { AppendDecision, AppendOutcome, RunRange, RunStore } from '../../src/ports/run-store';

/** What two InMemoryRunStore instances share, as two processes share a store directory. */
export interface MemoryRuns {
  runs: { text: string; run: StoredRun }[];
  queue: Promise<unknown>;
}

/**
 * RUN_STORE in memory, for use-case tests. It keeps each record as its canonical text, so a test can tamper with it,
 * and passes the same contract as the file and PostgreSQL stores (test/integration/in-memory-run-store.test.ts).
 */
export class InMemoryRunStore implements RunStore {
  readonly location = 'memory';

  constructor(readonly shared: MemoryRuns = { runs: [], queue: Promise.resolve() }) {}

  append(id: string, decide: AppendDecision): Promise<AppendOutcome> {
    const next = this.shared.queue.then(async (): Promise<AppendOutcome> => {
      const existing = this.shared.runs.find((r) => r.run.summary.id === id);
      if (existing) return { recorded: false, run: this.read(existing) };
      const latest = this.shared.runs[this.shared.runs.length - 1];
      const seq = this.shared.runs.length + 1;
      const run = decide(latest && this.read(latest), seq);
      checkDecided(run, id, seq);
      this.shared.runs.push({ text: canonicalJson(run.record), run: copy(run) });
      return { recorded: true, run: this.read(this.shared.runs[seq - 1]) };
    });
    this.shared.queue = next.catch(() => undefined);
    return next;
  }

  async list(range?: RunRange): Promise<RunSummary[]> {
    const instants = instantsOf(range);
    return this.shared.runs.map((r) => copy(r.run.summary)).filter((s) => isWithin(s.as_of, instants));
  }

  async get(key: string | number): Promise<StoredRun | undefined> {
    const wanted = parseRunKey(key);
    const found = wanted && this.shared.runs.find((r) => ('id' in wanted ? r.run.summary.id === wanted.id : r.run.summary.seq === wanted.seq));
    return found && this.read(found);
  }

  async latest(): Promise<StoredRun | undefined> {
    const last = this.shared.runs[this.shared.runs.length - 1];
    return last && this.read(last);
  }

  async close(): Promise<void> {}

  private read(entry: { text: string; run: StoredRun }): StoredRun {
    return { ...copy(entry.run), record: verifiedRecord(entry.text, entry.run.summary.id, this.location) };
  }
}

/** A deep copy made in this realm (jest's structuredClone gives objects toEqual does not match). */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
