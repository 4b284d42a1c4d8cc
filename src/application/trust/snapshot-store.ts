import { InvalidInputError } from '../../domain/errors';
import type { JournalEntry, JournalStore } from '../../ports/journal-store';
import type { AppendedRun, AppendOutcome, OpenedDocument, RunRange, RunStore, PruneOutcome, RunView } from '../../ports/run-store';
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
 * the current data. Writes are refused (a snapshot is never written to); the access log is the store's own
 * (ACCESS_STORE), not a snapshot's. Without `entries`, the store's journal, its journal is empty.
 */
export class SnapshotStore implements RunStore, JournalStore {
  constructor(
    private readonly store: RunStore,
    private readonly bounds: SnapshotBounds,
    private readonly entries?: JournalStore,
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

  /**
   * A document of a run the snapshot holds; the run is found by its summary, not read. Its bytes come in pieces of at
   * most PACE_BYTES with a turn of the event loop between two (paced): what reads a snapshot (its documents' builds, an
   * evidence index built from pages) works a piece at a time, so the server answers other requests meanwhile.
   */
  async openDocument(key: string | number, name: string): Promise<OpenedDocument | undefined> {
    const seq = typeof key === 'number' ? key : (await this.store.list()).find((s) => s.id === key)?.seq;
    const opened = seq !== undefined && this.holds(seq) ? await this.store.openDocument(key, name) : undefined;
    return opened && { document: opened.document, chunks: paced(opened.chunks) };
  }

  openDocuments(keys: readonly (string | number)[], name: string): Promise<(OpenedDocument | undefined)[]> {
    return Promise.all(keys.map((key) => this.openDocument(key, name)));
  }

  async journal(kind?: string): Promise<JournalEntry[]> {
    return this.entries === undefined ? [] : (await this.entries.journal(kind)).filter((e) => e.seq <= this.bounds.journal_seq);
  }

  append(): Promise<AppendOutcome> {
    return refused();
  }

  appendAll(): Promise<AppendedRun[]> {
    return refused();
  }

  /** The snapshot is a view already. */
  async reader(): Promise<RunView> {
    return this;
  }

  appendJournal(): Promise<JournalEntry> {
    return refused();
  }

  prune(): Promise<PruneOutcome> {
    return refused();
  }

  /** The store is the process's: closing a view of it leaves it open. */
  async close(): Promise<void> {}

  private holds(seq: number): boolean {
    return this.bounds.run_seq !== undefined && seq <= this.bounds.run_seq;
  }
}

/**
 * How much of a document a reader of a snapshot gets at once: the store's chunks are a mebibyte, which a reader that
 * parses as it goes (an evidence bundle, about 2,700 entries) turns into tens of milliseconds of work without a pause.
 */
const PACE_BYTES = 64 * 1024;

/** The chunks in pieces of at most PACE_BYTES, with a turn of the event loop (setImmediate) before each piece after the first of a chunk. */
async function* paced(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += PACE_BYTES) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      yield chunk.subarray(at, at + PACE_BYTES);
    }
  }
}

function refused(): never {
  throw new InvalidInputError('snapshot-read-only', 'a snapshot of the run store is read-only: record runs and journal entries in the store itself');
}
