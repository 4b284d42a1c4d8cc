import { inject, injectable } from 'tsyringe';
import type { RunSummary } from '../../domain/conmon/run-record';
import { NotFoundError } from '../../domain/errors';
import { CLOCK, type Clock } from '../../ports/clock';
import { RUN_STORE, type RunStore } from '../../ports/run-store';

/** How long a check of the store for a newer run is trusted, in milliseconds. */
export const RECHECK_MS = 1000;

/**
 * The current run of the run store (DESIGN §9: "the current run comes from the run store"). One instance serves a
 * whole API process: it asks the store for the newest run at most once every RECHECK_MS. The auditor routes read
 * what `svc conmon process` stored with the run (its documents and list pages), never the run itself.
 */
@injectable()
export class CurrentRun {
  private newest: RunSummary | undefined;
  private listedAt = -Infinity;
  private listing: Promise<RunSummary> | undefined;

  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The newest run's summary, checked against the store at most once every RECHECK_MS. */
  summary(): Promise<RunSummary> {
    const now = this.clock.now().getTime();
    if (this.newest && now - this.listedAt < RECHECK_MS) return Promise.resolve(this.newest);
    this.listing ??= this.store
      .list()
      .then((summaries) => {
        const newest = summaries.at(-1);
        if (!newest) throw this.noRuns();
        this.newest = newest;
        this.listedAt = now;
        return newest;
      })
      .finally(() => (this.listing = undefined));
    return this.listing;
  }

  private noRuns(): NotFoundError {
    return new NotFoundError('no-current-run', `the run store at ${this.store.location} has no runs yet; record one with svc conmon process <report>`);
  }
}
