import { inject, injectable } from 'tsyringe';
import type { RunSummary } from '../../domain/conmon/run-record';
import { IntegrityError, InvalidInputError, NotFoundError } from '../../domain/errors';
import { parseDigest } from '../../domain/evidence/content-digest';
import { latestOfEachSource, sourceKey } from '../../domain/conmon/run-sources';
import { OCR_KIND } from '../../domain/fedramp/ongoing-records';
import { cursorAt, MAX_PAGE_SIZE } from '../../domain/paging/page';
import { EVIDENCE_LIST, LIST_PAGE_SIZE, pageDocumentName, type ListItem } from '../../domain/paging/paged-list';
import {
  bucketDocumentName,
  bucketOf,
  checkEvidenceIndexHeader,
  CONTENT_HASH_HEX,
  EVIDENCE_INDEX_DOCUMENT,
  EvidenceIndexBuilder,
  positionsInBucket,
  type EvidenceIndex,
  type EvidenceIndexHeader,
} from '../../domain/trust/evidence-index';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { CurrentRun } from '../auditor/current-run';
import { PagedListReader } from '../auditor/paged-list-reader';
import { runRef, type RunRef } from '../auditor/run-ref';
import { OngoingJournal } from '../fedramp/ongoing-journal';
import { BuildSlots, type BuildSlotLimits } from '../shared/build-slots';
import { Rechecked } from '../shared/rechecked';
import { readStoredText } from '../shared/stored-text';
import { SnapshotStore } from './snapshot-store';

export interface FindEvidenceInput {
  /** The content hash of the entry: 64 lower-case hex digits, as the SDR's evidenceLocation ends. */
  sha256: string;
}

export interface FoundEvidence {
  /** The entry as the run's evidence page holds it: RFC 8785 canonical JSON, the entry of the stored evidence bundle. */
  body: Uint8Array;
  /** Lower-case hex SHA-256 of `body` (not the content hash, which leaves out content_hash and observed_at). */
  sha256: string;
  /** The run it was found in. */
  run: RunRef;
}

/**
 * How many indexes of runs recorded without one (by an svc before the stored index) are built at a time, and how many
 * more may wait: one at a time, so such builds never compete with each other for the process.
 */
export const LEGACY_INDEX_BUILDS: BuildSlotLimits = { running: 1, waiting: 64 };

/**
 * How many bytes of stored index buckets one process keeps once read (the least recently used dropped first): every
 * bucket of 18 runs of 100,000 results (14 MB), a quarter of a run of 8 million. A bucket not kept is read again, one
 * small document, never rebuilt.
 */
export const EVIDENCE_BUCKET_BYTES = 16 * 2 ** 20;

/** What the lookups have done, for tests and the server log. */
export interface EvidenceLookupCounts {
  /** Indexes built from a run's evidence pages (runs recorded without a stored index); each run's once. */
  built: number;
  /** Stored index buckets read: one per run searched that holds entries. */
  bucketsRead: number;
  /** Evidence pages read for the entries the index pointed at. */
  pagesRead: number;
}

/**
 * A run the links may point into: the latest of its source (the store's state, docs/conmon.md "Sources"; `source` is
 * named when the state has several), or one an OCR froze (the periods' ends of the OCRs that froze it).
 */
interface SearchedRun {
  summary: RunSummary;
  latest: boolean;
  source?: string;
  snapshots: string[];
}

/**
 * The index of a run recorded without a stored one, built from its pages, and the reader of its pages; no index for a
 * run recorded without evidence pages.
 */
interface BuiltIndex {
  reader: PagedListReader;
  index?: EvidenceIndex;
}

/**
 * GET /fedramp/evidence/{sha256} (DESIGN §12.7): the evidence entry an SDR's `evidenceLocation` names by its content
 * hash, so those links resolve when `evidence_base_uri` points at the trust center. The runs searched are the store's
 * state, the latest run of every source (newest first), then the runs frozen by recorded OCRs (CDS-CSO-HAD), newest
 * OCR first; the first holding the hash answers.
 *
 * Each run carries its index, made when it was recorded (EVIDENCE_INDEX_DOCUMENT, docs/hashing.md): a lookup reads the
 * run's index header once (kept while the run is searched), then per run searched the one bucket the hash falls in (a
 * few tens of KB, checked against the hash chain as it is read; the buckets read are kept up to EVIDENCE_BUCKET_BYTES),
 * and only the evidence page a candidate is on. Nothing is built per request, and no cache has to hold the runs: the
 * work of a request is bounded by the number of runs searched. A run recorded before svc stored indexes has its index
 * built once from one pass over its evidence pages (PagedListReader, as GET /auditor/evidence reads them), at most one
 * such build at a time (LEGACY_INDEX_BUILDS; past its queue UnavailableError `busy`), and kept (8 bytes an entry)
 * while the run is searched. The store is rechecked for a new run or OCR at most once every RECHECK_MS.
 *
 * Throws NotFoundError `no-run-recorded` before the first run, `no-such-evidence` when no searched run holds the hash;
 * IntegrityError `run-store-tampered` for an index or page changed outside svc; UnavailableError `busy` when more
 * requests wait for index builds than LEGACY_INDEX_BUILDS queues.
 */
@injectable()
export class FindEvidence {
  readonly counts: EvidenceLookupCounts = { built: 0, bucketsRead: 0, pagesRead: 0 };
  /** Test seam: how many bytes of buckets are kept (EVIDENCE_BUCKET_BYTES). */
  bucketBytes = EVIDENCE_BUCKET_BYTES;
  /** Told each time the index of a run recorded without one is built (the route writes it to the server log). */
  onIndexBuilt?: (run: RunRef, entries: number) => void;
  private readonly searched: Rechecked<SearchedRun[]>;
  /** The stored index header of each searched run (null: the run has none), by run id. */
  private readonly headers = new Map<string, Promise<EvidenceIndexHeader | null>>();
  /** The indexes built for searched runs recorded without one, by run id. */
  private readonly built = new Map<string, Promise<BuiltIndex>>();
  private readonly builds: BuildSlots;
  /** Buckets read, by `<run id>/<bucket>`, least recently used first, and their bytes in all. */
  private readonly buckets = new Map<string, Uint8Array>();
  private bucketsKept = 0;
  /** Buckets being read, by the same key. */
  private readonly reading = new Map<string, Promise<Uint8Array>>();

  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(CLOCK) clock: Clock,
    private readonly journal: OngoingJournal,
  ) {
    this.searched = new Rechecked(clock, () => this.runsToSearch());
    this.builds = new BuildSlots(LEGACY_INDEX_BUILDS, 'the evidence indexes of runs recorded without one');
  }

  /** What is kept now, for tests: index headers and built indexes of searched runs, and the buckets read (and their bytes). */
  get kept(): { headers: number; built: number; buckets: number; bucketBytes: number } {
    return { headers: this.headers.size, built: this.built.size, buckets: this.buckets.size, bucketBytes: this.bucketsKept };
  }

  async execute(input: FindEvidenceInput): Promise<FoundEvidence> {
    const hex = input.sha256;
    if (!CONTENT_HASH_HEX.test(hex))
      throw new InvalidInputError(
        'bad-content-hash',
        `content hash ${JSON.stringify(hex.slice(0, 80))}: expected 64 lower-case hex digits, as an SDR's evidenceLocation ends`,
      );
    const runs = await this.searched.get();
    if (runs.length === 0) {
      throw new NotFoundError(
        'no-run-recorded',
        'no run is recorded yet, so there is no evidence entry; the provider records one with svc conmon process <report>',
      );
    }
    const unpaged: number[] = [];
    for (const run of runs) {
      const item = await this.lookup(run.summary, hex);
      if (item === null) unpaged.push(run.summary.seq);
      if (item === null || item === undefined) continue;
      const body = new TextEncoder().encode(this.hashing.canonicalize(item));
      return { body, sha256: this.hashing.sha256(body), run: runRef(run.summary) };
    }
    const without =
      unpaged.length === 0
        ? ''
        : `; ${unpaged.map((seq) => `run ${seq}`).join(', ')} ${unpaged.length === 1 ? 'was' : 'were'} recorded without evidence pages (by an earlier svc)`;
    throw new NotFoundError(
      'no-such-evidence',
      `no evidence entry has content hash ${hex} in ${runs.map(label).join(' or ')}: evidence links resolve to the evidence of the latest run of every source and of the runs that recorded OCRs froze${without}`,
    );
  }

  /** The run's entry with content hash `hex`; undefined when it has none, null when the run has no evidence pages. */
  private async lookup(summary: RunSummary, hex: string): Promise<ListItem | undefined | null> {
    const header = await this.headerOf(summary);
    if (header !== null) return this.fromStored(summary, header, hex);
    const built = await this.builtIndex(summary);
    if (built.index === undefined) return null;
    return this.entryAt(summary, built.reader, built.index.positions(hex), hex);
  }

  /**
   * The latest run of every source, newest first, then the runs of the OCR snapshots, newest OCR first, each once; what
   * is kept of other runs is dropped.
   */
  private async runsToSearch(): Promise<SearchedRun[]> {
    const [runs, ocrs] = await Promise.all([this.store.list(), this.journal.entries(OCR_KIND)]);
    const state = latestOfEachSource(runs).reverse();
    const searched = new Map<number, SearchedRun>();
    if (state.length > 0) {
      const bySeq = new Map(runs.map((summary) => [summary.seq, summary]));
      for (const summary of state)
        searched.set(summary.seq, { summary, latest: true, ...(state.length > 1 ? { source: sourceKey(summary.source) } : {}), snapshots: [] });
      for (const { record } of [...ocrs].reverse()) {
        const summary = record.snapshot.run_seq === undefined ? undefined : bySeq.get(record.snapshot.run_seq);
        if (summary === undefined) continue;
        const run = searched.get(summary.seq) ?? { summary, latest: false, snapshots: [] };
        run.snapshots.push(record.period.to);
        searched.set(summary.seq, run);
      }
    }
    // A run no longer searched (a newer run is the latest, and no OCR froze it) is never read again.
    const ids = new Set([...searched.values()].map((run) => run.summary.id));
    for (const kept of [this.headers, this.built]) for (const id of kept.keys()) if (!ids.has(id)) kept.delete(id);
    for (const [key, bytes] of this.buckets) {
      if (ids.has(key.slice(0, key.indexOf('/')))) continue;
      this.buckets.delete(key);
      this.bucketsKept -= bytes.length;
    }
    return [...searched.values()];
  }

  /** The run's stored index header, read once; null for a run recorded without one. A failed read is not kept. */
  private headerOf(summary: RunSummary): Promise<EvidenceIndexHeader | null> {
    return this.once(this.headers, summary.id, async () => {
      const text = await readStoredText(this.store, summary.id, EVIDENCE_INDEX_DOCUMENT);
      if (text === undefined) return null;
      return checkEvidenceIndexHeader(parseJson(text), this.where(summary, EVIDENCE_INDEX_DOCUMENT));
    });
  }

  /** The entry with content hash `hex` through the run's stored index: one bucket, then the page of each candidate. */
  private async fromStored(summary: RunSummary, header: EvidenceIndexHeader, hex: string): Promise<ListItem | undefined> {
    if (header.entries === 0) return undefined;
    const bucket = bucketOf(hex, header.bucket_bits);
    const where = this.where(summary, bucketDocumentName(bucket));
    const bytes = await this.bucket(summary, header, bucket);
    const positions = positionsInBucket(bytes, hex, { bucket, bits: header.bucket_bits, entries: header.entries, what: where });
    let page: { number: number; items: ListItem[] } | undefined;
    for (const position of positions) {
      const number = Math.floor(position / header.page_size);
      if (page?.number !== number) page = { number, items: await this.page(summary, number) };
      const item = page.items[position - number * header.page_size];
      if (item === undefined)
        throw new IntegrityError(
          'run-store-tampered',
          `${where} names position ${position}, which ${pageDocumentName(EVIDENCE_LIST, number)} does not hold; the store was modified outside svc. Restore it from backup`,
        );
      if (parseDigest(item.content_hash) === hex) return item;
    }
    return undefined;
  }

  /**
   * Bucket `bucket` of the run's stored index: kept from an earlier lookup, else read whole (checked against the hash
   * chain) and kept; concurrent lookups share one read.
   */
  private bucket(summary: RunSummary, header: EvidenceIndexHeader, bucket: number): Promise<Uint8Array> {
    const key = `${summary.id}/${bucket}`;
    const hit = this.buckets.get(key);
    if (hit !== undefined) {
      this.buckets.delete(key);
      this.buckets.set(key, hit);
      return Promise.resolve(hit);
    }
    return this.once(this.reading, key, () => this.readBucket(summary, header, bucket, key)).finally(() => this.reading.delete(key));
  }

  private async readBucket(summary: RunSummary, header: EvidenceIndexHeader, bucket: number, key: string): Promise<Uint8Array> {
    const name = bucketDocumentName(bucket);
    const opened = await this.store.openDocument(summary.id, name);
    if (opened === undefined) {
      throw new IntegrityError(
        'run-store-tampered',
        `${this.where(summary, name)}: the run's ${EVIDENCE_INDEX_DOCUMENT} has ${2 ** header.bucket_bits} buckets but the run has no ${name}; the store was modified outside svc. Restore it from backup`,
      );
    }
    const parts: Uint8Array[] = [];
    for await (const chunk of opened.chunks) parts.push(chunk);
    this.counts.bucketsRead += 1;
    const bytes = concat(parts);
    if (bytes.length <= this.bucketBytes) {
      for (const [old, kept] of this.buckets) {
        if (this.bucketsKept + bytes.length <= this.bucketBytes) break;
        this.buckets.delete(old);
        this.bucketsKept -= kept.length;
      }
      this.buckets.set(key, bytes);
      this.bucketsKept += bytes.length;
    }
    return bytes;
  }

  /** Page `number` of the run's evidence list, read whole (checked against the hash chain) and parsed. */
  private async page(summary: RunSummary, number: number): Promise<ListItem[]> {
    const name = pageDocumentName(EVIDENCE_LIST, number);
    const text = await readStoredText(this.store, summary.id, name);
    this.counts.pagesRead += 1;
    const items = text === undefined ? undefined : parseJson(text);
    if (!Array.isArray(items))
      throw new IntegrityError(
        'run-store-tampered',
        `${this.where(summary, name)}: the run's ${EVIDENCE_INDEX_DOCUMENT} points into a page the run does not hold; the store was modified outside svc. Restore it from backup`,
      );
    return items as ListItem[];
  }

  /** The index of a run recorded without a stored one: built once, one such build at a time, kept while the run is searched. */
  private builtIndex(summary: RunSummary): Promise<BuiltIndex> {
    return this.once(this.built, summary.id, () =>
      this.builds.run(summary.id, async () => {
        const built = await this.build(summary);
        this.counts.built += 1;
        this.onIndexBuilt?.(runRef(summary), built.index?.size ?? 0);
        return built;
      }),
    );
  }

  /** `make()` once per key, shared by concurrent askers; a failure is not kept, so the next request tries again. */
  private once<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
    let hit = map.get(key);
    if (hit === undefined) {
      hit = make();
      map.set(key, hit);
      const made = hit;
      made.catch(() => {
        if (map.get(key) === made) map.delete(key);
      });
    }
    return hit;
  }

  /** One pass over the run's evidence pages, a page at a time, noting each entry's hash prefix and position. */
  private async build(summary: RunSummary): Promise<BuiltIndex> {
    const reader = this.readerOf(summary);
    let builder: EvidenceIndexBuilder | undefined;
    let position = 0;
    let cursor: string | undefined;
    do {
      const page = await reader.read(EVIDENCE_LIST, { filter: {}, limit: PAGE_LIMIT, ...(cursor === undefined ? {} : { cursor }) }).catch((error: unknown) => {
        if (error instanceof NotFoundError && error.code === 'no-run-documents') return undefined;
        throw error;
      });
      if (page === undefined) return { reader };
      builder ??= new EvidenceIndexBuilder(page.total);
      for (const item of page.items) {
        const hex = parseDigest(item.content_hash);
        if (hex !== undefined) builder.add(hex, position);
        position += 1;
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return { reader, index: (builder ?? new EvidenceIndexBuilder()).build() };
  }

  /**
   * PagedListReader reads the lists of the run its CurrentRun names: over the store cut off at this run (SnapshotStore),
   * the current run is this one, whatever is recorded later, and a clock that stands still has CurrentRun ask once
   * (the run never changes). Pages are opened in the store itself.
   */
  private readerOf(summary: RunSummary): PagedListReader {
    return new PagedListReader(new CurrentRun(new SnapshotStore(this.store, { run_seq: summary.seq, journal_seq: 0 }), STILL), this.store);
  }

  /** The first entry at `positions` (ascending) whose content hash is `hex`: the candidates of one page read together. */
  private async entryAt(summary: RunSummary, reader: PagedListReader, positions: readonly number[], hex: string): Promise<ListItem | undefined> {
    for (let i = 0; i < positions.length;) {
      const first = positions[i];
      let last = first;
      for (i += 1; i < positions.length && Math.floor(positions[i] / LIST_PAGE_SIZE) === Math.floor(first / LIST_PAGE_SIZE); i++) last = positions[i];
      const { items } = await reader.read(EVIDENCE_LIST, { filter: {}, limit: last - first + 1, cursor: cursorAt(first, summary.id) });
      this.counts.pagesRead += 1;
      const found = items.find((item, j) => positions.includes(first + j) && parseDigest(item.content_hash) === hex);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** `<store> run 3 evidence-index.0001.bin`: where a stored document is, for messages. */
  private where(summary: RunSummary, name: string): string {
    return `${this.store.location} run ${summary.seq} ${name}`;
  }
}

const STILL: Clock = { now: () => new Date(0) };

/** The stored pages' size, so each read of the pass reads one page. */
const PAGE_LIMIT = Math.min(LIST_PAGE_SIZE, MAX_PAGE_SIZE);

/** `run 4 (the latest)`, `run 3 (the latest of Trivy)`, `run 2 (the OCR snapshot of 2026-11-30)`. */
function label(run: SearchedRun): string {
  const snapshots = run.snapshots.length === 0 ? [] : [`the OCR snapshot${run.snapshots.length === 1 ? '' : 's'} of ${run.snapshots.join(', ')}`];
  const latest = run.latest ? [run.source === undefined ? 'the latest' : `the latest of ${run.source}`] : [];
  return `run ${run.summary.seq} (${[...latest, ...snapshots].join(', and ')})`;
}

/** A stored document's text as JSON; a document that is not JSON is undefined (the caller says what it should be). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
