import type { InjectionToken } from 'tsyringe';
import type { AccessCutoffs, AccessEvent, AccessTally } from '../domain/trust/access-log';

export type { AccessCutoffs, AccessEvent, AccessTally } from '../domain/trust/access-log';

/** What one upkeep of the access log did (pruneAccess). */
export interface AccessUpkeep {
  /** Settled days whose new tallies were folded into their summary. */
  compacted: number;
  /** Days an earlier svc logged (raw events, no summary) summarized from their events. */
  summarized: number;
  /** Days whose raw events were removed (older than `raw_from`). */
  raw_days: number;
  /** Days whose summaries were removed (older than `summaries_from`). */
  summary_days: number;
}

/**
 * The trust center's access log (CDS-TRC-ACL; domain/trust/access-log.ts), kept in the run store beside the runs but
 * apart from their hash chain (it records reads, not decisions). Each appended event is tallied at once into its
 * day's summaries (AccessTally), which the report reads (`accessTallies`), and kept as a raw event too, except a
 * principal's denials of a day beyond MAX_RAW_DENIALS. Raw events are kept `log_days`, summaries `summary_days`
 * (`pruneAccess`). Several processes may append at once.
 *
 * The same stores implement RunStore and JournalStore; the API reaches this side through ACCESS_STORE (a view of the
 * runs, SnapshotStore, does not carry it).
 */
export interface AccessStore {
  /**
   * Logs events: each is checked alone (checkAccessEvent) and every valid one is tallied and, within the bound,
   * kept raw, even when another of the batch is not valid. Throws InvalidInputError `bad-access-event` after writing
   * when one was refused, naming the first refused (by its place in the batch and its problem, never its principal).
   */
  appendAccess(events: readonly AccessEvent[]): Promise<void>;
  /** The raw events kept of the days from `from` to `to` (YYYY-MM-DD, both included), in the order logged per day. */
  accessLog(from: string, to: string): Promise<AccessEvent[]>;
  /**
   * The summaries of `day` (YYYY-MM-DD) as tallied so far, sorted (AccessTallies.list); [] for a day without access.
   * Reads in bounded time whatever the day's number of events: the tallies are kept as they are appended.
   */
  accessTallies(day: string): Promise<AccessTally[]>;
  /**
   * The access log's upkeep, safe while other processes append and read: summarizes settled days (before
   * `settled_before`) into one summary each, summarizes the days an earlier svc logged as raw events only, then
   * removes raw events of days before `raw_from` and summaries of days before `summaries_from`. Returns what it did.
   */
  pruneAccess(cutoffs: AccessCutoffs): Promise<AccessUpkeep>;
}

export const ACCESS_STORE: InjectionToken<AccessStore> = Symbol('AccessStore');
