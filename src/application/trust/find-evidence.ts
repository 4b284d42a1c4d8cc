import { inject, injectable } from 'tsyringe';
import type { RunSummary } from '../../domain/conmon/run-record';
import { InvalidInputError, NotFoundError } from '../../domain/errors';
import { parseDigest } from '../../domain/evidence/content-digest';
import { OCR_KIND } from '../../domain/fedramp/ongoing-records';
import { cursorAt, MAX_PAGE_SIZE } from '../../domain/paging/page';
import { EVIDENCE_LIST, LIST_PAGE_SIZE, type ListItem } from '../../domain/paging/paged-list';
import { CONTENT_HASH_HEX, EvidenceIndexBuilder, type EvidenceIndex } from '../../domain/trust/evidence-index';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { CurrentRun } from '../auditor/current-run';
import { PagedListReader } from '../auditor/paged-list-reader';
import { runRef, type RunRef } from '../auditor/run-ref';
import { OngoingJournal } from '../fedramp/ongoing-journal';
import { Rechecked } from '../shared/rechecked';
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

/** How much of the runs' indexes one process keeps: 8 bytes per entry, so 32 MiB at most, and at most 16 runs. */
export interface EvidenceIndexLimits {
  entries: number;
  runs: number;
}

export const EVIDENCE_INDEX_LIMITS: EvidenceIndexLimits = { entries: 4 * 2 ** 20, runs: 16 };

/** A run the links may point into: the latest, or one an OCR froze (the periods' ends of the OCRs that froze it). */
interface SearchedRun {
  summary: RunSummary;
  latest: boolean;
  snapshots: string[];
}

/** A run's evidence index, and the reader of its pages; no index for a run recorded without evidence pages. */
interface IndexedRun {
  summary: RunSummary;
  reader: PagedListReader;
  index?: EvidenceIndex;
}

interface CachedIndex {
  built: Promise<IndexedRun>;
  /** Entries indexed, once built. */
  entries?: number;
}

/**
 * GET /fedramp/evidence/{sha256} (DESIGN §12.7): the evidence entry an SDR's `evidenceLocation` names by its content
 * hash, so those links resolve when `evidence_base_uri` points at the trust center. The runs searched are the store's
 * latest run, then the runs frozen by recorded OCRs (CDS-CSO-HAD), newest OCR first; the first holding the hash
 * answers. Nothing new is stored with a run: the first lookup in a run makes an EvidenceIndex from one pass over its
 * evidence pages, read by PagedListReader as GET /auditor/evidence reads them (one page at a time); the index is then
 * shared by every request (a run never changes), and a lookup reads the one page (rarely two) its candidates are on.
 * The store is rechecked for a new run or OCR at most once every RECHECK_MS; indexes are kept within `limits`, the
 * least recently used dropped first.
 *
 * Throws NotFoundError `no-run-recorded` before the first run, `no-such-evidence` when no searched run holds the hash;
 * IntegrityError `run-store-tampered` for pages changed outside svc (PagedListReader).
 */
@injectable()
export class FindEvidence {
  /** Test seam: how many indexes are kept. */
  limits: EvidenceIndexLimits = EVIDENCE_INDEX_LIMITS;
  private readonly searched: Rechecked<SearchedRun[]>;
  /** By run id, least recently used first. */
  private readonly indexes = new Map<string, CachedIndex>();

  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(CLOCK) clock: Clock,
    private readonly journal: OngoingJournal,
  ) {
    this.searched = new Rechecked(clock, () => this.runsToSearch());
  }

  async execute(input: FindEvidenceInput): Promise<FoundEvidence> {
    const hex = input.sha256;
    if (!CONTENT_HASH_HEX.test(hex)) throw new InvalidInputError('bad-content-hash', `content hash ${JSON.stringify(hex.slice(0, 80))}: expected 64 lower-case hex digits, as an SDR's evidenceLocation ends`);
    const runs = await this.searched.get();
    if (runs.length === 0) {
      throw new NotFoundError('no-run-recorded', `no run is recorded in the run store at ${this.store.location}, so there is no evidence entry yet; the provider records one with svc conmon process <report>`);
    }
    const unpaged: number[] = [];
    for (const run of runs) {
      const indexed = await this.indexOf(run.summary);
      if (indexed.index === undefined) unpaged.push(run.summary.seq);
      const item = indexed.index && (await this.entryAt(indexed, indexed.index.positions(hex), hex));
      if (item === undefined) continue;
      const body = new TextEncoder().encode(this.hashing.canonicalize(item));
      return { body, sha256: this.hashing.sha256(body), run: runRef(run.summary) };
    }
    const without = unpaged.length === 0 ? '' : `; ${unpaged.map((seq) => `run ${seq}`).join(', ')} ${unpaged.length === 1 ? 'was' : 'were'} recorded without evidence pages (by an earlier svc)`;
    throw new NotFoundError(
      'no-such-evidence',
      `no evidence entry has content hash ${hex} in ${runs.map(label).join(' or ')}: evidence links resolve to the evidence of the latest run and of the runs that recorded OCRs froze${without}`,
    );
  }

  /** The latest run, then the runs of the OCR snapshots, newest OCR first, each once. */
  private async runsToSearch(): Promise<SearchedRun[]> {
    const [runs, ocrs] = await Promise.all([this.store.list(), this.journal.entries(OCR_KIND)]);
    const latest = runs.at(-1);
    if (latest === undefined) return [];
    const bySeq = new Map(runs.map((summary) => [summary.seq, summary]));
    const searched = new Map<number, SearchedRun>([[latest.seq, { summary: latest, latest: true, snapshots: [] }]]);
    for (const { record } of [...ocrs].reverse()) {
      const summary = record.snapshot.run_seq === undefined ? undefined : bySeq.get(record.snapshot.run_seq);
      if (summary === undefined) continue;
      const run = searched.get(summary.seq) ?? { summary, latest: false, snapshots: [] };
      run.snapshots.push(record.period.to);
      searched.set(summary.seq, run);
    }
    return [...searched.values()];
  }

  /** The run's index: built once and shared (concurrent askers wait for the one build); the least recently used dropped past the limits. */
  private indexOf(summary: RunSummary): Promise<IndexedRun> {
    const hit = this.indexes.get(summary.id);
    if (hit !== undefined) {
      this.indexes.delete(summary.id);
      this.indexes.set(summary.id, hit);
      return hit.built;
    }
    const cached: CachedIndex = { built: this.build(summary) };
    this.indexes.set(summary.id, cached);
    cached.built.then(
      (indexed) => {
        cached.entries = indexed.index?.size ?? 0;
        this.dropPast(summary.id);
      },
      // A failed build (the store unreachable, a page changed) is not kept: the next request tries again.
      () => {
        if (this.indexes.get(summary.id) === cached) this.indexes.delete(summary.id);
      },
    );
    return cached.built;
  }

  /** Drops built indexes, least recently used first, until the kept ones are within the limits (`keep` stays). */
  private dropPast(keep: string): void {
    let entries = 0;
    for (const cached of this.indexes.values()) entries += cached.entries ?? 0;
    for (const [id, cached] of this.indexes) {
      if (entries <= this.limits.entries && this.indexes.size <= this.limits.runs) return;
      if (id === keep || cached.entries === undefined) continue;
      this.indexes.delete(id);
      entries -= cached.entries;
    }
  }

  /** One pass over the run's evidence pages, a page at a time, noting each entry's hash prefix and position. */
  private async build(summary: RunSummary): Promise<IndexedRun> {
    const reader = this.readerOf(summary);
    let builder: EvidenceIndexBuilder | undefined;
    let position = 0;
    let cursor: string | undefined;
    do {
      const page = await reader.read(EVIDENCE_LIST, { filter: {}, limit: PAGE_LIMIT, ...(cursor === undefined ? {} : { cursor }) }).catch((error: unknown) => {
        if (error instanceof NotFoundError && error.code === 'no-run-documents') return undefined;
        throw error;
      });
      if (page === undefined) return { summary, reader };
      builder ??= new EvidenceIndexBuilder(page.total);
      for (const item of page.items) {
        const hex = parseDigest(item.content_hash);
        if (hex !== undefined) builder.add(hex, position);
        position += 1;
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return { summary, reader, index: (builder ?? new EvidenceIndexBuilder()).build() };
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
  private async entryAt(indexed: IndexedRun, positions: readonly number[], hex: string): Promise<ListItem | undefined> {
    for (let i = 0; i < positions.length; ) {
      const first = positions[i];
      let last = first;
      for (i += 1; i < positions.length && Math.floor(positions[i] / LIST_PAGE_SIZE) === Math.floor(first / LIST_PAGE_SIZE); i++) last = positions[i];
      const { items } = await indexed.reader.read(EVIDENCE_LIST, { filter: {}, limit: last - first + 1, cursor: cursorAt(first, indexed.summary.id) });
      const found = items.find((item, j) => positions.includes(first + j) && parseDigest(item.content_hash) === hex);
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

const STILL: Clock = { now: () => new Date(0) };

/** The stored pages' size, so each read of the pass reads one page. */
const PAGE_LIMIT = Math.min(LIST_PAGE_SIZE, MAX_PAGE_SIZE);

/** `run 4 (the latest)`, `run 2 (the OCR snapshot of 2026-11-30)`. */
function label(run: SearchedRun): string {
  const snapshots = run.snapshots.length === 0 ? [] : [`the OCR snapshot${run.snapshots.length === 1 ? '' : 's'} of ${run.snapshots.join(', ')}`];
  return `run ${run.summary.seq} (${[...(run.latest ? ['the latest'] : []), ...snapshots].join(', and ')})`;
}
