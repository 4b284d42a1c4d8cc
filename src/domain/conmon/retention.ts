import { DAY_MS, isoSeconds } from '../encoding/iso-time';
import { isPlainObject } from '../encoding/json-values';
import { NotFoundError } from '../errors';
import { OCR_KIND } from '../fedramp/ongoing-records';
import type { JournalEntry } from './journal';
import { KEPT_DOCUMENTS } from './kept-documents';
import type { RunSummary } from './run-record';
import { latestOfEachSource } from './run-sources';

/**
 * Retention of recorded runs (issue 35): the full documents of a run older than `keep_days` (its evidence bundle,
 * OSCAL documents, pages, graphs, indexes) are removed, while its summary, chain link, POA&M state, events and the
 * documents KEPT_DOCUMENTS names stay, so the KSI metrics of a year, the trends and the chain read as before. A run is
 * never pruned while it is the latest of its source (the store's state) or is part of a recorded OCR's snapshot
 * (CDS-CSO-HAD: what an OCR froze is kept for the life of the certification). Each pruning is first recorded as a
 * journal entry of kind PRUNE_KIND (hash-chained), naming the runs: a document of such a run that is gone reads as
 * pruned, while one gone from any other run is still tampering.
 */
export const PRUNE_KIND = 'run-prune';

/** The retention setting: `conmon.retention.keep_days` of svc.config.json. */
export interface Retention {
  keep_days: number;
}

/** The record of a PRUNE_KIND journal entry. */
export interface PruneRecord {
  keep_days: number;
  /** ISO-8601: runs whose as_of is before this were old enough. */
  before: string;
  /** The documents each pruned run keeps. */
  kept: string[];
  runs: { seq: number; id: string }[];
}

/** The fewest days a setting may keep: a month, so the 30-day KSI metrics never need a pruned run's evidence. */
export const MIN_KEEP_DAYS = 31;

/** `conmon.retention` as read from svc.config.json; `fail(path, problem)` says what is wrong with it. */
export function readRetention(value: unknown, fail: (path: string, problem: string) => never): Retention {
  if (!isPlainObject(value)) return fail('conmon.retention', 'expected an object such as {"keep_days": 90}');
  for (const key of Object.keys(value)) if (key !== 'keep_days') fail(`conmon.retention.${key}`, 'unknown setting (known: keep_days)');
  const days = value.keep_days;
  if (typeof days !== 'number' || !Number.isSafeInteger(days) || days < MIN_KEEP_DAYS)
    return fail('conmon.retention.keep_days', `expected a whole number of days, at least ${MIN_KEEP_DAYS}, got ${JSON.stringify(days) ?? 'nothing'}`);
  return { keep_days: days };
}

/**
 * What to prune at `now`: the runs older than `keep_days` that are not the latest of their source, not part of a
 * recorded OCR's snapshot and not pruned before; undefined when there are none.
 */
export function prunePlan(runs: readonly RunSummary[], journal: readonly JournalEntry[], retention: Retention, now: Date): PruneRecord | undefined {
  const before = isoSeconds(new Date(now.getTime() - retention.keep_days * DAY_MS));
  const kept = new Set(latestOfEachSource(runs).map((r) => r.id));
  for (const entry of journal) {
    if (entry.kind === PRUNE_KIND) for (const run of (entry.record as unknown as PruneRecord).runs) kept.add(run.id);
    if (entry.kind !== OCR_KIND) continue;
    const seq = (entry.record as { snapshot?: { run_seq?: number } }).snapshot?.run_seq;
    if (seq !== undefined) for (const r of latestOfEachSource(runs.filter((run) => run.seq <= seq))) kept.add(r.id);
  }
  const pruned = runs.filter((r) => !kept.has(r.id) && Date.parse(r.as_of) < Date.parse(before)).map((r) => ({ seq: r.seq, id: r.id }));
  return pruned.length === 0 ? undefined : { keep_days: retention.keep_days, before, kept: [...KEPT_DOCUMENTS], runs: pruned };
}

/** The journal entry that pruned document `name` of run `id`, if one did. */
export function prunedBy(journal: readonly JournalEntry[], id: string, name: string): JournalEntry | undefined {
  return journal.find((entry) => {
    if (entry.kind !== PRUNE_KIND) return false;
    const record = entry.record as unknown as PruneRecord;
    return !record.kept.includes(name) && record.runs.some((run) => run.id === id);
  });
}

/** What reading a pruned document says: which run, when it was pruned and by what setting, and what is kept. */
export function prunedError(where: string, run: { seq: number; id: string }, name: string, entry: JournalEntry): NotFoundError {
  const record = entry.record as unknown as PruneRecord;
  return new NotFoundError(
    'run-pruned',
    `${where}: ${name} of run ${run.seq} (${run.id}) was pruned on ${entry.recorded_at} (conmon.retention.keep_days ${record.keep_days}, journal entry ${entry.seq}); the run's summary, chain link, POA&M state, events, KSI counts and manifest are kept`,
  );
}
