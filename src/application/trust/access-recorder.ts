import { inject, injectable } from 'tsyringe';
import { isoSeconds } from '../../domain/encoding/iso-time';
import {
  accessCutoffs,
  accessEventProblem,
  DEFAULT_ACCESS_LOG_DAYS,
  DEFAULT_ACCESS_SUMMARY_DAYS,
  type AccessEvent,
  type AccessRetention,
} from '../../domain/trust/access-log';
import { ACCESS_STORE, type AccessStore, type AccessUpkeep } from '../../ports/access-store';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';

/** Events kept before a write is forced, and how long one may wait for its write. */
const BATCH = 100;
const WAIT_MS = 1000;

/** How often the access log's upkeep (compaction and pruning, AccessStore.pruneAccess) runs: at most once an hour. */
export const UPKEEP_EVERY_MS = 3_600_000;

/**
 * An event refused when it was recorded: why (accessEventProblem), and which principal it named without naming it
 * (it may be hostile: 600 characters, control characters, a look-alike): its length in code points and its SHA-256.
 */
export interface AccessRefusal {
  reason: string;
  principal_length: number;
  principal_sha256: string;
}

/**
 * Logs access to the certification data in the access log (CDS-TRC-ACL) without a store write per request: events are
 * written in batches of BATCH, or WAIT_MS after the first of a batch, and on `flush()` (the server's shutdown, and
 * before every /fedramp/access report). An event the log may not take (accessEventProblem: the principal name rule
 * authentication applies, the fields) is refused alone when it is recorded, before it joins a batch, and reported to
 * `onRefused`: it never takes the other events of its batch with it. A failed write is reported to `onError` (the API
 * logs it) and its batch is dropped: a request is never failed for its log.
 *
 * The recorder also keeps the log within `retention`: after a flush, at most once every UPKEEP_EVERY_MS, it runs the
 * store's upkeep (pruneAccess: settled days compacted, raw events older than `log_days` and summaries older than
 * `summary_days` removed) in the background, off the write path; what it did goes to `onUpkeep`, a failure to
 * `onError` (with 0 events).
 */
@injectable()
export class AccessRecorder {
  private pending: AccessEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private upkeepStarted: number | undefined;
  private upkeeping: Promise<AccessUpkeep | undefined> | undefined;
  onError: (error: unknown, events: number) => void = () => undefined;
  onRefused: (refusal: AccessRefusal) => void = () => undefined;
  onUpkeep: (done: AccessUpkeep) => void = () => undefined;
  /** How long raw events and summaries are kept (the API config's limits.access_log_days, limits.access_summary_days). */
  retention: AccessRetention = { log_days: DEFAULT_ACCESS_LOG_DAYS, summary_days: DEFAULT_ACCESS_SUMMARY_DAYS };

  constructor(
    @inject(ACCESS_STORE) private readonly store: AccessStore,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(HASHING) private readonly hashing: Hashing,
  ) {}

  /** Logs one request now (the clock's time), or refuses it alone (onRefused) when the log may not take it. */
  record(event: Omit<AccessEvent, 'at'>): void {
    const stamped = { at: isoSeconds(this.clock.now()), ...event };
    const problem = accessEventProblem(stamped);
    if (problem !== undefined) {
      this.onRefused(this.refusal(problem, event.principal));
      return;
    }
    this.pending.push(stamped);
    if (this.pending.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), WAIT_MS).unref();
  }

  /** Writes what is pending; resolves once everything recorded so far is written (or reported). */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() => this.store.appendAccess(batch)).catch((error: unknown) => this.onError(error, batch.length));
    }
    const written = this.writing;
    if (this.upkeepStarted === undefined || this.clock.now().getTime() - this.upkeepStarted >= UPKEEP_EVERY_MS) {
      void written.then(() => this.upkeep());
    }
    return written;
  }

  /**
   * Runs the store's upkeep for today (the clock's) and `retention`, unless one is running (then its outcome); reports
   * to onUpkeep or onError, and resolves with what it did (undefined when it failed).
   */
  upkeep(): Promise<AccessUpkeep | undefined> {
    if (this.upkeeping !== undefined) return this.upkeeping;
    const now = this.clock.now();
    this.upkeepStarted = now.getTime();
    const running = this.store
      .pruneAccess(accessCutoffs(isoSeconds(now).slice(0, 10), this.retention))
      .then(
        (done) => {
          this.onUpkeep(done);
          return done;
        },
        (error: unknown) => {
          this.onError(error, 0);
          return undefined;
        },
      )
      .finally(() => {
        this.upkeeping = undefined;
      });
    this.upkeeping = running;
    return running;
  }

  private refusal(reason: string, principal: unknown): AccessRefusal {
    const name = typeof principal === 'string' ? principal : '';
    return { reason, principal_length: [...name].length, principal_sha256: this.hashing.sha256(name) };
  }
}
