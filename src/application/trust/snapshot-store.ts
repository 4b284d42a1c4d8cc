import { InvalidInputError } from '../../domain/errors';
import type { AccessEvent, AppendOutcome, JournalEntry, OpenedDocument, RunRange, RunStore } from '../../ports/run-store';
import type { RunSummary, StoredRun } from '../../domain/conmon/run-record';

/** Where a snapshot stops: the latest run it holds (none when no run was recorded yet) and its last journal entry. */
export interface SnapshotBounds {
  run_seq?: number;
  journal_seq: number;
}

/**
 * The run store as it stood at a snapshot (CDS-CSO-HAD): the runs up to `run_seq` and the journal up to `journal_seq`,
 * read-only. Stored runs and journal entries never change, so every use case that reads a store reads this one as the
 * store was then, and builds each document as it was: the trust center serves `?snapshot=` with the same use cases as
 * the current data. Writes are refused (a snapshot is never written to); the access log is the store's own.
 */
export class SnapshotStore implements RunStore {
  constructor(
    private readonly store: RunStore,
    private readonly bounds: SnapshotBounds,
  ) {}

  get location(): string {
    return this.store.location;
  }

  async list(range?: RunRange): Promise<RunSummary[]> {
    return (await this.store.list(range)).filter((s) => this.holds(s.seq));
  }

  async get(key: string | number): Promise<StoredRun | undefined> {
    if (typeof key === 'number' && !this.holds(key)) return undefined;
    const run = await this.store.get(key);
    return run !== undefined && this.holds(run.summary.seq) ? run : undefined;
  }

  latest(): Promise<StoredRun | undefined> {
    return this.bounds.run_seq === undefined ? Promise.resolve(undefined) : this.store.get(this.bounds.run_seq);
  }

  /** A document of a run the snapshot holds; the run is found by its summary, not read. */
  async openDocument(key: string | number, name: string): Promise<OpenedDocument | undefined> {
    const seq = typeof key === 'number' ? key : (await this.store.list()).find((s) => s.id === key)?.seq;
    return seq !== undefined && this.holds(seq) ? this.store.openDocument(key, name) : undefined;
  }

  async journal(kind?: string): Promise<JournalEntry[]> {
    return (await this.store.journal(kind)).filter((e) => e.seq <= this.bounds.journal_seq);
  }

  accessLog(from: string, to: string): Promise<AccessEvent[]> {
    return this.store.accessLog(from, to);
  }

  appendAccess(events: readonly AccessEvent[]): Promise<void> {
    return this.store.appendAccess(events);
  }

  append(): Promise<AppendOutcome> {
    return refused();
  }

  appendJournal(): Promise<JournalEntry> {
    return refused();
  }

  /** The store is the process's: closing a view of it leaves it open. */
  async close(): Promise<void> {}

  private holds(seq: number): boolean {
    return this.bounds.run_seq !== undefined && seq <= this.bounds.run_seq;
  }
}

function refused(): never {
  throw new InvalidInputError('snapshot-read-only', 'a snapshot of the run store is read-only: record runs and journal entries in the store itself');
}
