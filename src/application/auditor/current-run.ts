import { inject, injectable } from 'tsyringe';
import type { RunSummary } from '../../domain/conmon/run-record';
import { NotFoundError } from '../../domain/errors';
import { CLOCK, type Clock } from '../../ports/clock';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { Rechecked } from '../shared/rechecked';

/**
 * The current run of the run store (DESIGN §9: "the current run comes from the run store"). One instance serves a
 * whole API process: it asks the store for the newest run at most once every RECHECK_MS. The auditor routes read
 * what `svc conmon process` stored with the run (its documents and list pages), never the run itself.
 */
@injectable()
export class CurrentRun {
  private readonly newest: Rechecked<RunSummary>;

  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(CLOCK) clock: Clock,
  ) {
    this.newest = new Rechecked(clock, async () => {
      const newest = (await this.store.list()).at(-1);
      if (!newest) throw this.noRuns();
      return newest;
    });
  }

  /** The newest run's summary, checked against the store at most once every RECHECK_MS. */
  summary(): Promise<RunSummary> {
    return this.newest.get();
  }

  private noRuns(): NotFoundError {
    return new NotFoundError('no-current-run', `the run store at ${this.store.location} has no runs yet; record one with svc conmon process <report>`);
  }
}
