import { inject, injectable } from 'tsyringe';
import type { RunSummary, StoredRun, TrackedPoamItem } from '../../domain/conmon/run-record';
import { NotFoundError } from '../../domain/errors';
import { CLOCK, type Clock } from '../../ports/clock';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { RunLoader, type LoadedRun } from '../shared/run-loader';

/** The latest recorded run as the auditor routes read it: verified once, then kept until a newer run is recorded. */
export interface AuditorRun {
  summary: RunSummary;
  run: LoadedRun;
  /** The run's evidence entries exactly as recorded, in ksi_id order (aligned with run.results). */
  entries: Record<string, unknown>[];
  /** Every tracked POA&M item after this run, in poam_id order. */
  poam: TrackedPoamItem[];
  /** Per-run memo for what is derived from it (OSCAL documents, the signed SAR). */
  memo: Map<string, unknown>;
}

/** How long a check of the store for a newer run is trusted, in milliseconds. */
export const RECHECK_MS = 1000;

/**
 * The current run of the run store (DESIGN §9: "the current run comes from the run store"). One instance serves a
 * whole API process: it asks the store for the newest run at most once every RECHECK_MS and re-verifies and
 * re-derives only when a new run was recorded, so a read route costs no store round trip.
 */
@injectable()
export class CurrentRun {
  private cached: AuditorRun | undefined;
  private checkedAt = -Infinity;
  private pending: Promise<AuditorRun> | undefined;
  private newest: RunSummary | undefined;
  private listedAt = -Infinity;
  private listing: Promise<RunSummary> | undefined;

  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(CLOCK) private readonly clock: Clock,
    private readonly loader: RunLoader,
  ) {}

  /**
   * The newest run's summary alone, checked against the store at most once every RECHECK_MS: what the document
   * routes need, which read stored bytes and never the run itself.
   */
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

  get(): Promise<AuditorRun> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.checkedAt < RECHECK_MS) return Promise.resolve(this.cached);
    this.pending ??= this.refresh(now).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async refresh(now: number): Promise<AuditorRun> {
    const summaries = await this.store.list();
    const newest = summaries.at(-1);
    if (!newest) throw this.noRuns();
    if (this.cached?.summary.id !== newest.id) this.cached = this.derive(await this.fetch(newest.id));
    this.checkedAt = now;
    return this.cached;
  }

  private noRuns(): NotFoundError {
    return new NotFoundError('no-current-run', `the run store at ${this.store.location} has no runs yet; record one with svc conmon process <report>`);
  }

  private async fetch(id: string): Promise<StoredRun> {
    const stored = await this.store.get(id);
    if (!stored) throw new NotFoundError('no-current-run', `run ${id} is listed by the run store at ${this.store.location} but cannot be read; check the store`);
    return stored;
  }

  private derive(stored: StoredRun): AuditorRun {
    const entries = (stored.record.bundle.entries as Record<string, unknown>[]) ?? [];
    return { summary: stored.summary, run: this.loader.loadStored(stored), entries, poam: stored.poam, memo: new Map() };
  }
}
