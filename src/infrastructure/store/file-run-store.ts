import { randomBytes } from 'node:crypto';
import { appendEvery, appendOne } from '../../domain/conmon/append-each';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  EVIDENCE_BUNDLE_DOCUMENT,
  type DecidedRun,
  type RunDocument,
  type RunSummary,
  type StoredRun,
  type TrackedPoamItem,
} from '../../domain/conmon/run-record';
import type { ConmonEvent } from '../../domain/conmon/conmon-event';
import { StoredArray } from '../../domain/conmon/stored-state';
import { JsonArrayItems, JsonSplitError } from '../../domain/encoding/json-array-items';
import { InvalidInputError, UnavailableError } from '../../domain/errors';
import type {
  AppendDecision,
  AppendedRun,
  AppendOutcome,
  AppendRequest,
  DocumentProducer,
  JournalEntry,
  OpenedDocument,
  PruneDecision,
  PruneOutcome,
  RunDocumentSource,
  RunRange,
  RunStore,
  RunView,
} from '../../ports/run-store';
import { PRUNE_KIND, prunedBy, prunedError, type PruneRecord } from '../../domain/conmon/retention';
import type { AccessCutoffs, AccessStore, AccessTally, AccessUpkeep } from '../../ports/access-store';
import type { JournalStore } from '../../ports/journal-store';
import type { AccessEvent } from '../../domain/trust/access-log';
import { FileAccessLog } from './file-access-log';
import { translateFsError } from '../shared/fs-errors';
import { acquireLease, DEFAULT_LOCK_WAIT_MS, isStaleTemp, tempTag, type Lease, type LockOwner } from '../shared/lock-owner';
import { canonicalText, checkDecided, parseRunKey, tampered } from '../../domain/conmon/run-id';
import { collectGarbage, noteStreamed } from '../shared/collect-garbage';
import {
  collect,
  compressed,
  compressedFile,
  CorruptCompression,
  decompressed,
  decompressedWhole,
  documentOfFile,
  once,
  piecesFile,
  WHOLE_COMPRESSED_BYTES,
} from './compressed-documents';
import { PackFileReader, PackFileWriter, packSeq } from './file-packs';
import { type DocumentBase, PackWriter, PieceFrames, PieceKeys, type RunPieces, writeDocumentPieces } from './piece-packs';
import { RecordId, storedRecord, type LegacyBundle } from '../../domain/conmon/stored-record';
import { ChainWalk, chainLink, chainTampered, checkRecord, GENESIS, hashedState, hashOf, type RunLink } from '../../domain/conmon/run-chain';
import { KEPT_DOCUMENTS, keptDocuments } from '../../domain/conmon/kept-documents';
import { instantsOf, isWithin } from '../../domain/conmon/run-range';
import { byName, checkDocumentSources, documentChanged, DOCUMENT_CHUNK_BYTES, DocumentBytes, verifiedChunks } from '../../domain/conmon/stored-documents';
import { NodeCryptoHashing } from '../hashing/node-crypto-hashing';
import { syncDir } from '../shared/sync-dir';
import { writeFileAtomically, writeNewFile } from '../shared/atomic-file';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';
import { checkJournal, checkJournalHead, checkJournalKind, checkJournalValues, EMPTY_JOURNAL, isHead, nextJournalEntry } from '../../domain/conmon/journal';

export const RUN_INDEX_SCHEMA = 'svc.run-index/v2';
/** The index of svc 0.5.0: summaries without a hash chain, upgraded on first use. */
const LEGACY_INDEX_SCHEMA = 'svc.run-index/v1';

export interface FileRunStoreOptions {
  dir: string;
  /** How long append waits for another process's lock before giving up (ms); default DEFAULT_LOCK_WAIT_MS. */
  lockTimeoutMs?: number;
  /** The lock's lease: one not renewed for this long is taken over from any host (ms); default 30 s. */
  leaseMs?: number;
  /** Told once per holder while an append waits for the lock: a progress line for a person. */
  waiting?: (message: string) => void;
  now?: () => Date;
}

/** One run in the index: its summary, and its link in the hash chain. */
interface IndexEntry {
  summary: RunSummary;
  link: RunLink;
  /**
   * The entries of its document list that a year of runs reads (keptDocuments: the KSI counts, the manifest), hashed
   * into its link as `kept`: kept here, where every read already is, so reading them for every run opens no list.
   * Absent for a run recorded before svc kept them, or stored without documents.
   */
  kept?: RunDocument[];
}

/**
 * In `documents/<id>/`: the list of the run's documents (name, media type, SHA-256, size), hashed into its link. Kept
 * beside them rather than in index.json, which every read parses: a large run stores many pages.
 */
const DOCUMENT_LIST = '.list.json';

/** The journal (domain/conmon/journal.ts): one canonical entry per line, in seq order, appended in place. */
const JOURNAL = 'journal.ndjson';
/** The access log (CDS-TRC-ACL): a few files a day (FileAccessLog). */
const ACCESS_DIR = 'access';

/** The packs of the pieces the runs' documents are made of (file-packs.ts), and the salt of their keys. */
const PIECES_DIR = 'pieces';
const PIECE_SALT = 'salt';
const PIECE_SALT_BYTES = 32;
/**
 * The journal's commit point: `{"hash", "seq"}` of its last committed entry, replaced atomically after the entry's
 * line is fsynced. Lines after the entry it names are an append cut short (a torn line, or a whole one whose head was
 * never written): reads ignore them and the next append cuts them off. It is written (seq 0) before the first line,
 * so a journal without its head is one the head was removed from, not an empty one.
 */
const JOURNAL_HEAD = 'journal.head.json';

interface RunIndex {
  schema: typeof RUN_INDEX_SCHEMA;
  /** The head of the chain: the SHA-256 of the last run's link (GENESIS for an empty store). */
  head: string;
  runs: IndexEntry[];
  /**
   * Every run's documents and state are compressed (compressPlainFiles): there is nothing left to convert. Not part of the
   * chain (it vouches for no bytes); an index written without it (by an earlier svc) has the store looked over again.
   */
  compressed_documents?: true;
  /** Every run's documents and state but the kept documents are pieces (convertToPieces); not part of the chain either. */
  piece_documents?: true;
}

/** How many runs' document lists a store keeps once checked: a year of daily runs of a few sources. */
const DOCUMENT_LISTS_KEPT = 2048;

/** How a state file begins, and its POA&M state after its events: canonical JSON orders the keys so. */
const STATE_EVENTS_HEAD = '{"events":[';
const STATE_POAM_HEAD = ',"poam":[';

/** A run's record file: `<id>.json`. */
const RUN_FILE = /^[0-9a-f]{64}\.json$/;
/** A state file as writeAtomic names it: `<seq:8 digits>-<id>.json`. */
const STATE_FILE = /^\d{8}-[0-9a-f]{64}\.json(\.br|\.pieces)?$/;

/** The SHA-256 of the store's record rules (src/domain/conmon). */
const digest = new NodeCryptoHashing();

/**
 * The embedded run store: one directory, no server. Runs and their states are immutable files named by id;
 * index.json lists the summaries and is replaced last, so it is the commit point of an append: a crash before
 * its rename leaves files no index names, which reads ignore and the next append sweeps away (see sweep). Every
 * file is written under a temporary name that names its process, fsynced and renamed, then the directory fsynced,
 * so a reader sees the old file or the new one. Appends of all processes are serialized by store.lock, a lease.
 * The journal is journal.ndjson, appended in place, committed by journal.head.json (see JOURNAL_HEAD). The access
 * log is under access/, apart from the runs and their lock (FileAccessLog).
 *
 * Tamper evidence: the index keeps each run's link in a hash chain (domain/conmon/run-chain.ts) and the chain head. Every read
 * walks the chain of links, then checks what it returns against them: the summaries listed, a run's files.
 */
export class FileRunStore implements RunStore, JournalStore, AccessStore {
  readonly location: string;
  private readonly lockTimeoutMs: number;
  private readonly leaseMs: number | undefined;
  private readonly waiting: ((message: string) => void) | undefined;
  private readonly now: () => Date;
  private readonly access: FileAccessLog;
  /**
   * The index last read and shown whole (its chain walked), with the file it was read from (readIndexFile) and the
   * summaries since checked against their links: the same file is not read and walked again, nor a summary re-hashed.
   */
  private shown: { file: string; index: RunIndex; summaries: WeakSet<RunSummary> } | undefined;
  /** Document lists shown to match their runs' links, by run id (documentsOf). */
  private readonly lists = new Map<string, { sha256: string; list: RunDocument[] }>();
  /** The packs of the pieces runs' documents are made of (`pieces/`), and their frames as documents read them. */
  private readonly packs: PackFileReader;
  private frames: PieceFrames;

  constructor(options: FileRunStoreOptions) {
    this.location = options.dir;
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_WAIT_MS;
    this.leaseMs = options.leaseMs;
    this.waiting = options.waiting;
    this.now = options.now ?? (() => new Date());
    this.access = new FileAccessLog(join(options.dir, ACCESS_DIR));
    this.packs = new PackFileReader(this.piecesPath, chainTampered);
    this.frames = this.pieceFrames();
  }

  private pieceFrames(): PieceFrames {
    return new PieceFrames(this.packs.frame, (pack) =>
      chainTampered(this.packs.path(pack), `does not hold the pieces of run ${pack} that a document's piece list names`),
    );
  }

  append(id: string, decide: AppendDecision, produce?: DocumentProducer): Promise<AppendOutcome> {
    return appendOne<AppendRequest, AppendOutcome>((requests, each) => this.appendEach(requests, each), { id, decide, produce });
  }

  appendAll(requests: AsyncIterable<AppendRequest> | Iterable<AppendRequest>): Promise<AppendedRun[]> {
    return appendEvery<AppendRequest, RunSummary>((all, each) => this.appendEach(all, each), requests);
  }

  async list(range?: RunRange): Promise<RunSummary[]> {
    return this.view((await this.index()).runs).list(range);
  }

  async get(key: string | number): Promise<StoredRun | undefined> {
    return this.view((await this.index()).runs).get(key);
  }

  async latest(): Promise<StoredRun | undefined> {
    return this.view((await this.index()).runs).latest();
  }

  /** The index read and its chain walked once: the view's reads use its entries. */
  async reader(): Promise<RunView> {
    return this.view((await this.index()).runs);
  }

  /** Reads only the index and the document's file: the run's record is not re-hashed for a document. */
  async openDocument(key: string | number, name: string): Promise<OpenedDocument | undefined> {
    return this.view((await this.index()).runs).openDocument(key, name);
  }

  async openDocuments(keys: readonly (string | number)[], name: string): Promise<(OpenedDocument | undefined)[]> {
    return this.view((await this.index()).runs).openDocuments(keys, name);
  }

  /**
   * Appends a line to journal.ndjson and then replaces journal.head.json, both fsynced, under store.lock: the head is
   * the commit point, so a crash at any moment leaves the journal as it was (see JOURNAL_HEAD). Appending in place
   * rather than rewriting the file keeps an append's cost the size of its entry.
   */
  async appendJournal(kind: string, record: Record<string, unknown>, recordedAt: string): Promise<JournalEntry> {
    checkJournalValues(kind, record, recordedAt);
    try {
      await mkdir(this.location, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw translateFsError(error, this.location, 'run store directory');
    }
    const lease = await this.lock();
    try {
      return await this.appendJournalHeld(lease, await this.readJournal(), kind, record, recordedAt);
    } finally {
      await lease.release();
    }
  }

  /** appendJournal's work, under `lease`, after `journal` (the committed journal, as readJournal read it). */
  private async appendJournalHeld(
    lease: Lease,
    journal: Awaited<ReturnType<FileRunStore['readJournal']>>,
    kind: string,
    record: Record<string, unknown>,
    recordedAt: string,
  ): Promise<JournalEntry> {
    const { entries, committedBytes, headWritten } = journal;
    const entry = nextJournalEntry(entries.at(-1), kind, record, recordedAt, digest);
    if (!headWritten) await this.writeAtomic(this.journalHeadPath, canonicalText(EMPTY_JOURNAL));
    await this.appendJournalLine(committedBytes, `${canonicalText(entry)}\n`);
    if (!(await lease.isHeld())) throw this.leaseLost();
    await this.writeAtomic(this.journalHeadPath, canonicalText({ seq: entry.seq, hash: entry.hash }));
    return entry;
  }

  /**
   * Under store.lock: the plan is committed to the journal first, then each pruned run's documents but the kept ones
   * are removed from `documents/<id>/` (their list stays: the link vouches for it). The runs of earlier prunings are
   * swept again, so a pruning cut short is finished by the next.
   */
  async prune(decide: PruneDecision, recordedAt: string): Promise<PruneOutcome> {
    await this.makeDirs();
    const lease = await this.lock();
    try {
      const index = (await this.readIndex()) ?? (await this.upgrade());
      const journal = await this.readJournal();
      const plan = decide(await this.view(index.runs).list(), journal.entries);
      const entry = plan && (await this.appendJournalHeld(lease, journal, PRUNE_KIND, plan as unknown as Record<string, unknown>, recordedAt));
      const removed = { documents: 0, bytes: 0 };
      const records = [...journal.entries.filter((e) => e.kind === PRUNE_KIND), ...(entry ? [entry] : [])].map((e) => e.record as unknown as PruneRecord);
      for (const record of records) {
        for (const run of record.runs) {
          const dir = this.documentsPath(run.id);
          const files = await readdir(dir).catch(() => [] as string[]);
          const entry = index.runs.find((e) => e.summary.id === run.id);
          // What is removed is counted as the documents' own bytes (as every store counts them), not their files'.
          const listed = files.length === 0 || entry === undefined ? undefined : await this.documentsOf(entry);
          for (const name of files) {
            const document = documentOfFile(name);
            if (document === DOCUMENT_LIST || record.kept.includes(document)) continue;
            const path = join(dir, name);
            try {
              const size = listed?.find((d) => d.name === document)?.bytes ?? (await stat(path)).size;
              await rm(path, { force: true });
              removed.documents += 1;
              removed.bytes += size;
            } catch (error) {
              throw translateFsError(error, path, 'run store file');
            }
          }
        }
      }
      return { ...(entry ? { entry } : {}), ...removed };
    } finally {
      await lease.release();
    }
  }

  async journal(kind?: string): Promise<JournalEntry[]> {
    if (kind !== undefined) checkJournalKind(kind);
    const { entries } = await this.readJournal();
    return kind === undefined ? entries : entries.filter((entry) => entry.kind === kind);
  }

  /** The access log (CDS-TRC-ACL) under access/: FileAccessLog. */
  appendAccess(events: readonly AccessEvent[]): Promise<void> {
    return this.access.append(events);
  }

  accessLog(from: string, to: string): Promise<AccessEvent[]> {
    return this.access.events(from, to);
  }

  accessTallies(day: string): Promise<AccessTally[]> {
    return this.access.tallies(day);
  }

  pruneAccess(cutoffs: AccessCutoffs): Promise<AccessUpkeep> {
    return this.access.prune(cutoffs);
  }

  async close(): Promise<void> {}

  /**
   * Appends each request in turn under one lease of store.lock: each run's files are written as it is decided, and
   * index.json, the commit point, once at the end with every new run; a failure before it leaves files no index names,
   * which the next append sweeps away. `each` is told of every request's outcome as it is decided.
   */
  private async appendEach(requests: AsyncIterable<AppendRequest> | Iterable<AppendRequest>, each: (outcome: AppendOutcome) => void): Promise<void> {
    await this.makeDirs();
    const lease = await this.lock();
    try {
      const index = (await this.readIndex()) ?? (await this.upgrade());
      await this.sweep(index);
      let keys: PieceKeys | undefined;
      const keysOf = async () => (keys ??= new PieceKeys(await this.pieceSalt()));
      const compressed = await this.compressPlainFiles(index);
      const converted = (await this.convertToPieces(index, keysOf)) || compressed;
      const runs = [...index.runs];
      const view = this.view(runs);
      let { head } = index;
      for await (const { id, decide, produce } of requests) {
        const known = runs.find((entry) => entry.summary.id === id);
        if (known) {
          each({ recorded: false, run: await this.read(known) });
          continue;
        }
        const last = runs.at(-1);
        const seq = last ? last.summary.seq + 1 : 1;
        const decided = await decide(last && (await this.read(last)), seq, view);
        checkDecided(decided, id, seq);
        // Deciding walked the run (its lifecycle, its drift): what that made is garbage before the documents are written.
        collectGarbage();
        const recordId = new RecordId(id, decided.record, digest);
        // What the run adds to the store's pieces (its documents', its state's) goes to its pack, in place before its index.
        const { pack, pieces } = await this.packFor(seq, keysOf);
        const base = baseRun(runs, decided.summary)?.summary;
        let run: DecidedRun;
        let state: ReturnType<typeof hashedState>;
        try {
          const documents = produce && (await this.writeDocuments(id, await produce(decided), recordId, pieces, base));
          recordId.check();
          run = documents ? { ...decided, documents } : decided;
          await this.writeAtomic(this.runPath(id), canonicalText(run.record));
          state = hashedState(run, digest);
          const list = await writeDocumentPieces(utf8(state.chunks), id, pieces, base && (await this.pieceList(this.statePath(base.seq, base.id))));
          await this.writeAtomic(piecesFile(this.statePath(seq, id)), [list]);
          await pieces.writer.flush();
          await pack.commit();
        } catch (error) {
          await pack.discard().catch(() => undefined);
          throw error;
        }
        const chained = chainLink(run, head, digest, state.digests());
        const { documents } = run;
        runs.push({ summary: run.summary, link: chained.link, ...(documents ? { kept: keptDocuments(documents) } : {}) });
        head = chained.head;
        each({ recorded: true, run });
      }
      if (runs.length === index.runs.length && !converted) return;
      // A holder stalled past its lease's expiry may have been taken over: then the index is not ours to replace.
      if (!(await lease.isHeld())) throw this.leaseLost();
      await this.writeIndex({ schema: RUN_INDEX_SCHEMA, head, runs, compressed_documents: true, piece_documents: true });
    } catch (error) {
      // Packs this append wrote are not committed: one of the same seq may be written again, so none is kept read.
      this.packs.forget();
      this.frames = this.pieceFrames();
      throw error;
    } finally {
      await lease.release();
    }
  }

  /** The store as the index entries `runs` make it: committed ones, or those of an append in progress (RunView). */
  private view(runs: readonly IndexEntry[]): RunView {
    const entry = (key: string | number): IndexEntry | undefined => {
      const wanted = parseRunKey(key);
      if (!wanted) return undefined;
      return 'id' in wanted ? runs.find((e) => e.summary.id === wanted.id) : runs.at(wanted.seq - 1);
    };
    return {
      location: this.location,
      list: async (range) => {
        const instants = instantsOf(range);
        const listed = runs.filter((e) => isWithin(e.summary.as_of, instants));
        for (const entry of listed) this.checkSummary(entry);
        return listed.map((e) => e.summary);
      },
      get: async (key) => {
        const found = entry(key);
        return found && this.read(found);
      },
      latest: async () => {
        const last = runs.at(-1);
        return last && this.read(last);
      },
      openDocument: async (key, name) => {
        const found = entry(key);
        return found && this.openEntryDocument(found, name);
      },
      // Their files opened at once: a small one is read whole as it is opened.
      openDocuments: async (keys, name) =>
        Promise.all(
          keys.map(async (key) => {
            const found = entry(key);
            return found && this.openEntryDocument(found, name);
          }),
        ),
    };
  }

  private async openEntryDocument(entry: IndexEntry, name: string): Promise<OpenedDocument | undefined> {
    const kept = KEPT_DOCUMENTS.includes(name) && entry.link.records.kept !== undefined;
    if (kept) checkRecord(entry.link, 'kept', entry.kept ?? null, this.indexPath, digest);
    const document = (kept ? entry.kept : await this.documentsOf(entry))?.find((d) => d.name === name);
    if (!document) return name === EVIDENCE_BUNDLE_DOCUMENT ? this.legacyBundle(entry) : undefined;
    // The file read, once it is: the compressed one svc writes, or a plain one it wrote before.
    const read = { path: join(this.documentsPath(entry.summary.id), compressedFile(name)) };
    return { document, chunks: verifiedChunks(this.documentBytes(entry, name, read), document, () => read.path, digest) };
  }

  /**
   * A document's bytes as stored (storedBytes); a file gone is pruned, if a pruning says so, else tampering.
   * `read.path` is set to the file read, which verifiedChunks names.
   */
  private async *documentBytes(entry: IndexEntry, name: string, read: { path: string }): AsyncGenerator<Uint8Array> {
    const { id, seq } = entry.summary;
    const path = join(this.documentsPath(id), name);
    const stored = await this.storedBytes(path, KEPT_DOCUMENTS.includes(name) ? undefined : id, (file) => documentChanged(file, name));
    if (stored !== undefined) {
      read.path = stored.path;
      return yield* stored.chunks;
    }
    const pruning = prunedBy((await this.readJournal()).entries, id, name);
    throw pruning
      ? prunedError(this.location, entry.summary, name, pruning)
      : tampered(path, id, `is a document of run ${seq} that index.json lists, but its file is missing`);
  }

  /**
   * The bytes of a file of run `id` svc keeps as pieces (piece-packs.ts: `<path>.pieces`, the pieces in the store's
   * packs; not looked for without `id`: a kept document, the document list) or compressed (compressed-documents.ts):
   * decompressed from `<path>.br`, or read from a plain `<path>` as svc kept it before, until the store converts it
   * (compressPlainFiles, then convertToPieces); undefined when none is there. A conversion writes the new file before it
   * removes the old one, so a plain file gone while it is looked for is looked for compressed again, and a compressed
   * one, as pieces. Bytes that do not decode are what `undecodable` says of their file.
   */
  private async storedBytes(
    path: string,
    id: string | undefined,
    undecodable: (file: string) => Error,
  ): Promise<{ path: string; chunks: AsyncGenerator<Uint8Array> } | undefined> {
    const listFile = piecesFile(path);
    const pieces = async () => {
      if (id === undefined) return undefined;
      const list = await this.smallOrWhole(listFile);
      if (list === undefined) return undefined;
      const spans = await this.frames.documentSpans(list, () => undecodable(listFile));
      return { path: listFile, chunks: this.frames.document(spans, id, () => undecodable(listFile)) };
    };
    const found = await pieces();
    if (found !== undefined) return found;
    for (const [file, packed] of [
      [compressedFile(path), true],
      [path, false],
      [compressedFile(path), true],
    ] as const) {
      // Small, as most of a run's files are: read and decompressed at once (a stream costs more than the bytes).
      const whole = smallFileSync(file);
      if (whole === undefined) continue;
      if (whole !== LARGE) {
        if (!packed) return { path: file, chunks: once(whole) };
        try {
          const plain = decompressedWhole(whole, DOCUMENT_CHUNK_BYTES);
          if (plain !== undefined) return { path: file, chunks: once(plain) };
        } catch (error) {
          throw error instanceof CorruptCompression ? undecodable(file) : error;
        }
        return { path: file, chunks: decompressedOr(once(whole), () => undecodable(file)) };
      }
      const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw translateFsError(error, file, 'run store file');
      });
      if (handle === undefined) continue;
      const bytes = fileChunks(handle);
      return { path: file, chunks: packed ? decompressedOr(bytes, () => undecodable(file)) : bytes };
    }
    // Converted to pieces (convertToPieces) while it was looked for.
    return pieces();
  }

  private get journalPath(): string {
    return join(this.location, JOURNAL);
  }

  private get journalHeadPath(): string {
    return join(this.location, JOURNAL_HEAD);
  }

  /**
   * The committed journal, verified: the head is read first, then the entries it names (so an append between the two
   * reads only adds lines after them), each line checked and the chain walked (checkJournal), its end against the
   * head. `committedBytes` is where the lines after the committed ones begin.
   */
  private async readJournal(): Promise<{ entries: JournalEntry[]; committedBytes: number; headWritten: boolean }> {
    for (let attempt = 1; ; attempt += 1) {
      const headText = await this.readText(this.journalHeadPath);
      const bytes = (await this.readBytes(this.journalPath)) ?? Buffer.alloc(0);
      if (headText === undefined) {
        if (bytes.length === 0) return { entries: [], committedBytes: 0, headWritten: false };
        // The first append may have written its head and its line between the two reads: read them again once.
        if (attempt === 1) continue;
        throw chainTampered(this.journalHeadPath, `the journal head is missing, but ${this.journalPath} holds entries`);
      }
      const head = parseOrUndefined(headText);
      if (!isHead(head)) throw chainTampered(this.journalHeadPath, 'the journal head is not one svc wrote');
      const lines: unknown[] = [];
      let end = 0;
      while (lines.length < head.seq) {
        const newline = bytes.indexOf(0x0a, end);
        if (newline < 0) break;
        lines.push(parseOrUndefined(bytes.toString('utf8', end, newline)));
        end = newline + 1;
      }
      const entries = checkJournal(lines, () => this.journalPath, digest);
      checkJournalHead(entries, head, this.journalHeadPath);
      return { entries, committedBytes: end, headWritten: true };
    }
  }

  /** Cuts off what an append cut short left after the committed lines, then appends `line`, fsynced. */
  private async appendJournalLine(committedBytes: number, line: string): Promise<void> {
    const path = this.journalPath;
    try {
      const handle = await open(path, 'a', 0o600);
      try {
        await handle.truncate(committedBytes);
        await handle.writeFile(line);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // The file is new at the first entry: its name must survive a power loss as its bytes do.
      if (committedBytes === 0) await syncDir(this.location);
    } catch (error) {
      throw translateFsError(error, path, 'run store file');
    }
  }

  /** The evidence bundle of a run svc 0.5.0 recorded, from its record; undefined for a later run stored without one. */
  private async legacyBundle(entry: IndexEntry): Promise<OpenedDocument | undefined> {
    const { bundle } = await this.record(entry);
    return bundle && { document: bundle.document, chunks: wholeBuffer(bundle) };
  }

  /** The run's record, checked against its link (or, for svc 0.5.0's runs, its id). */
  private async record({ summary, link }: IndexEntry): Promise<{ record: StoredRun['record']; bundle?: LegacyBundle }> {
    const runPath = this.runPath(summary.id);
    const bytes = await this.readBytes(runPath);
    if (bytes === undefined) throw tampered(runPath, summary.id, 'is listed in index.json but its file is missing');
    return storedRecord(bytes, link, runPath, digest);
  }

  private get indexPath(): string {
    return join(this.location, 'index.json');
  }

  private get lockPath(): string {
    return join(this.location, 'store.lock');
  }

  private runPath(id: string): string {
    return join(this.location, 'runs', `${id}.json`);
  }

  /** `documents/<id>/`: the documents stored with run `id`, one file each. */
  private documentsPath(id: string): string {
    return join(this.location, 'documents', id);
  }

  private statePath(seq: number, id: string): string {
    return join(this.location, 'states', `${String(seq).padStart(8, '0')}-${id}.json`);
  }

  private async makeDirs(): Promise<void> {
    for (const dir of [this.location, join(this.location, 'runs'), join(this.location, 'states'), this.piecesPath]) {
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
      } catch (error) {
        throw translateFsError(error, dir, 'run store directory');
      }
    }
  }

  /** The verified index, upgrading a 0.5.0 store first (under the lock, as an append would). */
  private async index(): Promise<RunIndex> {
    const index = await this.readIndex();
    if (index) return index;
    const lease = await this.lock();
    try {
      return (await this.readIndex()) ?? (await this.upgrade());
    } finally {
      await lease.release();
    }
  }

  /**
   * The index, or an empty one before the first append; undefined for a 0.5.0 index, which upgrade() chains. The
   * chain of links is walked: a link or the head changed outside svc, or a run removed, is run-store-tampered. (A
   * summary is checked against its link where it is used: list, read.) A damaged index is the user's to restore,
   * not ours to guess.
   */
  private async readIndex(): Promise<RunIndex | undefined> {
    const read = await this.readIndexFile();
    if (read === undefined) return { schema: RUN_INDEX_SCHEMA, head: GENESIS, runs: [] };
    if (read.text === undefined) return this.shown!.index;
    const index = parseJson(read.text, this.indexPath);
    if (isObject(index) && index.schema === LEGACY_INDEX_SCHEMA) return undefined;
    const valid =
      isObject(index) &&
      index.schema === RUN_INDEX_SCHEMA &&
      typeof index.head === 'string' &&
      Array.isArray(index.runs) &&
      index.runs.every(
        (e: unknown) =>
          isObject(e) && isObject(e.summary) && typeof e.summary.seq === 'number' && typeof e.summary.id === 'string' && typeof e.summary.as_of === 'string',
      );
    if (!valid) throw corrupt(this.indexPath, `not a ${RUN_INDEX_SCHEMA} index`);
    const verified = index as unknown as RunIndex;
    // Runs removed, added or reordered show here: the chain numbers them 1, 2, … and names each.
    const walk = new ChainWalk(() => this.indexPath, digest);
    for (const { summary, link } of verified.runs) walk.next(link, summary.id, summary.seq);
    walk.end(verified.head, this.indexPath);
    this.shown = { file: read.file, index: verified, summaries: new WeakSet() };
    return verified;
  }

  /**
   * index.json's text, or no text when it is the file this store last read and showed whole (`shown`): the same
   * inode, size, change and modification times, which any write to it or a rename over it changes (the change time
   * cannot be set back). Undefined when there is none.
   */
  private async readIndexFile(): Promise<{ file: string; text?: string } | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(this.indexPath, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw translateFsError(error, this.indexPath, 'run store file');
    }
    try {
      const stats = await handle.stat({ bigint: true });
      const file = `${stats.ino}:${stats.size}:${stats.ctimeNs}:${stats.mtimeNs}`;
      if (this.shown?.file === file) return { file };
      return { file, text: await handle.readFile('utf8') };
    } catch (error) {
      throw translateFsError(error, this.indexPath, 'run store file');
    } finally {
      await handle.close();
    }
  }

  /** A summary of the index last shown whole, checked against its link once (`list` returns it on every call). */
  private checkSummary({ summary, link }: IndexEntry): void {
    const shown = this.shown?.summaries;
    if (shown?.has(summary)) return;
    // Read from index.json, which svc writes canonical: JSON.stringify gives that text back, hashed at once; a summary
    // whose text is not it (reordered outside svc) is hashed as canonical JSON (checkRecord), and judged by that.
    if (digest.sha256(JSON.stringify(summary)) !== link.records.summary) checkRecord(link, 'summary', summary, this.indexPath, digest);
    shown?.add(summary);
  }

  /**
   * The run's document list once it is shown to match its link; undefined for a run stored without documents. A list
   * shown to match is kept (DOCUMENT_LISTS_KEPT of them) under the digest the link gives it, which the index read on
   * every call still vouches for: the documents' own bytes are checked against it as they are read.
   */
  private async documentsOf({ summary, link }: IndexEntry): Promise<RunDocument[] | undefined> {
    if (link.records.documents === undefined) return undefined;
    const kept = this.lists.get(summary.id);
    if (kept !== undefined && kept.sha256 === link.records.documents) return kept.list;
    const plain = join(this.documentsPath(summary.id), DOCUMENT_LIST);
    const stored = await this.storedBytes(plain, undefined, (file) => chainTampered(file, `the document list of run ${summary.seq} is not the one svc wrote`));
    if (stored === undefined) throw tampered(plain, summary.id, `is the document list of run ${summary.seq} that its chain link names, but it is missing`);
    const { path } = stored;
    const text = Buffer.concat(await collect(stored.chunks)).toString('utf8');
    let list: unknown;
    try {
      list = JSON.parse(text);
    } catch {
      list = text;
    }
    // svc writes the list as canonical JSON: its bytes hash to what the link keeps, with no canonicalizing to do.
    if (digest.sha256(text) !== link.records.documents) checkRecord(link, 'documents', list, path, digest);
    if (this.lists.size >= DOCUMENT_LISTS_KEPT) this.lists.delete(this.lists.keys().next().value as string);
    this.lists.set(summary.id, { sha256: link.records.documents, list: list as RunDocument[] });
    return list as RunDocument[];
  }

  /** A run as stored, once its record and state files are shown to match its link. */
  private async read(entry: IndexEntry): Promise<StoredRun> {
    const { summary, link } = entry;
    const { id, seq } = summary;
    this.checkSummary(entry);
    const documents = await this.documentsOf(entry);
    const { record } = await this.record(entry);
    const statePath = this.statePath(seq, id);
    const state = await this.readState(statePath, link);
    checkRecord(link, 'summary', state.summary, statePath, digest);
    return { summary: state.summary, record, poam: state.poam, events: state.events, ...(documents ? { documents } : {}) };
  }

  /**
   * The run's state file read a chunk at a time (issue 35): svc writes it as canonical JSON, `{"events":[…],"poam":[…],
   * "summary":{…}}`, so its events and POA&M items are split off one by one (JsonArrayItems) and checked against the
   * link as they come (StoredArray); the file is never one string, whatever the run's size. A file not in that form
   * (none svc wrote since the chain) is read whole and checked as a record.
   */
  private async readState(plainPath: string, link: RunLink): Promise<Omit<StoredRun, 'record'>> {
    const missing = () => tampered(plainPath, link.id, 'is listed in index.json but its state file is missing');
    const undecodable = (file: string) => chainTampered(file, `the state of run ${link.seq} (${link.id}) is not the compressed state svc wrote`);
    const stored = await this.storedBytes(plainPath, link.id, undecodable);
    if (stored === undefined) throw missing();
    const statePath = stored.path;
    const events = new StoredArray<ConmonEvent>(digest, link, 'events', statePath);
    const poam = new StoredArray<TrackedPoamItem>(digest, link, 'poam', statePath);
    let splitter = new JsonArrayItems(STATE_EVENTS_HEAD);
    let array: StoredArray<unknown> = events;
    const feed = (chunk: Uint8Array): void => {
      for (const text of splitter.push(chunk)) array.item(text);
      if (splitter.done && array === events) {
        const after = splitter.remainder();
        splitter = new JsonArrayItems(STATE_POAM_HEAD);
        array = poam;
        feed(after);
      }
    };
    try {
      for await (const chunk of stored.chunks) feed(chunk);
      if (array !== poam) throw new JsonSplitError(0, 'no POA&M state');
      const tail = parseJson(`{${splitter.rest().slice(1)}`, statePath);
      if (!isObject(tail) || Object.keys(tail).length !== 1 || !isObject(tail.summary) || tail.summary.id !== link.id)
        throw corrupt(statePath, `not the state of run ${link.id}`);
      return { summary: tail.summary as unknown as RunSummary, events: events.end(), poam: poam.end() };
    } catch (error) {
      if (!(error instanceof JsonSplitError)) throw error;
      const whole = await this.storedBytes(plainPath, link.id, undecodable);
      if (whole === undefined) throw missing();
      const state = this.wholeState(Buffer.concat(await collect(whole.chunks)).toString('utf8'), statePath, link.id);
      checkRecord(link, 'poam', state.poam, statePath, digest);
      checkRecord(link, 'events', state.events, statePath, digest);
      return state;
    }
  }

  /** A state file read whole: svc 0.5.0's, upgraded by chaining it (small by then: it held them as one string too). */
  private async readWholeState(statePath: string, id: string): Promise<Omit<StoredRun, 'record'>> {
    const text = await this.readText(statePath);
    if (text === undefined) throw tampered(statePath, id, 'is listed in index.json but its state file is missing');
    return this.wholeState(text, statePath, id);
  }

  /** A state file's text parsed whole, as the state of run `id`. */
  private wholeState(text: string, statePath: string, id: string): Omit<StoredRun, 'record'> {
    const state = parseJson(text, statePath);
    if (!isObject(state) || !isObject(state.summary) || state.summary.id !== id || !Array.isArray(state.poam) || !Array.isArray(state.events)) {
      throw corrupt(statePath, `not the state of run ${id}`);
    }
    return state as unknown as Omit<StoredRun, 'record'>;
  }

  /**
   * Chains a 0.5.0 store, under the lock: each run's record is re-hashed against its id, its state must carry the
   * summary the index lists, and the links are built from what is stored now (nothing older can be verified).
   * One run is in memory at a time. From then on every record is verified.
   */
  private async upgrade(): Promise<RunIndex> {
    const legacy = parseJson((await this.readText(this.indexPath)) ?? '', this.indexPath) as { runs?: unknown };
    const summaries = legacy.runs;
    if (
      !Array.isArray(summaries) ||
      !summaries.every((s: unknown, i: number) => isObject(s) && s.seq === i + 1 && typeof s.id === 'string' && typeof s.as_of === 'string')
    ) {
      throw corrupt(this.indexPath, `not a ${LEGACY_INDEX_SCHEMA} index with runs numbered 1, 2, …`);
    }
    const runs: IndexEntry[] = [];
    let head = GENESIS;
    for (const summary of summaries as RunSummary[]) {
      const runPath = this.runPath(summary.id);
      const bytes = await this.readBytes(runPath);
      if (bytes === undefined) throw tampered(runPath, summary.id, 'is listed in index.json but its file is missing');
      if (digest.sha256(bytes) !== summary.id) throw tampered(runPath, summary.id);
      const statePath = this.statePath(summary.seq, summary.id);
      const state = await this.readWholeState(statePath, summary.id);
      if (hashOf(state.summary, digest) !== hashOf(summary, digest))
        throw chainTampered(statePath, `the summary of run ${summary.seq} (${summary.id}) is not the one index.json lists`);
      const chained = chainLink(state, head, digest);
      runs.push({ summary, link: chained.link });
      head = chained.head;
    }
    const index: RunIndex = { schema: RUN_INDEX_SCHEMA, head, runs };
    await this.writeIndex(index);
    return index;
  }

  private writeIndex(index: RunIndex): Promise<void> {
    return this.writeAtomic(this.indexPath, canonicalText(index));
  }

  /**
   * Writes the documents of run `id` into a temporary directory, a file each, fsynced, and renames it to
   * `documents/<id>/`; one left by an append cut short before its index was written is replaced. A kept document is
   * one compressed file (a year of runs reads it: one read each); any other is a piece list, its pieces shared with
   * the same document of run `base` (the source's last run) where they are the same, the others added to the run's
   * pack through `pieces.writer`.
   */
  private async writeDocuments(
    id: string,
    sources: RunDocumentSource[],
    recordId: RecordId,
    pieces: RunPieces,
    base: RunSummary | undefined,
  ): Promise<RunDocument[]> {
    checkDocumentSources(sources);
    const parent = join(this.location, 'documents');
    const temp = join(parent, `.${id}.${tempTag()}`);
    const target = this.documentsPath(id);
    try {
      await mkdir(parent, { recursive: true, mode: 0o700 });
      await mkdir(temp, { mode: 0o700 });
      const documents: RunDocument[] = [];
      for (const source of sources) {
        const bytes = new DocumentBytes(source, [...documents], digest, noteStreamed);
        const chunks = source.name === EVIDENCE_BUNDLE_DOCUMENT ? recordId.bundle(bytes.chunks()) : bytes.chunks();
        if (KEPT_DOCUMENTS.includes(source.name)) {
          await writeNewFile(join(temp, compressedFile(source.name)), compressed(chunks));
        } else {
          const shared = base && (await this.pieceList(join(this.documentsPath(base.id), source.name)));
          await writeNewFile(join(temp, piecesFile(source.name)), [
            await writeDocumentPieces(chunks, id, pieces, shared, { ownFrames: source.name === EVIDENCE_BUNDLE_DOCUMENT }),
          ]);
        }
        documents.push(bytes.document());
      }
      const listed = byName(documents);
      await writeNewFile(join(temp, compressedFile(DOCUMENT_LIST)), compressed([canonicalText(listed)]));
      await syncDir(temp);
      await rm(target, { recursive: true, force: true });
      await rename(temp, target);
      await syncDir(parent);
      return listed;
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw translateFsError(error, target, 'run store directory');
    }
  }

  /**
   * The piece list of the file `path` (`<path>.pieces`), or undefined when it has none (kept whole, or by an earlier
   * svc) or one svc did not write: what is written against it is then written without sharing its pieces.
   */
  private async pieceList(path: string): Promise<DocumentBase | undefined> {
    return this.frames.baseOf(await this.smallOrWhole(piecesFile(path)));
  }

  /** A file's bytes, read synchronously when small (smallFileSync), as a piece list is; undefined when there is none. */
  private async smallOrWhole(path: string): Promise<Buffer | undefined> {
    const small = smallFileSync(path);
    return small === LARGE ? this.readBytes(path) : small;
  }

  /**
   * The salt of the store's piece keys (piece-packs.ts), `pieces/salt`: 32 random bytes made with the first pack. It
   * vouches for nothing (a document is checked by its own digest): one lost or changed is made again, and the next
   * run then shares no piece with the runs before.
   */
  private async pieceSalt(): Promise<Buffer> {
    const path = join(this.piecesPath, PIECE_SALT);
    const salt = await this.readBytes(path);
    if (salt?.length === PIECE_SALT_BYTES) return salt;
    const made = randomBytes(PIECE_SALT_BYTES);
    await this.writeAtomic(path, [made]);
    return made;
  }

  /** `pieces/`: the runs' packs. */
  private get piecesPath(): string {
    return join(this.location, PIECES_DIR);
  }

  /** Writes `text` (or its pieces) to a temporary file, fsynced, and renames it to `path`. */
  private async writeAtomic(path: string, text: string | Iterable<string | Uint8Array> | AsyncIterable<Uint8Array>): Promise<void> {
    try {
      await writeFileAtomically(path, text);
    } catch (error) {
      throw translateFsError(error, path, 'run store file');
    }
  }

  /**
   * Takes store.lock, a lease, waiting while another process holds it (lockTimeoutMs, minutes by default, so
   * concurrent writers take their turns); a lease whose process no longer runs on this host, or that was not renewed
   * within its expiry on any host, is taken over (lock-owner.ts).
   */
  private lock(): Promise<Lease> {
    return acquireLease({
      path: this.lockPath,
      what: 'run store lock',
      timeoutMs: this.lockTimeoutMs,
      leaseMs: this.leaseMs,
      now: this.now,
      waiting: this.waiting && ((holder) => this.waiting?.(`Waiting for the run store lock held by ${holderOf(holder)} ...`)),
      held: (holder) =>
        new UnavailableError(
          'run-store-locked',
          `${this.lockPath}: the run store is locked by ${holderOf(holder)}; wait for it to finish, or remove the lock file if that process is gone`,
        ),
    });
  }

  private leaseLost(): UnavailableError {
    return new UnavailableError(
      'run-store-lease-lost',
      `${this.lockPath}: this process stalled past the lock's expiry and another took the run store over; nothing was recorded, run the command again`,
    );
  }

  /**
   * Removes what appends cut short by a crash left, under the lock (no other process writes the store now): temporary
   * files of processes that are gone, and run files, state files and document directories index.json does not name.
   */
  private async sweep(index: RunIndex): Promise<void> {
    const states = join(this.location, 'states');
    const documents = join(this.location, 'documents');
    const named = new Set(index.runs.map(({ summary: s }) => basename(this.statePath(s.seq, s.id))));
    const ids = new Set(index.runs.map(({ summary: s }) => s.id));
    const runs = join(this.location, 'runs');
    const committed = index.runs.at(-1)?.summary.seq ?? 0;
    for (const dir of [this.location, runs, states, documents, this.piecesPath]) {
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const leftover =
          isStaleTemp(name) ||
          (dir === states && STATE_FILE.test(name) && !named.has(documentOfFile(name))) ||
          (dir === runs && RUN_FILE.test(name) && !ids.has(name.slice(0, 64))) ||
          (dir === documents && /^[0-9a-f]{64}$/.test(name) && !ids.has(name)) ||
          (dir === this.piecesPath && (packSeq(name) ?? 0) > committed);
        // Best effort: one that cannot be removed now is still ignored by reads, and tried again by the next append.
        if (leftover) await rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
      }
    }
  }

  /**
   * Converts the plain documents and state files svc stored before it compressed them (compressed-documents.ts), under
   * the lock, oldest run first: each is written compressed, atomically, before its plain file is removed, so reads find
   * one or the other, and a conversion cut short is taken up where it stopped by the next append. Nothing a digest or
   * the chain vouches for changes. True when the store was looked over (the index then says it needs it no more).
   */
  private async compressPlainFiles(index: RunIndex): Promise<boolean> {
    if (index.compressed_documents === true) return false;
    const convert = async (path: string): Promise<void> => {
      try {
        await writeFileAtomically(compressedFile(path), compressed(fileChunks(await open(path, 'r'))));
        await rm(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw translateFsError(error, path, 'run store file');
      }
    };
    for (const { summary } of index.runs) {
      await convert(this.statePath(summary.seq, summary.id));
      const dir = this.documentsPath(summary.id);
      for (const file of await readdir(dir).catch(() => [] as string[])) {
        if (isStaleTemp(file)) await rm(join(dir, file), { force: true });
        if (!file.startsWith('.') && documentOfFile(file) === file) await convert(join(dir, file));
      }
    }
    return true;
  }

  /**
   * Converts the documents and state files of the runs recorded before svc kept pieces (a compressed file each) into
   * pieces, under the lock, oldest run first, each against the run before it of its source as a new run is written:
   * run k's pieces go to its own pack, `pieces/<k>.pack`, committed before any of its piece lists is written, and each
   * list is written atomically before its compressed file is removed, so reads find one or the other. A conversion cut
   * short is taken up by the next append: a run whose pack is there but no list is converted anew; one with some lists
   * keeps its other files whole (still read as they are). A file that does not decode is kept as it is: reading it
   * names it. Nothing a digest or the chain vouches for changes. True when the store was looked over.
   */
  private async convertToPieces(index: RunIndex, keys: () => Promise<PieceKeys>): Promise<boolean> {
    if (index.piece_documents === true) return false;
    for (const [k, { summary }] of index.runs.entries()) {
      const dir = this.documentsPath(summary.id);
      const files = await readdir(dir).catch(() => [] as string[]);
      const whole = files
        .filter((file) => !file.startsWith('.') && file === compressedFile(documentOfFile(file)) && !KEPT_DOCUMENTS.includes(documentOfFile(file)))
        .map((file) => join(dir, documentOfFile(file)));
      const state = this.statePath(summary.seq, summary.id);
      if (await this.exists(compressedFile(state))) whole.push(state);
      if (whole.length === 0) continue;
      const packPath = this.packs.path(summary.seq);
      if (await this.exists(packPath)) {
        if ((await this.exists(piecesFile(state))) || files.some((file) => file !== documentOfFile(file) && file === piecesFile(documentOfFile(file))))
          continue;
        await rm(packPath);
      }
      const base = baseRun(index.runs.slice(0, k), summary)?.summary;
      const baseOf = (path: string) =>
        base && this.pieceList(path === state ? this.statePath(base.seq, base.id) : join(this.documentsPath(base.id), basename(path)));
      const { pack, pieces } = await this.packFor(summary.seq, keys);
      const lists: [string, Uint8Array][] = [];
      try {
        for (const path of whole) {
          const file = compressedFile(path);
          try {
            lists.push([path, await writeDocumentPieces(decompressed(fileChunks(await open(file, 'r'))), summary.id, pieces, await baseOf(path))]);
          } catch (error) {
            if (!(error instanceof CorruptCompression)) throw translateFsError(error, file, 'run store file');
          }
          await pieces.writer.pace();
        }
        await pieces.writer.flush();
        await pack.commit();
      } catch (error) {
        await pack.discard().catch(() => undefined);
        throw error;
      }
      for (const [path, list] of lists) {
        await this.writeAtomic(piecesFile(path), [list]);
        await rm(compressedFile(path));
      }
    }
    return true;
  }

  /** Run `seq`'s pack, and the pieces written to it (its frames shared with every read of the store). */
  private async packFor(seq: number, keys: () => Promise<PieceKeys>): Promise<{ pack: PackFileWriter; pieces: RunPieces }> {
    const pack = new PackFileWriter(this.piecesPath, seq);
    return { pack, pieces: { writer: new PackWriter(seq, pack.sink), frames: this.frames, keys: await keys() } };
  }

  private async exists(path: string): Promise<boolean> {
    return stat(path).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw translateFsError(error, path, 'run store file');
      },
    );
  }

  private async readText(path: string): Promise<string | undefined> {
    const bytes = await this.readBytes(path);
    return bytes?.toString('utf8');
  }

  private async readBytes(path: string): Promise<Buffer | undefined> {
    try {
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw translateFsError(error, path, 'run store file');
    }
  }
}

/** An open file's bytes, DOCUMENT_CHUNK_BYTES at a time; the file is closed when they are through or dropped. */
async function* fileChunks(handle: FileHandle): AsyncGenerator<Uint8Array> {
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(DOCUMENT_CHUNK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** What smallFileSync says of a file larger than it reads. */
const LARGE = Symbol('large');

/**
 * A file's bytes when it is at most WHOLE_COMPRESSED_BYTES, LARGE when it is larger, undefined when there is none.
 * Read synchronously: a year of runs is hundreds of such files read at once (a run's KSI counts, a document's piece
 * list), and four round trips each through libuv's threads (open, stat, read, close) cost about 0.2 ms a file where a
 * synchronous read of a few KiB takes about 10 µs.
 */
function smallFileSync(path: string): Buffer | typeof LARGE | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw translateFsError(error, path, 'run store file');
  }
  try {
    const { size } = fstatSync(fd);
    if (size > WHOLE_COMPRESSED_BYTES) return LARGE;
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    for (let n = -1; read < size && n !== 0; read += n) n = readSync(fd, bytes, read, size - read, read);
    return bytes.subarray(0, read);
  } catch (error) {
    throw translateFsError(error, path, 'run store file');
  } finally {
    closeSync(fd);
  }
}

/** `bytes` decompressed; bytes that are not what svc compressed are what `undecodable` says. */
async function* decompressedOr(bytes: AsyncIterable<Uint8Array>, undecodable: () => Error): AsyncGenerator<Uint8Array> {
  try {
    yield* decompressed(bytes);
  } catch (error) {
    throw error instanceof CorruptCompression ? undecodable() : error;
  }
}

async function* utf8(chunks: Iterable<string>): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield Buffer.from(chunk, 'utf8');
}

async function* wholeBuffer({ bytes }: LegacyBundle): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/**
 * The run whose documents a new run's are written against (their pieces shared where they are the same): the last
 * run of the same source (tool and tenant), else the last run.
 */
function baseRun(runs: readonly IndexEntry[], summary: RunSummary): IndexEntry | undefined {
  const same = (other: RunSummary) => other.source?.tool === summary.source?.tool && other.source?.tenant === summary.source?.tenant;
  return runs.findLast((entry) => same(entry.summary)) ?? runs.at(-1);
}

function holderOf(holder: LockOwner | undefined): string {
  return holder ? `process ${holder.pid} on ${holder.host} since ${holder.since}` : 'a process that did not say who it is';
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw corrupt(path, `not valid JSON (${jsonSyntaxProblem((error as Error).message)})`);
  }
}

/** A line or head file as JSON, or undefined for text that is not JSON: the journal's checks then name the entry. */
function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function corrupt(path: string, problem: string): InvalidInputError {
  return new InvalidInputError('run-store-corrupt', `${path}: ${problem}; the file was damaged outside svc, restore it from backup`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
