import { inject, injectable } from 'tsyringe';
import { isoSeconds } from '../../domain/encoding/iso-time';
import type { AccessEvent } from '../../domain/trust/access-log';
import { CLOCK, type Clock } from '../../ports/clock';
import { RUN_STORE, type RunStore } from '../../ports/run-store';

/** Events kept before a write is forced, and how long one may wait for its write. */
const BATCH = 100;
const WAIT_MS = 1000;

/**
 * Logs access to the certification data in the run store (CDS-TRC-ACL) without a store write per request: events are
 * written in batches of BATCH, or WAIT_MS after the first of a batch, and on `flush()` (the server's shutdown). A
 * failed write is reported to `onError` (the API logs it) and the batch is dropped: a request is never failed for
 * its log.
 */
@injectable()
export class AccessRecorder {
  private pending: AccessEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  onError: (error: unknown, events: number) => void = () => undefined;

  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Logs one request now (the clock's time). */
  record(event: Omit<AccessEvent, 'at'>): void {
    this.pending.push({ at: isoSeconds(this.clock.now()), ...event });
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
    return this.writing;
  }
}
