import { jsonChunks } from '../encoding/json-chunks';
import { IntegrityError } from '../errors';
import type { ContentDigest } from '../evidence/content-digest';
import { keptDocuments } from './kept-documents';
import type { DecidedRun } from './run-record';
import { canonicalText } from './run-id';

/**
 * The SHA-256 a run store's record rules need: one-shot for a link or a stored record, a piece at a time for records
 * and documents too large to be one string. Every store passes the HASHING adapter (the in-memory double its own).
 */
export type RunDigest = Pick<ContentDigest, 'sha256' | 'sha256Hasher'>;

export const RUN_LINK_SCHEMA = 'svc.run-link/v1';
/** The `prev` of run 1, and the head of an empty store. */
export const GENESIS = '0'.repeat(64);

/**
 * One run's place in the store's hash chain: the SHA-256 of every record stored for the run, and the head of the
 * chain before it. The run's head is the SHA-256 of the link's canonical JSON, so a change to any record, to a link
 * or to the order of runs breaks every head after it. `records` is open: a record kind added later (a per-run
 * document) is one more entry, and links written before it simply do not name it.
 */
export interface RunLink {
  schema: typeof RUN_LINK_SCHEMA;
  seq: number;
  id: string;
  /** The run's as_of and recorded_at as UTC instants (ISO-8601, ms): the order of runs and the time each speaks for. */
  as_of: string;
  recorded_at: string;
  prev: string;
  /**
   * Record kind → lowercase hex SHA-256 of its canonical JSON: `record` is the run id (of the record with its evidence
   * bundle), `head` the record without it (absent from links of svc 0.5.0's runs, whose stored record is the whole).
   */
  records: Record<string, string>;
}

/** The records every run has; how each is named in messages. */
export const RECORD_KINDS = {
  record: 'record',
  head: 'record',
  summary: 'summary',
  poam: 'POA&M state',
  events: 'events',
  documents: 'document list',
  kept: 'kept document list',
} as const;
export type RecordKind = keyof typeof RECORD_KINDS;

/**
 * The link of `run` after the chain head `prev`, and the head it makes. `hashed`: the POA&M state's and events'
 * digests where they were taken as they were written (hashedState), so neither is walked again.
 */
export function chainLink(
  run: Pick<DecidedRun, 'summary' | 'poam' | 'events' | 'documents'> & { record?: DecidedRun['record'] },
  prev: string,
  digest: RunDigest,
  hashed?: StateDigests,
): { link: RunLink; head: string } {
  const link: RunLink = {
    schema: RUN_LINK_SCHEMA,
    seq: run.summary.seq,
    id: run.summary.id,
    as_of: instant(run.summary.as_of),
    recorded_at: instant(run.summary.recorded_at),
    prev,
    records: {
      record: run.summary.id,
      ...(run.record ? { head: hashOf(run.record, digest) } : {}),
      summary: hashOf(run.summary, digest),
      poam: hashed?.poam ?? hashOf(run.poam, digest),
      events: hashed?.events ?? hashOf(run.events, digest),
      ...(run.documents ? { documents: hashOf(run.documents, digest), kept: hashOf(keptDocuments(run.documents), digest) } : {}),
    },
  };
  return { link, head: headOf(link, digest) };
}

export function headOf(link: RunLink, digest: RunDigest): string {
  return digest.sha256(canonicalText(link));
}

/** The digests a link keeps of a run's POA&M state and events. */
export interface StateDigests {
  poam: string;
  events: string;
}

/**
 * A run's state as the file store keeps it, the canonical text of `{"events":[…],"poam":[…],"summary":{…}}` a piece
 * at a time (what jsonChunks writes of it), with its events' and POA&M state's digests (hashOf) taken as the text goes
 * by: `digests` gives them once the text has been read to its end. A large run's lifecycle is merged again for every
 * read of it (recordStep), so hashing it for the link apart from writing it was two more walks of every result.
 */
export function hashedState(
  state: Pick<DecidedRun, 'summary' | 'poam' | 'events'>,
  digest: RunDigest,
): { chunks: Iterable<string>; digests: () => StateDigests } {
  let digests: StateDigests | undefined;
  function* hashing(value: unknown, into: { update(data: string): void }): Generator<string> {
    for (const piece of jsonChunks(value, 'canonical')) {
      into.update(piece);
      yield piece;
    }
  }
  function* chunks(): Generator<string> {
    const [events, poam] = [digest.sha256Hasher(), digest.sha256Hasher()];
    yield '{"events":';
    yield* hashing(state.events, events);
    yield ',"poam":';
    yield* hashing(state.poam, poam);
    yield ',"summary":';
    yield* jsonChunks(state.summary, 'canonical');
    yield '}';
    digests = { poam: poam.digest(), events: events.digest() };
  }
  return {
    chunks: { [Symbol.iterator]: chunks },
    digests: () => {
      if (digests === undefined) throw new Error('the state must be read to its end before its digests');
      return digests;
    },
  };
}

/**
 * The SHA-256 a link keeps for a JSON record: of its canonical JSON, hashed a piece at a time, so the POA&M state and
 * events of a large run are never one string.
 */
export function hashOf(value: unknown, digest: RunDigest): string {
  const hash = digest.sha256Hasher();
  for (const piece of jsonChunks(value, 'canonical')) hash.update(piece);
  return hash.digest();
}

/** An ISO-8601 time as the instant both stores agree on (JavaScript's reading of it). */
export function instant(iso: string): string {
  return new Date(Date.parse(iso)).toISOString();
}

/** Throws run-store-tampered naming `where` when record `kind` of the run no longer hashes to what its link says. */
export function checkRecord(link: RunLink, kind: Exclude<RecordKind, 'record'>, value: unknown, where: string, digest: RunDigest): void {
  if (link.records[kind] !== hashOf(value, digest)) {
    throw chainTampered(where, `the hash chain does not match the ${RECORD_KINDS[kind]} of run ${link.seq} (${link.id})`);
  }
}

/**
 * Walks the chain from run 1 and returns its head: every link must be the next seq and follow the head before it.
 * `where` names each link in errors. Memory: one link at a time.
 */
export class ChainWalk {
  private head = GENESIS;
  private seq = 0;

  constructor(
    private readonly where: (seq: number) => string,
    private readonly digest: RunDigest,
  ) {}

  /** `id` and `seq` are what the store lists the run as. */
  next(link: RunLink, id: string, seq = this.seq + 1): string {
    const expected = this.seq + 1;
    if (!isLink(link) || link.seq !== expected || seq !== expected || link.id !== id) {
      throw chainTampered(this.where(expected), `the chain link of run ${expected} (${id}) is not the link of that run`);
    }
    if (link.prev !== this.head) {
      throw chainTampered(
        this.where(expected),
        `the chain link of run ${expected} (${id}) does not follow ${expected === 1 ? 'the start of the chain' : `run ${expected - 1}`}`,
      );
    }
    this.seq = expected;
    this.head = headOf(link, this.digest);
    return this.head;
  }

  /** The stored chain head must be the head of the last link: otherwise runs were removed or the last link changed. */
  end(stored: string, where: string): void {
    if (stored !== this.head) {
      const latest = this.seq === 0 ? 'an empty store' : `run ${this.seq}, the latest run`;
      throw chainTampered(where, `the chain head does not match ${latest}`);
    }
  }
}

export function isLink(value: unknown): value is RunLink {
  const link = value as RunLink | null;
  return (
    typeof link === 'object' &&
    link !== null &&
    link.schema === RUN_LINK_SCHEMA &&
    Number.isSafeInteger(link.seq) &&
    typeof link.id === 'string' &&
    typeof link.prev === 'string' &&
    typeof link.records === 'object' &&
    link.records !== null
  );
}

export function chainTampered(where: string, problem: string): IntegrityError {
  return new IntegrityError('run-store-tampered', `${where}: ${problem}; the store was modified outside svc. Restore it from backup`);
}
