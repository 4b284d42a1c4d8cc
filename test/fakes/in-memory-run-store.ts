import { appendEvery, appendOne } from '../../src/domain/conmon/append-each';
import { EVIDENCE_BUNDLE_DOCUMENT, type DecidedRun, type RunDocument, type RunSummary, type StoredRun } from '../../src/domain/conmon/run-record';
import { ChainWalk, chainLink, checkRecord, GENESIS, type RunLink } from '../../src/domain/conmon/run-chain';
import { KEPT_DOCUMENTS, keptDocuments } from '../../src/domain/conmon/kept-documents';
import { canonicalText, checkDecided, parseRunKey } from '../../src/domain/conmon/run-id';
import { RecordId, storedRecord } from '../../src/domain/conmon/stored-record';
import { instantsOf, isWithin } from '../../src/domain/conmon/run-range';
import { byName, checkDocumentSources, DocumentBytes, verifiedChunks } from '../../src/domain/conmon/stored-documents';
import {
  checkJournal,
  checkJournalHead,
  checkJournalKind,
  checkJournalValues,
  EMPTY_JOURNAL,
  nextJournalEntry,
  type JournalEntry,
  type JournalHead,
} from '../../src/domain/conmon/journal';
import type {
  AppendDecision,
  AppendedRun,
  AppendOutcome,
  AppendRequest,
  DocumentProducer,
  OpenedDocument,
  PruneDecision,
  PruneOutcome,
  RunRange,
  RunStore,
  RunView,
} from '../../src/ports/run-store';
import { PRUNE_KIND, prunedBy, prunedError } from '../../src/domain/conmon/retention';
import { PureJsHashing } from './pure-js-hashing';
import { AccessTallies, accessDay, isStoredAccessEvent, rawAccessEvents, splitAccessBatch, type AccessEvent } from '../../src/domain/trust/access-log';
import type { AccessCutoffs, AccessStore, AccessTally, AccessUpkeep } from '../../src/ports/access-store';
import type { JournalStore } from '../../src/ports/journal-store';

/** One stored run: its record as canonical text, the rest as stored, and its link in the hash chain. */
export interface MemoryRun {
  text: string;
  run: StoredRun;
  link: RunLink;
  /** The bytes of each document stored with the run, by name. */
  bytes: Map<string, Buffer>;
  /** As the real stores keep them beside the run's list: its kept documents (keptDocuments). */
  kept?: RunDocument[];
}

/** What two InMemoryRunStore instances share, as two processes share a store directory. */
export interface MemoryRuns {
  runs: MemoryRun[];
  /** The chain head: the hash of the last run's link. */
  head: string;
  /** The journal's entries as stored, and its head: the last entry appended (EMPTY_JOURNAL before the first). */
  journal: JournalEntry[];
  journalHead: JournalHead;
  queue: Promise<unknown>;
  /** The access log's raw events, as canonical text (what the file store writes a line of). */
  access?: string[];
  /** The access log's tallies per day (what the stores keep for good). */
  tallies?: Map<string, AccessTallies>;
}

/**
 * RUN_STORE in memory, for use-case tests. It keeps each record as its canonical text and each run's link in the hash
 * chain, so a test can tamper with either, and passes the same contract as the file and PostgreSQL stores
 * (test/integration/in-memory-run-store.test.ts). It follows the same record rules (src/domain/conmon), hashing with
 * the pure-JS double of HASHING.
 */
export class InMemoryRunStore implements RunStore, JournalStore, AccessStore {
  readonly location = 'memory';
  private readonly digest = new PureJsHashing();

  constructor(readonly shared: MemoryRuns = { runs: [], head: GENESIS, journal: [], journalHead: { ...EMPTY_JOURNAL }, queue: Promise.resolve() }) {}

  append(id: string, decide: AppendDecision, produce?: DocumentProducer): Promise<AppendOutcome> {
    return appendOne<AppendRequest, AppendOutcome>((requests, each) => this.appendEach(requests, each), { id, decide, produce });
  }

  appendAll(requests: AsyncIterable<AppendRequest> | Iterable<AppendRequest>): Promise<AppendedRun[]> {
    return appendEvery<AppendRequest, RunSummary>((all, each) => this.appendEach(all, each), requests);
  }

  list(range?: RunRange): Promise<RunSummary[]> {
    return this.committed().list(range);
  }

  get(key: string | number): Promise<StoredRun | undefined> {
    return this.committed().get(key);
  }

  latest(): Promise<StoredRun | undefined> {
    return this.committed().latest();
  }

  openDocument(key: string | number, name: string): Promise<OpenedDocument | undefined> {
    return this.committed().openDocument(key, name);
  }

  openDocuments(keys: readonly (string | number)[], name: string): Promise<(OpenedDocument | undefined)[]> {
    return this.committed().openDocuments(keys, name);
  }

  async reader(): Promise<RunView> {
    return this.committed();
  }

  /** Each request in turn, in one turn of the shared queue; the runs and the head are replaced only once all are decided. */
  private appendEach(requests: AsyncIterable<AppendRequest> | Iterable<AppendRequest>, each: (outcome: AppendOutcome) => void): Promise<void> {
    const next = this.shared.queue.then(async () => {
      this.verifyChain();
      const runs = [...this.shared.runs];
      const view = this.view(runs, () => undefined);
      let { head } = this.shared;
      for await (const { id, decide, produce } of requests) {
        const existing = runs.find((r) => r.run.summary.id === id);
        if (existing) {
          each({ recorded: false, run: this.read(existing) });
          continue;
        }
        const latest = runs.at(-1);
        const seq = runs.length + 1;
        const decided = await decide(latest && this.read(latest), seq, view);
        checkDecided(decided, id, seq);
        const recordId = new RecordId(id, decided.record, this.digest);
        const bytes = new Map<string, Buffer>();
        let documents: RunDocument[] | undefined;
        if (produce) {
          const sources = await produce(decided);
          checkDocumentSources(sources);
          const written: RunDocument[] = [];
          for (const source of sources) {
            const reader = new DocumentBytes(source, [...written], this.digest);
            const parts: Uint8Array[] = [];
            for await (const chunk of source.name === EVIDENCE_BUNDLE_DOCUMENT ? recordId.bundle(reader.chunks()) : reader.chunks()) parts.push(chunk);
            bytes.set(source.name, Buffer.concat(parts));
            written.push(reader.document());
          }
          documents = byName(written);
        }
        recordId.check();
        const run: DecidedRun = documents ? { ...decided, documents } : decided;
        const chained = chainLink(run, head, this.digest);
        runs.push({
          text: canonicalText(run.record),
          run: copy(run) as StoredRun,
          link: chained.link,
          bytes,
          ...(documents ? { kept: copy(keptDocuments(documents)) } : {}),
        });
        head = chained.head;
        each({ recorded: true, run: this.read(runs[seq - 1]) });
      }
      this.shared.runs = runs;
      this.shared.head = head;
    });
    this.shared.queue = next.catch(() => undefined);
    return next;
  }

  private committed(): RunView {
    return this.view(this.shared.runs, () => this.verifyChain());
  }

  /** The store as `runs` make it; `verify` is called before each read. */
  private view(runs: readonly MemoryRun[], verify: () => void): RunView {
    const find = (key: string | number): MemoryRun | undefined => {
      const wanted = parseRunKey(key);
      verify();
      return wanted && runs.find((r) => ('id' in wanted ? r.run.summary.id === wanted.id : r.run.summary.seq === wanted.seq));
    };
    const view: Omit<RunView, 'openDocuments'> = {
      location: this.location,
      list: async (range) => {
        const instants = instantsOf(range);
        verify();
        return runs
          .map((r) => {
            checkRecord(r.link, 'summary', r.run.summary, this.location, this.digest);
            return copy(r.run.summary);
          })
          .filter((summary) => isWithin(summary.as_of, instants));
      },
      get: async (key) => {
        const found = find(key);
        return found && this.read(found);
      },
      latest: async () => {
        verify();
        const last = runs.at(-1);
        return last && this.read(last);
      },
      openDocument: async (key, name) => {
        const found = find(key);
        if (!found) return undefined;
        // As the real stores: a kept document is found through the run's kept documents, which its link names.
        const kept = KEPT_DOCUMENTS.includes(name) && found.link.records.kept !== undefined;
        if (kept) checkRecord(found.link, 'kept', found.kept ?? null, this.location, this.digest);
        const document = (kept ? found.kept : this.read(found).documents)?.find((d) => d.name === name);
        if (!document) return undefined;
        const stored = found.bytes.get(name);
        // As the real stores: a pruned document says so once it is read.
        const pruning = stored === undefined ? prunedBy(this.shared.journal, found.run.summary.id, name) : undefined;
        const gone = pruning && prunedError(this.location, found.run.summary, name, pruning);
        async function* whole(): AsyncGenerator<Uint8Array> {
          if (gone !== undefined) throw gone;
          yield stored ?? Buffer.alloc(0);
        }
        return { document, chunks: verifiedChunks(whole(), document, this.location, this.digest) };
      },
    };
    return { ...view, openDocuments: (keys, name) => Promise.all(keys.map((key) => view.openDocument(key, name))) };
  }

  /** As the real stores: the plan journaled first, then every document of its runs but the kept ones dropped. */
  async prune(decide: PruneDecision, recordedAt: string): Promise<PruneOutcome> {
    const next = this.shared.queue.then(() => {
      this.verifyChain();
      const journal = this.verifiedJournal();
      const plan = decide(
        this.shared.runs.map((r) => copy(r.run.summary)),
        journal,
      );
      if (plan === undefined) return { documents: 0, bytes: 0 };
      const entry = nextJournalEntry(journal.at(-1), PRUNE_KIND, plan as unknown as Record<string, unknown>, recordedAt, this.digest);
      this.shared.journal.push(copy(entry));
      this.shared.journalHead = { seq: entry.seq, hash: entry.hash };
      const removed = { documents: 0, bytes: 0 };
      for (const { bytes } of this.shared.runs.filter((r) => plan.runs.some((p) => p.id === r.run.summary.id))) {
        for (const [name, stored] of [...bytes]) {
          if (plan.kept.includes(name)) continue;
          bytes.delete(name);
          removed.documents += 1;
          removed.bytes += stored.length;
        }
      }
      return { entry, ...removed };
    });
    this.shared.queue = next.catch(() => undefined);
    return next;
  }

  async appendJournal(kind: string, record: Record<string, unknown>, recordedAt: string): Promise<JournalEntry> {
    checkJournalValues(kind, record, recordedAt);
    const next = this.shared.queue.then(() => {
      const entry = nextJournalEntry(this.verifiedJournal().at(-1), kind, record, recordedAt, this.digest);
      this.shared.journal.push(copy(entry));
      this.shared.journalHead = { seq: entry.seq, hash: entry.hash };
      return entry;
    });
    this.shared.queue = next.catch(() => undefined);
    return next;
  }

  async journal(kind?: string): Promise<JournalEntry[]> {
    if (kind !== undefined) checkJournalKind(kind);
    return this.verifiedJournal().filter((entry) => kind === undefined || entry.kind === kind);
  }

  /** As the real stores: every valid event tallied, kept raw within MAX_RAW_DENIALS a principal and day, a bad one refused alone. */
  async appendAccess(events: readonly AccessEvent[]): Promise<void> {
    const { valid, refusal } = splitAccessBatch(events);
    const days = (this.shared.tallies ??= new Map());
    const tallies = (day: string) => days.get(day) ?? days.set(day, new AccessTallies()).get(day)!;
    const kept = rawAccessEvents(valid, (day, principal) => tallies(day).denied(day, principal));
    for (const event of valid) tallies(accessDay(event)).addEvent(event);
    (this.shared.access ??= []).push(...kept.map((e) => canonicalText(e)));
    if (refusal !== undefined) throw refusal;
  }

  async accessLog(from: string, to: string): Promise<AccessEvent[]> {
    return (this.shared.access ?? [])
      .map((line) => JSON.parse(line) as unknown)
      .filter(isStoredAccessEvent)
      .filter((e) => accessDay(e) >= from && accessDay(e) <= to)
      .sort((a, b) => (accessDay(a) < accessDay(b) ? -1 : accessDay(a) > accessDay(b) ? 1 : 0));
  }

  async accessTallies(day: string): Promise<AccessTally[]> {
    return this.shared.tallies?.get(day)?.list() ?? [];
  }

  /** Removes raw events before `raw_from` and tallies before `summaries_from` (there is nothing to compact in memory). */
  async pruneAccess(cutoffs: AccessCutoffs): Promise<AccessUpkeep> {
    const rawDays = new Set((this.shared.access ?? []).map((line) => accessDay(JSON.parse(line) as AccessEvent)).filter((day) => day < cutoffs.raw_from));
    this.shared.access = (this.shared.access ?? []).filter((line) => accessDay(JSON.parse(line) as AccessEvent) >= cutoffs.raw_from);
    let summaryDays = 0;
    for (const day of [...(this.shared.tallies?.keys() ?? [])]) {
      if (day < cutoffs.summaries_from) {
        this.shared.tallies!.delete(day);
        summaryDays += 1;
      }
    }
    return { compacted: 0, summarized: 0, raw_days: rawDays.size, summary_days: summaryDays };
  }

  async close(): Promise<void> {}

  /** Copies of the stored entries, once the chain and its head are shown whole. */
  private verifiedJournal(): JournalEntry[] {
    const entries = checkJournal(copy(this.shared.journal), () => this.location, this.digest);
    checkJournalHead(entries, this.shared.journalHead, this.location);
    return entries;
  }

  private verifyChain(): void {
    const walk = new ChainWalk(() => this.location, this.digest);
    for (const { link, run } of this.shared.runs) walk.next(link, run.summary.id);
    walk.end(this.shared.head, this.location);
  }

  private read(entry: MemoryRun): StoredRun {
    const { summary, poam, events, documents } = entry.run;
    for (const [kind, value] of [
      ['summary', summary],
      ['poam', poam],
      ['events', events],
    ] as const)
      checkRecord(entry.link, kind, value, this.location, this.digest);
    if (documents !== undefined || entry.link.records.documents !== undefined)
      checkRecord(entry.link, 'documents', documents ?? null, this.location, this.digest);
    return { ...copy(entry.run), record: storedRecord(entry.text, entry.link, this.location, this.digest).record };
  }
}

/** A deep copy made in this realm (jest's structuredClone gives objects toEqual does not match). */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
