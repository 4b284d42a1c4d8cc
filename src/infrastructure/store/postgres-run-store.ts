import { randomBytes } from 'node:crypto';
import { appendEvery, appendOne } from '../../domain/conmon/append-each';
import { Pool, type QueryResultRow } from 'pg';
import type { ConmonEvent } from '../../domain/conmon/conmon-event';
import { StoredArray, stateParts } from '../../domain/conmon/stored-state';
import {
  EVIDENCE_BUNDLE_DOCUMENT,
  type DecidedRun,
  type RunDocument,
  type RunSummary,
  type StoredRun,
  type TrackedPoamItem,
} from '../../domain/conmon/run-record';
import { UnavailableError } from '../../domain/errors';
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
import { PRUNE_KIND, prunedBy, prunedError } from '../../domain/conmon/retention';
import { AccessTallies, accessDay, isAccessTally, isStoredAccessEvent, rawAccessEvents, splitAccessBatch, tallyAccess } from '../../domain/trust/access-log';
import type { AccessCutoffs, AccessStore, AccessTally, AccessUpkeep } from '../../ports/access-store';
import type { JournalStore } from '../../ports/journal-store';
import type { AccessEvent } from '../../domain/trust/access-log';
import { DEFAULT_LOCK_WAIT_MS, TELL_AFTER_MS } from '../shared/lock-owner';
import { migrate, type Sql } from './postgres-migrations';
import { postgresError, postgresLocation } from '../shared/postgres-errors';
import { inTransaction } from '../shared/postgres-transaction';
import { PackWriter, PieceFrames, PieceKeys, type RunPieces, writeDocumentPieces } from './piece-packs';
import { decodeNamedLists, encodeNamedLists } from '../../domain/conmon/content-pieces';
import { chainLink, chainTampered, checkRecord, GENESIS, isLink, type RunLink } from '../../domain/conmon/run-chain';
import { KEPT_DOCUMENTS, keptDocuments } from '../../domain/conmon/kept-documents';
import { canonicalText, checkDecided, parseRunKey } from '../../domain/conmon/run-id';
import { collectGarbage, noteStreamed } from '../shared/collect-garbage';
import { RecordId, storedRecord } from '../../domain/conmon/stored-record';
import { instantsOf } from '../../domain/conmon/run-range';
import { byName, checkDocumentSources, documentChanged, DocumentBytes, verifiedChunks } from '../../domain/conmon/stored-documents';
import { NodeCryptoHashing } from '../hashing/node-crypto-hashing';
import { collect, compressedPart, CorruptCompression, decompressedPart, decompressedWhole, once } from './compressed-documents';
import { checkJournal, checkJournalHead, checkJournalKind, checkJournalValues, nextJournalEntry } from '../../domain/conmon/journal';

export interface PostgresRunStoreOptions {
  /** postgres://user:password@host:port/database (any form pg accepts). */
  url: string;
  poolSize?: number;
  /** How long append waits for another writer's transaction before giving up (ms); default 5 minutes. */
  lockTimeoutMs?: number;
  /** Told once, when an append has waited a second for another writer: a progress line for a person. */
  waiting?: (message: string) => void;
}

/** Serializes appends across processes; any constant works that no other application in the database locks on. */
const APPEND_LOCK = '7305119270480002';
const CONNECT_TIMEOUT_MS = 10_000;

/** The SHA-256 of the store's record rules (src/domain/conmon). */
const digest = new NodeCryptoHashing();

const RUN_COLUMNS = 'seq, id, summary, record_text, link, head, documents';

interface RunRow {
  /** bigint arrives as a string. */
  seq: string;
  id: string;
  summary: RunSummary;
  record_text: string;
  /** The canonical JSON of the run's RunLink; head is its SHA-256. */
  link: string;
  head: string;
  /** The documents stored with the run; null for a run recorded without. */
  documents: RunDocument[] | null;
}

/**
 * A part of a stored document: its bytes, compressed (`br`) or not (`identity`, as svc stored parts before). A run
 * recorded since migration 10 keeps its other documents as pieces, their lists in svc_run_pieces.
 */
interface PartRow {
  bytes: Buffer;
  encoding: 'identity' | 'br';
}

/** The columns of a run's row a kept document is opened from: its kept list, and its whole list only when it has none. */
const KEPT_ROW_COLUMNS = 'seq, id, link, head, kept, CASE WHEN kept IS NULL THEN documents END AS documents';

/** A run's row as a document is opened: its list, or its kept documents (null for a run recorded before them). */
type DocumentRow = Pick<RunRow, 'seq' | 'id' | 'link' | 'head' | 'documents'> & { kept?: RunDocument[] | null };

interface JournalRow {
  /** bigint arrives as a string. */
  seq: string;
  kind: string;
  recorded_at: string;
  /** The record's canonical JSON, which the entry's hash covers. */
  record_text: string;
  prev: string | null;
  hash: string;
}

/**
 * The first row whose link is broken: not hashing to its head, not following the row before, not naming the row, or
 * naming other times than its as_of and recorded_at columns (which list's range uses). One pass on the server, so a
 * client's memory does not grow with the store. $1 is GENESIS.
 */
const BROKEN_LINK = `
  WITH c AS (
    -- Each link parsed once, and only once it hashes to its head: here, beside the window, which keeps the query from
    -- being folded into its reader with the cast copied into each of the five reads below (20 ms of 366 links, 5 ms so).
    SELECT seq, id, as_of, recorded_at, head, h.hashes, CASE WHEN h.hashes THEN link::jsonb END AS l,
      lag(seq) OVER w AS prev_seq, lag(head) OVER w AS prev_head
    FROM svc_runs, LATERAL (SELECT encode(sha256(convert_to(link, 'UTF8')), 'hex') IS NOT DISTINCT FROM head AS hashes) h
    WINDOW w AS (ORDER BY seq)
  ), checked AS (
    SELECT seq, id, CASE
      WHEN NOT hashes THEN 'hash'
      WHEN seq <> coalesce(prev_seq, 0) + 1 OR (l->>'prev') IS DISTINCT FROM coalesce(prev_head, $1) THEN 'prev'
      WHEN (l->'seq') IS DISTINCT FROM to_jsonb(seq) OR (l->>'id') IS DISTINCT FROM id THEN 'key'
      WHEN (l->>'as_of')::timestamptz IS DISTINCT FROM as_of OR (l->>'recorded_at')::timestamptz IS DISTINCT FROM recorded_at THEN 'time'
    END AS problem
    FROM c
  )
  SELECT seq, id, problem FROM checked WHERE problem IS NOT NULL ORDER BY seq LIMIT 1`;

/** The latest run's seq and head beside the chain head svc_run_chain keeps. */
const CHAIN_HEAD = `
  SELECT (SELECT count(*) FROM svc_run_chain)::int AS heads, (SELECT seq FROM svc_run_chain) AS chain_seq, (SELECT head FROM svc_run_chain) AS chain_head,
         last.seq AS seq, last.head AS head
  FROM (SELECT 1) one LEFT JOIN (SELECT seq, head FROM svc_runs ORDER BY seq DESC LIMIT 1) last ON true`;

/** Access rows per INSERT: far under PostgreSQL's 65,535 parameters a statement. */
const ACCESS_ROWS = 1000;

/** A batch's tallies added to the summaries: counts summed, the earliest first and the latest last kept (LEAST and GREATEST skip NULLs). */
const UPSERT_TALLIES =
  'INSERT INTO svc_access_summary AS s (day, principal, agency, federal, document, served, denied, first, last, denied_first, denied_last)';
const ON_TALLY_CONFLICT = `ON CONFLICT (day, principal, agency, document, federal) DO UPDATE SET
  served = s.served + EXCLUDED.served, denied = s.denied + EXCLUDED.denied,
  first = LEAST(s.first, EXCLUDED.first), last = GREATEST(s.last, EXCLUDED.last),
  denied_first = LEAST(s.denied_first, EXCLUDED.denied_first), denied_last = GREATEST(s.denied_last, EXCLUDED.denied_last)`;

/** A row of svc_access_summary (bigint arrives as a string). */
interface TallyRow {
  principal: string;
  agency: string;
  federal: boolean;
  document: string;
  served: string;
  denied: string;
  first: string;
  last: string;
  denied_first: string | null;
  denied_last: string | null;
}

/** How the run store's errors name it. */
const RUN_STORE_NAMES = { store: 'run store', code: 'run-store', tables: 'svc_' };

/**
 * The shared run store on PostgreSQL, for several hosts recording to one history. An append is one transaction
 * under an advisory lock, so concurrent appends from any number of processes take seq 1, 2, … in turn and a
 * failure leaves nothing behind. Each run keeps its canonical record bytes and its link in the hash chain
 * (domain/conmon/run-chain.ts); svc_run_chain keeps the chain head. Every read runs in one snapshot: the chain is checked on the
 * server (BROKEN_LINK, CHAIN_HEAD), then every record returned is re-hashed against its link here.
 */
export class PostgresRunStore implements RunStore, JournalStore, AccessStore {
  readonly location: string;
  private readonly pool: Pool;
  readonly secrets: string[];
  private schema: Promise<void> | undefined;
  private closed = false;
  private readonly lockTimeoutMs: number;
  private readonly waiting: ((message: string) => void) | undefined;

  constructor(options: PostgresRunStoreOptions) {
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_WAIT_MS;
    this.waiting = options.waiting;
    ({ location: this.location, secrets: this.secrets } = postgresLocation(options.url));
    // allowExitOnIdle: a CLI command ends when its work is done, without waiting for idle connections to time out.
    this.pool = new Pool({ connectionString: options.url, max: options.poolSize ?? 4, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, allowExitOnIdle: true });
    // An idle connection the server dropped: the pool discards it, and the next query reports any real outage.
    this.pool.on('error', () => undefined);
  }

  append(id: string, decide: AppendDecision, produce?: DocumentProducer): Promise<AppendOutcome> {
    return appendOne<AppendRequest, AppendOutcome>((requests, each) => this.appendEach(requests, each), { id, decide, produce });
  }

  appendAll(requests: AsyncIterable<AppendRequest> | Iterable<AppendRequest>): Promise<AppendedRun[]> {
    return appendEvery<AppendRequest, RunSummary>((all, each) => this.appendEach(all, each), requests);
  }

  async list(range?: RunRange): Promise<RunSummary[]> {
    return this.committed().list(range);
  }

  async get(key: string | number): Promise<StoredRun | undefined> {
    return this.committed().get(key);
  }

  async latest(): Promise<StoredRun | undefined> {
    return this.committed().latest();
  }

  /**
   * The document's list entry is checked in one snapshot with the chain; its parts are then read one query each, so
   * one part is in memory at a time, and checked against the listed digest as they go (verifiedChunks).
   */
  async openDocument(key: string | number, name: string): Promise<OpenedDocument | undefined> {
    return this.committed().openDocument(key, name);
  }

  openDocuments(keys: readonly (string | number)[], name: string): Promise<(OpenedDocument | undefined)[]> {
    return this.committed().openDocuments(keys, name);
  }

  /**
   * Appends each request in turn in one transaction under the runs' advisory lock: every run decided sees the ones
   * before it (RunView on the transaction's connection), and all are committed together or rolled back.
   */
  private async appendEach(requests: AsyncIterable<AppendRequest> | Iterable<AppendRequest>, each: (outcome: AppendOutcome) => void): Promise<void> {
    await this.ready();
    while (await this.transaction((sql) => this.convertToPieces(sql)));
    await this.transaction(async (sql) => {
      await this.lockForAppend(sql);
      let head = await this.verifyChain(sql);
      const view = this.view((work) => work(sql), sql);
      // The pieces a run adds are its transaction's too: a later run of the same append shares them.
      const frames = this.piecesOf(sql);
      let keys: PieceKeys | undefined;
      for await (const { id, decide, produce } of requests) {
        const [known] = await sql<RunRow>(`SELECT ${RUN_COLUMNS} FROM svc_runs WHERE id = $1`, [id]);
        if (known) {
          each({ recorded: false, run: await this.toStored(known, sql) });
          continue;
        }
        const [last] = await sql<RunRow>(`SELECT ${RUN_COLUMNS} FROM svc_runs ORDER BY seq DESC LIMIT 1`);
        const seq = last ? Number(last.seq) + 1 : 1;
        const decided = await decide(last && (await this.toStored(last, sql)), seq, view);
        checkDecided(decided, id, seq);
        // Deciding walked the run (its lifecycle, its drift): what that made is garbage before the documents are written.
        collectGarbage();
        const recordId = new RecordId(id, decided.record, digest);
        const writer = packWriter(sql, seq);
        const pieces: RunPieces = { writer, frames, keys: (keys ??= new PieceKeys(await pieceSalt(sql))) };
        const base = await baseRun(sql, decided.summary);
        const documents = produce && (await this.writeDocuments(sql, id, await produce(decided), recordId, pieces, base));
        recordId.check();
        const run: DecidedRun = documents ? { ...decided, documents } : decided;
        const { summary } = run;
        const chained = chainLink(run, head, digest);
        const { link } = chained;
        await sql(
          `INSERT INTO svc_runs (seq, id, recorded_at, as_of, summary, record_text, link, head, documents, kept)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9::jsonb, $10::jsonb)`,
          // JSON text throughout: pg would send a JavaScript array as a PostgreSQL array literal.
          [
            seq,
            id,
            link.recorded_at,
            link.as_of,
            JSON.stringify(summary),
            canonicalText(run.record),
            canonicalText(link),
            chained.head,
            ...(documents ? [JSON.stringify(documents), JSON.stringify(keptDocuments(documents))] : [null, null]),
          ],
        );
        await insertState(sql, id, { poam: run.poam, events: run.events }, pieces, base);
        await writer.flush();
        await sql('UPDATE svc_run_chain SET seq = $1, head = $2', [seq, chained.head]);
        head = chained.head;
        each({ recorded: true, run });
      }
    });
  }

  /**
   * Converts the oldest run recorded before svc kept pieces (migration 10) that has documents or state parts stored
   * whole into pieces, in the transaction of `sql` under the runs' advisory lock, against the run before it of its
   * source as a new run is written: its pieces in pack `seq`, its documents' lists in svc_run_pieces (their parts
   * deleted), each state part's list beside it (its text cleared). A run a transaction each, so a conversion cut short
   * is taken up where it stopped. A part that does not decode is kept as it is: reading it names it. Nothing a digest or
   * the chain vouches for changes. False when no run is left to convert.
   */
  private async convertToPieces(sql: Sql): Promise<boolean> {
    await this.lockForAppend(sql);
    const kept = KEPT_DOCUMENTS.map((name) => `'${name}'`).join(', ');
    const [run] = await sql<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM svc_runs r WHERE NOT EXISTS (SELECT 1 FROM svc_run_pieces p WHERE p.run_id = r.id) AND NOT EXISTS (SELECT 1 FROM svc_piece_frames f WHERE f.pack = r.seq)
         AND (EXISTS (SELECT 1 FROM svc_run_documents d WHERE d.run_id = r.id AND d.name NOT IN (${kept}))
           OR EXISTS (SELECT 1 FROM svc_run_state s WHERE s.run_id = r.id AND s.items IS NOT NULL))
       ORDER BY seq LIMIT 1`,
    );
    if (run === undefined) return false;
    const seq = Number(run.seq);
    const frames = this.piecesOf(sql);
    const writer = packWriter(sql, seq);
    const pieces: RunPieces = { writer, frames, keys: new PieceKeys(await pieceSalt(sql)) };
    const base = await baseRun(sql, run.summary, seq);
    const shared = base === undefined ? undefined : await listsOf(sql, base, '').catch(() => undefined);
    const lists = new Map<string, Uint8Array>();
    for (const { name } of (this.documentsOf(run) ?? []).filter((d) => !KEPT_DOCUMENTS.includes(d.name))) {
      try {
        lists.set(
          name,
          await writeDocumentPieces(
            documentParts(sql, run.id, name, () => new CorruptCompression(name)),
            run.id,
            pieces,
            await frames.baseOf(shared?.get(name)),
          ),
        );
      } catch (error) {
        if (!(error instanceof CorruptCompression)) throw error;
      }
      await writer.pace();
    }
    await sql('INSERT INTO svc_run_pieces (run_id, lists) VALUES ($1, $2)', [run.id, await compressedPart(encodeNamedLists(lists))]);
    await sql('DELETE FROM svc_run_documents WHERE run_id = $1 AND name = ANY($2::text[])', [run.id, [...lists.keys()]]);
    for (const { kind, part, items } of await sql<{ kind: string; part: number; items: string }>(
      'SELECT kind, part, items FROM svc_run_state WHERE run_id = $1 AND items IS NOT NULL ORDER BY kind, part',
      [run.id],
    )) {
      const [before] =
        base === undefined
          ? []
          : await sql<{ pieces: Buffer }>('SELECT pieces FROM svc_run_state WHERE run_id = $1 AND kind = $2 AND part = $3 AND pieces IS NOT NULL', [
              base,
              kind,
              part,
            ]);
      const list = await writeDocumentPieces(once(Buffer.from(items, 'utf8')), run.id, pieces, await frames.baseOf(before?.pieces));
      await sql('UPDATE svc_run_state SET items = NULL, pieces = $4 WHERE run_id = $1 AND kind = $2 AND part = $3', [run.id, kind, part, bytea(list)]);
      await writer.pace();
    }
    await writer.flush();
    return true;
  }

  /** The committed store: each read in one snapshot whose chain is shown whole, a document's parts read one query each. */
  private committed(): RunView {
    return this.view((work) => this.read(work), this.query);
  }

  /** The chain shown whole once; each read of the view then checks its rows against their links, as a read does. */
  async reader(): Promise<RunView> {
    await this.read(async () => undefined);
    return this.view((work) => work(this.query), this.query);
  }

  /** One statement on the pool, its errors translated. */
  private committedFrames?: PieceFrames;
  /** The link and summary text of each run whose summary a list has checked (checkedSummary), by run id. */
  private readonly checkedSummaries = new Map<string, string>();

  private readonly query: Sql = async <R extends QueryResultRow>(text: string, values?: unknown[]) => {
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (error) {
      throw this.translate(error);
    }
  };

  /** The store as `reader` sees it (RunView): `reader` runs a read, `query` reads a document's parts. */
  private view(reader: <T>(work: (sql: Sql) => Promise<T>) => Promise<T>, query: Sql): RunView {
    const row = async <R extends QueryResultRow>(columns: string, key: string | number): Promise<R | undefined> => {
      const wanted = parseRunKey(key);
      if (!wanted) return undefined;
      const [column, value] = 'id' in wanted ? ['id', wanted.id] : ['seq', wanted.seq];
      const [found] = await reader((sql) => sql<R>(`SELECT ${columns} FROM svc_runs WHERE ${column} = $1`, [value]));
      return found;
    };
    const openDocument = async (key: string | number, name: string): Promise<OpenedDocument | undefined> => {
      // A document every run keeps is found in the run's kept list (keptDocuments), without reading its whole list.
      const found = await row<DocumentRow>(KEPT_DOCUMENTS.includes(name) ? KEPT_ROW_COLUMNS : 'seq, id, link, head, documents', key);
      return found && this.opened(found, name, query, reader);
    };
    return {
      location: this.location,
      list: async (range) => {
        const { from, to } = instantsOf(range);
        const rows = await reader((sql) =>
          sql<Pick<RunRow, 'seq' | 'id' | 'link' | 'head'> & { summary: string }>(
            `SELECT seq, id, summary::text AS summary, link, head FROM svc_runs
             WHERE ($1::timestamptz IS NULL OR as_of >= $1::timestamptz) AND ($2::timestamptz IS NULL OR as_of <= $2::timestamptz)
             ORDER BY seq`,
            [from === undefined ? null : new Date(from).toISOString(), to === undefined ? null : new Date(to).toISOString()],
          ),
        );
        return rows.map((r) => this.checkedSummary(r));
      },
      get: async (key) => {
        const found = await row<RunRow>(RUN_COLUMNS, key);
        return found && this.toStored(found, query);
      },
      latest: async () => {
        const [found] = await reader((sql) => sql<RunRow>(`SELECT ${RUN_COLUMNS} FROM svc_runs ORDER BY seq DESC LIMIT 1`));
        return found && this.toStored(found, query);
      },
      openDocument,
      openDocuments: async (keys, name) => {
        if (!KEPT_DOCUMENTS.includes(name) || keys.some((k) => !('id' in (parseRunKey(k) ?? {})))) return Promise.all(keys.map((k) => openDocument(k, name)));
        // What every run keeps, of many runs: their rows in one query, then the parts of those that list it in another.
        const ids = keys.map((k) => (parseRunKey(k) as { id: string }).id);
        const rows = await reader((sql) => sql<DocumentRow>(`SELECT ${KEPT_ROW_COLUMNS} FROM svc_runs WHERE id = ANY($1)`, [ids]));
        const byId = new Map(rows.map((r) => [r.id, r]));
        // Each run's kept list is checked against its link as its document is opened (opened, below).
        const listing = rows.filter((r) => Array.isArray(r.kept) && r.kept.some((d) => d.name === name)).map((r) => r.id);
        const parts = new Map<string, PartRow[]>(listing.map((id) => [id, []]));
        if (listing.length > 0) {
          for (const part of await query<PartRow & { run_id: string }>(
            'SELECT run_id, bytes, encoding FROM svc_run_documents WHERE run_id = ANY($1) AND name = $2 ORDER BY run_id, part',
            [listing, name],
          )) {
            parts.get(part.run_id)?.push(part);
          }
        }
        return Promise.all(
          ids.map(async (id) => {
            const found = byId.get(id);
            return found && this.opened(found, name, query, reader, parts.get(id));
          }),
        );
      },
    };
  }

  /**
   * Document `name` of the run `found` (a row with its kept list, or its whole list), opened: a kept document's parts
   * in one query (or those openDocuments read for many runs, `keptParts`), another's one query each as they are read; each checked against the
   * listed digest as it goes (verifiedChunks). A run svc 0.5.0 recorded gives its evidence bundle from its record.
   */
  private async opened(
    found: DocumentRow,
    name: string,
    query: Sql,
    reader: <T>(work: (sql: Sql) => Promise<T>) => Promise<T>,
    keptParts?: PartRow[],
  ): Promise<OpenedDocument | undefined> {
    const kept = KEPT_DOCUMENTS.includes(name) && this.linkOf(found).records.kept !== undefined;
    const document = (kept ? this.keptOf(found) : this.documentsOf(found))?.find((d) => d.name === name);
    if (!document) {
      if (name !== EVIDENCE_BUNDLE_DOCUMENT) return undefined;
      // The evidence bundle of a run svc 0.5.0 recorded, from its record; none for a later run stored without one.
      const [legacy] = await reader((sql) =>
        sql<Pick<RunRow, 'seq' | 'id' | 'link' | 'head' | 'record_text'>>('SELECT seq, id, link, head, record_text FROM svc_runs WHERE id = $1', [found.id]),
      );
      const bundle = legacy && storedRecord(legacy.record_text, this.linkOf(legacy), this.where(legacy.seq, 'record_text'), digest).bundle;
      return bundle && { document: bundle.document, chunks: once(bundle.bytes) };
    }
    const pruned = async (): Promise<Error | undefined> => {
      const pruning = prunedBy(await this.journal(PRUNE_KIND), found.id, name);
      return pruning && prunedError(this.location, { seq: Number(found.seq), id: found.id }, name, pruning);
    };
    const where = `${this.location} (svc_run_documents, run ${found.seq}, ${name})`;
    const changed = () => documentChanged(where, name);
    const frames = this.framesFor(query);
    const listsWhere = `${this.location} (svc_run_pieces, run ${found.seq})`;
    const listWhere = `${this.location} (svc_run_pieces, run ${found.seq}, ${name})`;
    // Where the document is read from, which a digest that does not match names: its parts, or its piece list.
    const read = { where };
    const pieceChanged = () => documentChanged(listWhere, name);
    const parts = async function* (): AsyncGenerator<Uint8Array> {
      if (kept) {
        // A kept document is small (a row per KSI id, a digest per document): its parts in one query.
        const rows =
          keptParts ?? (await query<PartRow>('SELECT bytes, encoding FROM svc_run_documents WHERE run_id = $1 AND name = $2 ORDER BY part', [found.id, name]));
        yield* rows.map((row) => partBytes(row, changed));
        return;
      }
      // A piece list (migration 10 on): the document is its pieces.
      const list = (await listsOf(query, found.id, listsWhere))?.get(name);
      if (list !== undefined) {
        read.where = listWhere;
        return yield* frames.document(await frames.documentSpans(list, pieceChanged), found.id, pieceChanged);
      }
      let none = true;
      for await (const bytes of documentParts(query, found.id, name, changed)) {
        none = false;
        yield bytes;
      }
      // A listed document with no part at all: pruned, if the journal says so (else the digest check names it).
      const gone = none && document.bytes > 0 ? await pruned() : undefined;
      if (gone !== undefined) throw gone;
    };
    return { document, chunks: verifiedChunks(parts(), document, () => read.where, digest) };
  }

  /** One transaction under the runs' advisory lock: the journal is read and verified, the entry inserted, the head moved. */
  async appendJournal(kind: string, record: Record<string, unknown>, recordedAt: string): Promise<JournalEntry> {
    checkJournalValues(kind, record, recordedAt);
    await this.ready();
    return this.transaction(async (sql) => {
      await this.lockForAppend(sql);
      return this.insertJournalEntry(sql, await this.verifiedJournal(sql), kind, record, recordedAt);
    });
  }

  /** Inserts the entry after `entries` (the verified journal) and moves the head, in the caller's transaction. */
  private async insertJournalEntry(
    sql: Sql,
    entries: readonly JournalEntry[],
    kind: string,
    record: Record<string, unknown>,
    recordedAt: string,
  ): Promise<JournalEntry> {
    const entry = nextJournalEntry(entries.at(-1), kind, record, recordedAt, digest);
    await sql('INSERT INTO svc_journal (seq, kind, recorded_at, record_text, prev, hash) VALUES ($1, $2, $3, $4, $5, $6)', [
      entry.seq,
      entry.kind,
      entry.recorded_at,
      canonicalText(entry.record),
      entry.prev,
      entry.hash,
    ]);
    await sql('UPDATE svc_journal_chain SET seq = $1, hash = $2', [entry.seq, entry.hash]);
    return entry;
  }

  /** One transaction under the runs' advisory lock: the chain and journal verified, the plan's entry inserted, the documents' parts deleted. */
  async prune(decide: PruneDecision, recordedAt: string): Promise<PruneOutcome> {
    await this.ready();
    return this.transaction(async (sql) => {
      await this.lockForAppend(sql);
      await this.verifyChain(sql);
      const journal = await this.verifiedJournal(sql);
      // The summaries as `list` reads them, on the transaction's connection.
      const plan = decide(await this.view((work) => work(sql), sql).list(), journal);
      if (plan === undefined) return { documents: 0, bytes: 0 };
      const entry = await this.insertJournalEntry(sql, journal, PRUNE_KIND, plan as unknown as Record<string, unknown>, recordedAt);
      // Counted as the documents' own bytes (as every store counts them), from each run's list: parts are compressed.
      // A run kept as pieces (migration 10 on) loses its piece lists, one row: every document but the kept ones.
      const [removed] = await sql<{ documents: string; bytes: string | null }>(
        `WITH gone AS (DELETE FROM svc_run_documents WHERE run_id = ANY($1) AND NOT (name = ANY($2)) RETURNING run_id, name),
              lists AS (DELETE FROM svc_run_pieces WHERE run_id = ANY($1) RETURNING run_id),
              names AS (SELECT DISTINCT run_id, name FROM gone
                        UNION SELECT r.id, d->>'name' FROM svc_runs r JOIN lists l ON l.run_id = r.id, jsonb_array_elements(r.documents) d WHERE NOT (d->>'name' = ANY($2)))
         SELECT count(*) AS documents,
                sum((SELECT (d->>'bytes')::bigint FROM svc_runs r, jsonb_array_elements(r.documents) d WHERE r.id = names.run_id AND d->>'name' = names.name)) AS bytes
         FROM names`,
        [plan.runs.map((r) => r.id), plan.kept],
      );
      return { entry, documents: Number(removed.documents), bytes: Number(removed.bytes ?? 0) };
    });
  }

  /** Every entry is read in one snapshot and the chain checked here (the journal is small beside the runs); then filtered. */
  async journal(kind?: string): Promise<JournalEntry[]> {
    if (kind !== undefined) checkJournalKind(kind);
    await this.ready();
    const entries = await this.transaction((sql) => this.verifiedJournal(sql), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    return kind === undefined ? entries : entries.filter((entry) => entry.kind === kind);
  }

  /** The journal in seq order, its chain walked and its end held to svc_journal_chain; run-store-tampered names the first break. */
  private async verifiedJournal(sql: Sql): Promise<JournalEntry[]> {
    const rows = await sql<JournalRow>('SELECT seq, kind, recorded_at, record_text, prev, hash FROM svc_journal ORDER BY seq');
    const heads = await sql<{ seq: string; hash: string | null }>('SELECT seq, hash FROM svc_journal_chain');
    const read = rows.map((row) => ({
      seq: Number(row.seq),
      kind: row.kind,
      recorded_at: row.recorded_at,
      record: parseOrUndefined(row.record_text),
      prev: row.prev,
      hash: row.hash,
    }));
    const entries = checkJournal(read, (seq) => `${this.location} (svc_journal, seq ${seq})`, digest);
    checkJournalHead(entries, heads.length === 1 ? { seq: Number(heads[0].seq), hash: heads[0].hash } : undefined, `${this.location} (svc_journal_chain)`);
    return entries;
  }

  /**
   * One transaction per batch: the valid events' tallies added to svc_access_summary (INSERT … ON CONFLICT DO UPDATE,
   * in key order, so two batches at once lock their rows in the same order), and the events inserted into svc_access
   * but a principal's denials of a day beyond MAX_RAW_DENIALS, counted from the summaries as they stand. A bad event is
   * refused alone (splitAccessBatch), after the others are written.
   */
  async appendAccess(events: readonly AccessEvent[]): Promise<void> {
    const { valid, refusal } = splitAccessBatch(events);
    if (valid.length > 0) {
      await this.ready();
      await this.transaction(async (sql) => {
        const asking = new Map<string, Set<string>>();
        for (const e of valid)
          if (e.outcome === 'denied') (asking.get(accessDay(e)) ?? asking.set(accessDay(e), new Set()).get(accessDay(e))!).add(e.principal);
        const before = new Map<string, number>();
        for (const [day, principals] of asking) {
          const rows = await sql<{ principal: string; denied: string }>(
            'SELECT principal, sum(denied)::bigint AS denied FROM svc_access_summary WHERE day = $1 AND principal = ANY($2::text[]) GROUP BY principal',
            [day, [...principals]],
          );
          for (const row of rows) before.set(JSON.stringify([day, row.principal]), Number(row.denied));
        }
        const kept = rawAccessEvents(valid, (day, principal) => before.get(JSON.stringify([day, principal])) ?? 0);
        for (let i = 0; i < kept.length; i += ACCESS_ROWS) {
          const values: unknown[] = [];
          const rows = kept
            .slice(i, i + ACCESS_ROWS)
            .map((e) => placeholders(values, [accessDay(e), e.at, e.principal, e.agency ?? null, e.federal === true, e.document, e.outcome, e.status]));
          await sql(`INSERT INTO svc_access (day, at, principal, agency, federal, document, outcome, status) VALUES ${rows.join(', ')}`, values);
        }
        const tallies = tallyAccess(valid);
        for (let i = 0; i < tallies.length; i += ACCESS_ROWS) {
          const values: unknown[] = [];
          const rows = tallies
            .slice(i, i + ACCESS_ROWS)
            .map((t) =>
              placeholders(values, [
                t.day,
                t.principal,
                t.agency ?? '',
                t.federal === true,
                t.document,
                t.served,
                t.denied,
                t.first,
                t.last,
                t.denied_first ?? null,
                t.denied_last ?? null,
              ]),
            );
          await sql(`${UPSERT_TALLIES} VALUES ${rows.join(', ')} ${ON_TALLY_CONFLICT}`, values);
        }
      });
    }
    if (refusal !== undefined) throw refusal;
  }

  async accessLog(from: string, to: string): Promise<AccessEvent[]> {
    await this.ready();
    const rows = await this.read((sql) =>
      sql<{ at: string; principal: string; agency: string | null; federal: boolean; document: string; outcome: string; status: number }>(
        'SELECT at, principal, agency, federal, document, outcome, status FROM svc_access WHERE day BETWEEN $1 AND $2 ORDER BY day, id',
        [from, to],
      ),
    );
    return rows.map((r, i) => {
      const event = {
        at: r.at,
        principal: r.principal,
        ...(r.agency === null ? {} : { agency: r.agency }),
        ...(r.federal ? { federal: true } : {}),
        document: r.document,
        outcome: r.outcome,
        status: r.status,
      };
      if (!isStoredAccessEvent(event)) throw chainTampered(`${this.location} (svc_access, row ${i + 1} of ${from} to ${to})`, 'not an access event');
      return event;
    });
  }

  /** The day's rows of svc_access_summary: one indexed read, however many events the day had. */
  async accessTallies(day: string): Promise<AccessTally[]> {
    await this.ready();
    const rows = await this.transaction(
      (sql) =>
        sql<TallyRow>(
          'SELECT principal, agency, federal, document, served, denied, first, last, denied_first, denied_last FROM svc_access_summary WHERE day = $1',
          [day],
        ),
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
    const tallies = new AccessTallies();
    for (const r of rows) {
      const tally = {
        day,
        principal: r.principal,
        ...(r.agency === '' ? {} : { agency: r.agency }),
        ...(r.federal ? { federal: true } : {}),
        document: r.document,
        served: Number(r.served),
        denied: Number(r.denied),
        first: r.first,
        last: r.last,
        ...(r.denied_first === null ? {} : { denied_first: r.denied_first }),
        ...(r.denied_last === null ? {} : { denied_last: r.denied_last }),
      };
      if (!isAccessTally(tally)) throw chainTampered(`${this.location} (svc_access_summary, ${day})`, 'a row is not an access summary svc wrote');
      tallies.add(tally);
    }
    return tallies.list();
  }

  /**
   * Removes the events of days before `raw_from` and the summaries of days before `summaries_from`, a day per
   * transaction (no long lock, and it stops between days once the store is closed). The summaries need no compaction:
   * they are kept in the events' own transactions.
   */
  async pruneAccess(cutoffs: AccessCutoffs): Promise<AccessUpkeep> {
    const done: AccessUpkeep = { compacted: 0, summarized: 0, raw_days: 0, summary_days: 0 };
    for (const [table, before, count] of [
      ['svc_access', cutoffs.raw_from, 'raw_days'],
      ['svc_access_summary', cutoffs.summaries_from, 'summary_days'],
    ] as const) {
      if (this.closed) return done;
      await this.ready();
      const days = await this.transaction((sql) =>
        sql<{ day: string }>(`SELECT DISTINCT to_char(day, 'YYYY-MM-DD') AS day FROM ${table} WHERE day < $1 ORDER BY 1`, [before]),
      );
      for (const { day } of days) {
        if (this.closed) return done;
        await this.transaction((sql) => sql(`DELETE FROM ${table} WHERE day = $1`, [day]));
        done[count] += 1;
      }
    }
    return done;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** Migrates once per store; a failed attempt (server down) is retried by the next call. */
  private ready(): Promise<void> {
    this.schema ??= this.transaction((sql) => migrate(sql, this.location)).catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }

  /**
   * Takes the append lock for this transaction, waiting up to lockTimeoutMs for another writer (lock_timeout), and
   * saying whom it waits for once the wait passes a second. The lock ends with its holder's transaction or connection,
   * so a writer that died holds nothing.
   */
  private async lockForAppend(sql: Sql): Promise<void> {
    const [{ locked }] = await sql<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${APPEND_LOCK}) AS locked`);
    if (locked) return;
    await sql(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.lockTimeoutMs))}`);
    const waiting = this.waiting;
    const tell =
      waiting &&
      setTimeout(
        () =>
          void this.lockHolder().then(
            (holder) => waiting(`Waiting for the run store lock held by ${holder} ...`),
            () => undefined,
          ),
        TELL_AFTER_MS,
      );
    try {
      await sql(`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`);
    } catch (error) {
      if ((error as { code?: unknown }).code !== '55P03') throw error;
      const holder = await this.lockHolder().catch(() => 'another session');
      throw new UnavailableError(
        'run-store-locked',
        `${this.location}: the run store is locked by ${holder}; wait for it to finish, or end that session if its process is gone`,
        { cause: error },
      );
    } finally {
      clearTimeout(tell);
    }
  }

  /** The session holding the append lock, as far as this user may see it. */
  private async lockHolder(): Promise<string> {
    const [row] = (
      await this.pool.query<{ pid: number; addr: string | null; since: Date | null }>(
        `SELECT a.pid, host(a.client_addr) AS addr, a.xact_start AS since FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = ${APPEND_LOCK} LIMIT 1`,
      )
    ).rows;
    if (!row) return 'another session';
    return `PostgreSQL backend ${row.pid}${row.addr ? ` from ${row.addr}` : ''}${row.since ? ` since ${row.since.toISOString()}` : ''}`;
  }

  /** `work` in one read-only snapshot, after the chain in that snapshot is shown whole. */
  private async read<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    await this.ready();
    return this.transaction(async (sql) => {
      await this.verifyChain(sql);
      return work(sql);
    }, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  /** Checks every link on the server and the chain head, and returns the head; run-store-tampered names the first break. */
  private async verifyChain(sql: Sql): Promise<string> {
    let broken: { seq: string; id: string; problem: 'hash' | 'prev' | 'key' | 'time' } | undefined;
    try {
      [broken] = await sql<{ seq: string; id: string; problem: 'hash' | 'prev' | 'key' | 'time' }>(BROKEN_LINK, [GENESIS]);
    } catch (error) {
      // A link edited into something that is not JSON, or a time into something that is not a time.
      if (/^22/.test(String((error as { code?: unknown }).code)))
        throw chainTampered(`${this.location} (svc_runs, column link)`, 'a chain link is not one svc wrote');
      throw error;
    }
    if (broken) {
      const { seq, id } = broken;
      const run = `run ${seq} (${id})`;
      const problems: Record<typeof broken.problem, [string, string]> = {
        hash: [this.where(seq, 'link'), `the chain link of ${run} does not hash to its head`],
        prev: [this.where(seq, 'link'), `the chain link of ${run} does not follow ${seq === '1' ? 'the start of the chain' : `run ${Number(seq) - 1}`}`],
        key: [this.where(seq, 'link'), `the chain link of ${run} is not the link of that run`],
        time: [this.where(seq, 'as_of, recorded_at'), `the times of ${run} are not the ones in its chain link`],
      };
      const [where, problem] = problems[broken.problem];
      throw chainTampered(where, problem);
    }
    const [tip] = await sql<{ heads: number; chain_seq: string | null; chain_head: string | null; seq: string | null; head: string | null }>(CHAIN_HEAD);
    const seq = tip.seq ?? '0';
    const head = tip.head ?? GENESIS;
    if (tip.heads !== 1 || tip.chain_seq !== seq || tip.chain_head !== head) {
      throw chainTampered(`${this.location} (svc_run_chain)`, `the chain head does not match ${seq === '0' ? 'an empty store' : `run ${seq}, the latest run`}`);
    }
    return head;
  }

  /**
   * A listed run's summary (its jsonb as text) once it is shown to match its link, checked once per link and text: a
   * year of runs is listed several times by one `fedramp sdr`, and by svc-api after every recorded run. The link is
   * the one the read's chain check vouched for; a summary changed since it was checked is text not seen, checked anew.
   */
  private checkedSummary(row: Pick<RunRow, 'seq' | 'id' | 'link' | 'head'> & { summary: string }): RunSummary {
    const summary = JSON.parse(row.summary) as RunSummary;
    const seen = `${row.link}\n${row.summary}`;
    if (this.checkedSummaries.get(row.id) === seen) return summary;
    checkRecord(this.linkOf(row), 'summary', summary, this.where(row.seq, 'summary'), digest);
    if (this.checkedSummaries.size >= SUMMARIES_CHECKED) this.checkedSummaries.delete(this.checkedSummaries.keys().next().value as string);
    this.checkedSummaries.set(row.id, seen);
    return summary;
  }

  /** Where a row's column is, for messages. */
  private where(seq: string, column?: string): string {
    return `${this.location} (svc_runs, seq ${seq}${column ? `, column ${column}` : ''})`;
  }

  /** The row's link, once it is shown to hash to the row's head and to name the row. */
  private linkOf(row: Pick<RunRow, 'seq' | 'id' | 'link' | 'head'>): RunLink {
    const run = `run ${row.seq} (${row.id})`;
    if (digest.sha256(row.link) !== row.head) throw chainTampered(this.where(row.seq, 'link'), `the chain link of ${run} does not hash to its head`);
    const link = JSON.parse(row.link) as unknown;
    if (!isLink(link) || String(link.seq) !== row.seq || link.id !== row.id)
      throw chainTampered(this.where(row.seq, 'link'), `the chain link of ${run} is not the link of that run`);
    return link;
  }

  /** The run of `row`, its POA&M state and events read from svc_run_state a part per query with `sql` and checked against its link as they come. */
  private async toStored(row: RunRow, sql: Sql): Promise<StoredRun> {
    const link = this.linkOf(row);
    const { record } = storedRecord(row.record_text, link, this.where(row.seq, 'record_text'), digest);
    checkRecord(link, 'summary', row.summary, this.where(row.seq, 'summary'), digest);
    const documents = this.documentsOf(row, link);
    const read = async <T>(kind: 'poam' | 'events'): Promise<T[]> => {
      const where = `${this.location} (svc_run_state, run ${row.seq}, ${kind})`;
      const array = new StoredArray<T>(digest, link, kind, where);
      const frames = this.framesFor(sql);
      const changed = () => chainTampered(where, `the ${kind} of run ${row.seq} (${row.id}) are not the pieces svc wrote`);
      for (let part = 0; ; part += 1) {
        const [found] = await sql<{ items: string | null; pieces: Buffer | null }>(
          'SELECT items, pieces FROM svc_run_state WHERE run_id = $1 AND kind = $2 AND part = $3',
          [row.id, kind, part],
        );
        if (found === undefined) return array.end();
        if (found.items !== null) array.part(found.items);
        else array.part(await textOf(frames.document(await frames.documentSpans(found.pieces ?? Buffer.alloc(0), changed), row.id, changed)));
      }
    };
    const poam = await read<TrackedPoamItem>('poam');
    const events = await read<ConmonEvent>('events');
    return { summary: row.summary, record, poam, events, ...(documents ? { documents } : {}) };
  }

  /** The row's kept documents once they are shown to match its link, which names them (keptDocuments). */
  private keptOf(row: DocumentRow): RunDocument[] {
    checkRecord(this.linkOf(row), 'kept', row.kept, this.where(row.seq, 'kept'), digest);
    return row.kept as RunDocument[];
  }

  /** The row's document list once it is shown to match its link (a list added or removed outside svc shows). */
  private documentsOf(row: DocumentRow, link = this.linkOf(row)): RunDocument[] | undefined {
    if (row.documents !== null || link.records.documents !== undefined) checkRecord(link, 'documents', row.documents, this.where(row.seq, 'documents'), digest);
    return row.documents ?? undefined;
  }

  /**
   * Inserts the documents within the append's transaction, and returns their list: a kept document in compressed
   * parts (a year of runs reads it: one query each), any other as its piece list, its pieces shared with the same
   * document of run `base` (the source's last run) where they are the same, the others added to the run's pack.
   */
  private async writeDocuments(
    sql: Sql,
    id: string,
    sources: RunDocumentSource[],
    recordId: RecordId,
    pieces: RunPieces,
    base: string | undefined,
  ): Promise<RunDocument[]> {
    checkDocumentSources(sources);
    // The base's lists: undefined for none, or lists svc did not write (the run is then written without sharing).
    const shared = base === undefined ? undefined : await listsOf(sql, base, '').catch(() => undefined);
    const lists = new Map<string, Uint8Array>();
    const documents: RunDocument[] = [];
    for (const source of sources) {
      const bytes = new DocumentBytes(source, [...documents], digest, noteStreamed);
      const chunks = source.name === EVIDENCE_BUNDLE_DOCUMENT ? recordId.bundle(bytes.chunks()) : bytes.chunks();
      if (KEPT_DOCUMENTS.includes(source.name)) {
        let part = 0;
        for await (const chunk of chunks) {
          await sql(`INSERT INTO svc_run_documents (run_id, name, part, bytes, encoding) VALUES ($1, $2, $3, $4, 'br')`, [
            id,
            source.name,
            part,
            await compressedPart(chunk),
          ]);
          part += 1;
        }
      } else {
        lists.set(
          source.name,
          await writeDocumentPieces(chunks, id, pieces, await pieces.frames.baseOf(shared?.get(source.name)), {
            ownFrames: source.name === EVIDENCE_BUNDLE_DOCUMENT,
          }),
        );
      }
      documents.push(bytes.document());
    }
    if (lists.size > 0) await sql('INSERT INTO svc_run_pieces (run_id, lists) VALUES ($1, $2)', [id, await compressedPart(encodeNamedLists(lists))]);
    return byName(documents);
  }

  /** The frames of svc_piece_frames as `sql` sees them (the committed ones, or an append's own too). */
  private piecesOf(sql: Sql): PieceFrames {
    return new PieceFrames(
      async (pack, index) =>
        (
          await sql<{ first: number; lengths: Buffer; keys: Buffer; bytes: Buffer }>(
            'SELECT first, lengths, keys, bytes FROM svc_piece_frames WHERE pack = $1 AND first <= $2 ORDER BY first DESC LIMIT 1',
            [pack, index],
          )
        )[0],
      (pack) =>
        chainTampered(`${this.location} (svc_piece_frames, pack ${pack})`, `does not hold the pieces of run ${pack} that a document's piece list names`),
    );
  }

  /** Committed reads share one PieceFrames (a committed frame never changes); another connection's reads have their own. */
  private framesFor(query: Sql): PieceFrames {
    if (query !== this.query) return this.piecesOf(query);
    this.committedFrames ??= this.piecesOf(this.query);
    return this.committedFrames;
  }

  /** Runs `work` in one transaction on one connection; whatever it throws rolls everything back. */
  private transaction<T>(work: (sql: Sql) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    return inTransaction(this.pool, (error) => this.translate(error), work, begin);
  }

  private translate(error: unknown): unknown {
    return postgresError(error, this, RUN_STORE_NAMES);
  }
}

/** `($n, $n+1, …)` for one row, its values pushed onto `values`. */
function placeholders(values: unknown[], row: unknown[]): string {
  const first = values.length + 1;
  values.push(...row);
  return `(${row.map((_, k) => `$${first + k}`).join(', ')})`;
}

/** A record_text edited into something that is not JSON: the journal's check then names the entry. */
function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The most a run's piece lists may come to, decompressed: far more than a run of a million results has. */
const RUN_LISTS_BYTES = 256 << 20;

/** How many runs' checked summaries a store remembers: years of daily runs of a few sources. */
const SUMMARIES_CHECKED = 4096;

/** The pack `seq` of an append or a conversion: its frames inserted into svc_piece_frames in the transaction of `sql`. */
function packWriter(sql: Sql, seq: number): PackWriter {
  return new PackWriter(seq, (frame) =>
    sql('INSERT INTO svc_piece_frames (pack, first, lengths, keys, bytes) VALUES ($1, $2, $3, $4, $5)', [
      seq,
      frame.first,
      bytea(frame.lengths),
      bytea(frame.keys),
      bytea(frame.bytes),
    ]).then(() => undefined),
  );
}

/**
 * The bytes of a document stored as parts (svc_run_documents), a part a query, each as stored: compressed (`br`,
 * migration 9 on) or as svc stored parts before (`identity`); a part that does not decompress is what `changed` says.
 */
async function* documentParts(sql: Sql, id: string, name: string, changed: () => Error): AsyncGenerator<Uint8Array> {
  for (let part = 0; ; part += 1) {
    const [row] = await sql<PartRow>('SELECT bytes, encoding FROM svc_run_documents WHERE run_id = $1 AND name = $2 AND part = $3', [id, name, part]);
    if (row === undefined) return;
    yield partBytes(row, changed);
  }
}

/** A stored part's bytes: decompressed (`br`), or as they are (`identity`). */
function partBytes({ bytes, encoding }: PartRow, changed: () => Error): Uint8Array {
  return encoding === 'br' ? decompressedPart(bytes, changed) : bytes;
}

/** A Uint8Array as pg sends bytea: a Buffer over the same bytes. */
function bytea(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** The salt of the store's piece keys (piece-packs.ts): 32 random bytes, made in the first append's transaction. */
async function pieceSalt(sql: Sql): Promise<Buffer> {
  await sql('INSERT INTO svc_piece_salt (salt) VALUES ($1) ON CONFLICT DO NOTHING', [randomBytes(32)]);
  const [row] = await sql<{ salt: Buffer }>('SELECT salt FROM svc_piece_salt');
  return row.salt;
}

/**
 * The run a new run's documents and state are written against (their pieces shared where they are the same): the
 * last run of the same source (tool and tenant), else the last run (of those before seq `before`, when given).
 */
async function baseRun(sql: Sql, summary: RunSummary, before = Number.MAX_SAFE_INTEGER): Promise<string | undefined> {
  const [same] = await sql<{ id: string }>(
    `SELECT id FROM svc_runs WHERE summary->'source'->>'tool' IS NOT DISTINCT FROM $1 AND summary->'source'->>'tenant' IS NOT DISTINCT FROM $2 AND seq < $3 ORDER BY seq DESC LIMIT 1`,
    [summary.source?.tool ?? null, summary.source?.tenant ?? null, before],
  );
  if (same !== undefined) return same.id;
  const [last] = await sql<{ id: string }>('SELECT id FROM svc_runs WHERE seq < $1 ORDER BY seq DESC LIMIT 1', [before]);
  return last?.id;
}

/**
 * The piece lists of run `id`'s documents (svc_run_pieces), by name; undefined for a run that has none (recorded
 * before migration 10, or without documents). Lists that are not what svc wrote are tampering at `where`.
 */
async function listsOf(sql: Sql, id: string, where: string): Promise<Map<string, Uint8Array> | undefined> {
  const [row] = await sql<{ lists: Buffer }>('SELECT lists FROM svc_run_pieces WHERE run_id = $1', [id]);
  if (row === undefined) return undefined;
  const undecodable = () => chainTampered(where, 'the piece lists of the run are not the ones svc wrote');
  let lists: Map<string, Uint8Array> | undefined;
  try {
    // A list is at most about a KiB (a longer one is kept as pieces): a run of thousands of pages has a few MiB of them.
    const plain = decompressedWhole(row.lists, RUN_LISTS_BYTES);
    lists = plain && decodeNamedLists(plain);
  } catch (error) {
    if (!(error instanceof CorruptCompression)) throw error;
  }
  if (lists === undefined) throw undecodable();
  return lists;
}

/** Inserts a run's POA&M state and events as parts (stateParts), each as its piece list against the base run's same part. */
async function insertState(
  sql: Sql,
  id: string,
  state: { poam: Iterable<TrackedPoamItem>; events: Iterable<ConmonEvent> },
  pieces: RunPieces,
  base: string | undefined,
): Promise<void> {
  for (const kind of ['poam', 'events'] as const) {
    const lists = new Map<number, Buffer>();
    if (base !== undefined)
      for (const row of await sql<{ part: number; pieces: Buffer }>(
        'SELECT part, pieces FROM svc_run_state WHERE run_id = $1 AND kind = $2 AND pieces IS NOT NULL',
        [base, kind],
      ))
        lists.set(row.part, row.pieces);
    let part = 0;
    for (const items of stateParts(state[kind])) {
      const list = await writeDocumentPieces(once(Buffer.from(items, 'utf8')), id, pieces, await pieces.frames.baseOf(lists.get(part)));
      await sql('INSERT INTO svc_run_state (run_id, kind, part, pieces) VALUES ($1, $2, $3, $4)', [id, kind, part, bytea(list)]);
      part += 1;
    }
  }
}

/** Bytes as they come, as one UTF-8 string: a state part, about a MiB. */
async function textOf(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  return Buffer.concat(await collect(chunks)).toString('utf8');
}
