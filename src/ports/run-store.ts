import type { InjectionToken } from 'tsyringe';
import type { DecidedRun, RunDocument, RunSummary, StoredRun } from '../domain/conmon/run-record';
import type { RunRange } from '../domain/conmon/run-range';
import type { RunDocumentSource } from '../domain/conmon/stored-documents';
import type { JournalEntry } from '../domain/conmon/journal';
import type { PruneRecord } from '../domain/conmon/retention';

export type { RunRange } from '../domain/conmon/run-range';
export type { DocumentChunks, RunDocumentSource } from '../domain/conmon/stored-documents';
export type { JournalEntry } from '../domain/conmon/journal';

/**
 * The store as a decision sees it, under the append's lock: every committed run, and the runs decided before it in the
 * same transaction (appendAll), which no other reader sees until they are committed.
 */
export type RunView = Pick<RunStore, 'location' | 'list' | 'get' | 'latest' | 'openDocument' | 'openDocuments'>;

/**
 * What `append` decides, under the store's lock, from the latest recorded run (whose documents it may read); `view`
 * reads the store as it stands in the transaction (RunView).
 */
export type AppendDecision = (latest: StoredRun | undefined, seq: number, view: RunView) => DecidedRun | Promise<DecidedRun>;

/** What `append` stores with the run it decided, under the same lock, before the run is committed. */
export type DocumentProducer = (run: DecidedRun) => RunDocumentSource[] | Promise<RunDocumentSource[]>;

/** A stored document being read: its facts, and its bytes a chunk at a time. */
export interface OpenedDocument {
  document: RunDocument;
  /** The bytes, checked against the document's SHA-256 as they go: a mismatch throws run-store-tampered at the end. */
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * What `prune` removes, decided under the store's lock from the committed runs' summaries and the verified journal
 * (domain/conmon/retention.ts prunePlan); undefined: nothing.
 */
export type PruneDecision = (runs: RunSummary[], journal: JournalEntry[]) => PruneRecord | undefined;

/** What `prune` did: the journal entry that records it (none when there was nothing to prune), and what it removed. */
export interface PruneOutcome {
  entry?: JournalEntry;
  documents: number;
  bytes: number;
}

/** One run for appendAll: what `append` takes. */
export interface AppendRequest {
  id: string;
  decide: AppendDecision;
  produce?: DocumentProducer;
}

/** What appendAll did with one request: recorded now, or found recorded before (then nothing was decided). */
export interface AppendedRun {
  recorded: boolean;
  summary: RunSummary;
}

export interface AppendOutcome {
  /**
   * False when a run with this id was already recorded: nothing was written and `run` is the stored one. True: `run` is
   * the run as decided, its POA&M state and events read again as they are asked for (DecidedRun).
   */
  recorded: boolean;
  run: DecidedRun;
}

/**
 * Recorded runs of continuous monitoring: each stored once, immutable, addressed by its id, in the order recorded.
 * The id is the hex SHA-256 of the run's canonical record with its evidence bundle, the document
 * EVIDENCE_BUNDLE_DOCUMENT, as the record's `bundle` (recordFrame); of the record alone for a run stored without one. Two processes appending at once are serialized; a crash
 * mid-append leaves the store as it was before.
 *
 * Throws UnavailableError when the store cannot be reached or locked in time, IntegrityError when a stored run
 * no longer matches its id, PermissionError when the OS refuses.
 *
 * Every store svc has keeps two more things beside its runs, each reached through a port of its own: the journal
 * (JOURNAL_STORE, ports/journal-store.ts) and the access log (ACCESS_STORE, ports/access-store.ts).
 */
export interface RunStore {
  /** Where the store is, for messages: a directory, or a URL without its password. */
  readonly location: string;
  /**
   * Records the run `id` unless it is already recorded. Under an exclusive lock, `decide` gets the latest
   * recorded run (undefined for the first) and the seq the new run will have, and returns the run to store
   * (its summary.seq and summary.id must be `seq` and `id`). Everything it returns is written at once or not at all.
   * `produce` gives the documents to store with the decided run (names unique, plain file names): they are written,
   * hashed into the run's link of the hash chain, and committed with it, or not at all. The store checks the id
   * against the record and the evidence bundle as it writes them: a mismatch is a bug of the caller, and nothing is
   * recorded.
   */
  append(id: string, decide: AppendDecision, produce?: DocumentProducer): Promise<AppendOutcome>;
  /**
   * Records several runs in one transaction, in order, as `append` records one: each request is asked for once the one
   * before is decided and written, and decides from it (its `latest` and `view` hold the runs decided before it). All
   * are committed at once, or none: whatever a decision, a producer or the requests' iterator throws leaves the store
   * as it was. A request whose id is recorded (before, or earlier in the same call) is not decided again. The decided
   * runs are not kept: read a run back with `get` for its POA&M state and events.
   */
  appendAll(requests: AsyncIterable<AppendRequest> | Iterable<AppendRequest>): Promise<AppendedRun[]>;
  /** Summaries in seq order, those whose as_of is within the range when one is given. */
  list(range?: RunRange): Promise<RunSummary[]>;
  /** One run by id or seq; undefined when there is none. */
  get(key: string | number): Promise<StoredRun | undefined>;
  /** The run with the highest seq; undefined for an empty store. */
  latest(): Promise<StoredRun | undefined>;
  /**
   * A document stored with run `key` (id or seq), to read in chunks; undefined when there is no such run or document.
   * A run svc 0.5.0 recorded gives its evidence bundle as EVIDENCE_BUNDLE_DOCUMENT like any later run.
   */
  openDocument(key: string | number, name: string): Promise<OpenedDocument | undefined>;
  /**
   * Document `name` of each run of `keys`, in their order, as openDocument opens it one run at a time (undefined for no
   * such run or document). What every run keeps (KEPT_DOCUMENTS: its KSI counts, its manifest) PostgreSQL reads for all
   * of them at once, with two queries: the daily KSI history reads a year of runs' counts.
   */
  openDocuments(keys: readonly (string | number)[], name: string): Promise<(OpenedDocument | undefined)[]>;
  /**
   * The committed store to read many runs from: its chain is walked once, here, and each read then checks what it
   * returns against the links it holds, without walking the chain again (a year of daily runs read one by one walks it
   * once, not once a run). Runs recorded after the call may or may not show.
   */
  reader(): Promise<RunView>;
  /**
   * Prunes old runs' documents (domain/conmon/retention.ts) under the store's lock: `decide` says what from the committed
   * runs and the verified journal; the plan is appended to the journal first (kind PRUNE_KIND, hash-chained), then
   * every document of its runs but `kept` is removed. A document of a run the journal records as pruned reads as
   * NotFoundError `run-pruned`; one gone from any other run is still run-store-tampered. A pruning cut short leaves
   * documents the next pruning removes.
   */
  prune(decide: PruneDecision, recordedAt: string): Promise<PruneOutcome>;
  /** Releases connections; the store may not be used afterwards. */
  close(): Promise<void>;
}

export const RUN_STORE: InjectionToken<RunStore> = Symbol('RunStore');
