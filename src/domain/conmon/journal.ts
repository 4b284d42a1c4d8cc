import { type IntegrityError, InvalidInputError } from '../errors';
import { chainTampered, type RunDigest } from './run-chain';
import { canonicalText } from './run-id';

/** One record of the store's journal: a decision recorded between runs (a vulnerability evaluation), in the order appended. */
export interface JournalEntry {
  /** 1, 2, …: the order appended, over every kind. */
  seq: number;
  /** What the record is: `vulnerability-evaluation`. */
  kind: string;
  /** When it was recorded (ISO-8601 UTC, given by the caller: `--now` or the clock). */
  recorded_at: string;
  /** A JSON object, stored and returned as given (its canonical form is what is hashed). */
  record: Record<string, unknown>;
  /** Hex SHA-256 of the entry before, or null for the first. */
  prev: string | null;
  /** Hex SHA-256 of the RFC 8785 canonical JSON of {seq, kind, recorded_at, record, prev}. */
  hash: string;
}

/**
 * The last entry a store has committed: what a store keeps beside the entries (as it keeps the runs' chain head), so
 * that entries removed from the end show too. `{seq: 0, hash: null}` for an empty journal.
 */
export interface JournalHead {
  seq: number;
  hash: string | null;
}

export const EMPTY_JOURNAL: JournalHead = { seq: 0, hash: null };

const KIND = /^[a-z-]+$/;
const HEX64 = /^[0-9a-f]{64}$/;

/** The entry's hash: the SHA-256 of the canonical JSON of everything in it but the hash. */
export function journalHash(entry: Omit<JournalEntry, 'hash'>, digest: Pick<RunDigest, 'sha256'>): string {
  const { seq, kind, recorded_at, record, prev } = entry;
  return digest.sha256(canonicalText({ seq, kind, recorded_at, record, prev }));
}

/**
 * The entry that follows `last` (undefined for the first), its values checked first (InvalidInputError). Its record is
 * a copy read back from the canonical text, so what the caller holds and what is stored cannot drift apart.
 */
export function nextJournalEntry(
  last: JournalEntry | undefined,
  kind: string,
  record: Record<string, unknown>,
  recordedAt: string,
  digest: Pick<RunDigest, 'sha256'>,
): JournalEntry {
  checkJournalValues(kind, record, recordedAt);
  const entry = {
    seq: (last?.seq ?? 0) + 1,
    kind,
    recorded_at: recordedAt,
    record: JSON.parse(canonicalText(record)) as Record<string, unknown>,
    prev: last?.hash ?? null,
  };
  return { ...entry, hash: journalHash(entry, digest) };
}

/** A kind is a non-empty word of lowercase letters and hyphens (`vulnerability-evaluation`). */
export function checkJournalKind(kind: unknown): asserts kind is string {
  if (typeof kind !== 'string' || !KIND.test(kind)) {
    throw new InvalidInputError('bad-journal-kind', `${JSON.stringify(kind) ?? String(kind)}: not a journal kind (lowercase letters and hyphens)`);
  }
}

/** Refuses a kind, record or time a journal entry cannot carry: a caller's mistake, before anything is written. */
export function checkJournalValues(kind: unknown, record: unknown, recordedAt: unknown): void {
  checkJournalKind(kind);
  const problem = jsonObjectProblem(record);
  if (problem) throw new InvalidInputError('bad-journal-record', `journal record of kind ${kind}: ${problem}`);
  if (typeof recordedAt !== 'string' || Number.isNaN(Date.parse(recordedAt))) {
    throw new InvalidInputError('bad-journal-time', `${JSON.stringify(recordedAt) ?? String(recordedAt)}: not an ISO-8601 time for a journal entry`);
  }
}

/**
 * Checks a journal as a store read it, from its first entry: entry k must be seq k, hash to its hash and name the
 * hash of entry k-1 as `prev`. A changed entry fails its hash; an entry removed, inserted or moved is out of place or
 * does not follow the one before. Throws run-store-tampered naming the first bad seq; `where(seq)` says where it is.
 * Values a store could not parse come as anything else, and are "not an entry svc wrote".
 */
export function checkJournal(entries: readonly unknown[], where: (seq: number) => string, digest: Pick<RunDigest, 'sha256'>): JournalEntry[] {
  let prev: string | null = null;
  return entries.map((value, i) => {
    const seq = i + 1;
    if (!isEntry(value)) throw journalTampered(where(seq), seq, 'is not an entry svc wrote');
    if (value.seq !== seq) throw journalTampered(where(seq), seq, `is missing or out of place (entry ${value.seq} is in its place)`);
    if (value.hash !== journalHash(value, digest)) throw journalTampered(where(seq), seq, 'does not match its hash');
    if (value.prev !== prev) throw journalTampered(where(seq), seq, seq === 1 ? 'does not start the journal' : `does not follow entry ${seq - 1}`);
    prev = value.hash;
    return value;
  });
}

/** The checked entries must end at the head the store keeps: otherwise the latest entries were removed, or added by hand. */
export function checkJournalHead(entries: readonly JournalEntry[], head: unknown, where: string): void {
  if (!isHead(head)) throw chainTampered(where, 'the journal head is not one svc wrote');
  const last = entries.at(-1);
  if (entries.length < head.seq) throw journalTampered(where, entries.length + 1, `is missing (the journal head names entry ${head.seq} as the latest)`);
  if (entries.length > head.seq) throw journalTampered(where, head.seq + 1, `is not in the journal head (it ends at entry ${head.seq})`);
  if ((last?.hash ?? null) !== head.hash) throw journalTampered(where, head.seq, 'is not the latest entry the journal head names');
}

export function isHead(value: unknown): value is JournalHead {
  const head = value as JournalHead | null;
  return (
    typeof head === 'object' &&
    head !== null &&
    Number.isSafeInteger(head.seq) &&
    head.seq >= 0 &&
    (head.seq === 0 ? head.hash === null : typeof head.hash === 'string' && HEX64.test(head.hash))
  );
}

function isEntry(value: unknown): value is JournalEntry {
  const entry = value as JournalEntry | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    Number.isSafeInteger(entry.seq) &&
    typeof entry.kind === 'string' &&
    typeof entry.recorded_at === 'string' &&
    isPlainObject(entry.record) &&
    (entry.prev === null || typeof entry.prev === 'string') &&
    typeof entry.hash === 'string'
  );
}

function journalTampered(where: string, seq: number, problem: string): IntegrityError {
  return chainTampered(where, `journal entry ${seq} ${problem}`);
}

/**
 * Why `value` is not a plain JSON object (one that reads back from its JSON as it is), or undefined when it is: only
 * null, booleans, finite numbers, strings, arrays and plain objects, without cycles, all the way down.
 */
function jsonObjectProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'not a plain JSON object';
  const ancestors = new Set<object>();
  const problemAt = (item: unknown, path: string): string | undefined => {
    if (item === null || typeof item === 'boolean' || typeof item === 'string') return undefined;
    if (typeof item === 'number') return Number.isFinite(item) ? undefined : `${path} is ${item}, which JSON cannot carry`;
    if (typeof item !== 'object') return `${path} is ${typeof item}, which JSON cannot carry`;
    if (!Array.isArray(item) && !isPlainObject(item)) return `${path} is not a plain object`;
    if (ancestors.has(item)) return `${path} contains itself`;
    ancestors.add(item);
    const entries: [string, unknown][] = Array.isArray(item) ? item.map((v, i) => [`[${i}]`, v]) : Object.entries(item).map(([k, v]) => [`.${k}`, v]);
    for (const [step, child] of entries) {
      const problem = problemAt(child, `${path}${step}`);
      if (problem) return problem;
    }
    ancestors.delete(item);
    return undefined;
  };
  return problemAt(value, 'record');
}

/** An object literal, JSON.parse's, or Object.create(null), from any realm (a test runner's vm has its own Object). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.prototype.toString.call(value) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}
