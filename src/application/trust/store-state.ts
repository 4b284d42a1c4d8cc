import { inject, injectable } from 'tsyringe';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { CLOCK, type Clock } from '../../ports/clock';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { Rechecked } from '../shared/rechecked';

/** Where the run store stands: what every trust-center document is built from, and the key its bytes are cached by. */
export interface TrustStoreState {
  /** The latest recorded run; absent for a store without runs. */
  run?: { id: string; seq: number; recorded_at: string };
  /** The journal's last entry (seq 0 when empty): evaluations, OCRs, SCNs, incidents. */
  journal: { seq: number; recorded_at?: string };
  /**
   * ISO-8601 UTC: the latest time the store speaks for, of the latest run's record time and as-of time (its report's)
   * and the last journal entry's record time; the clock's time when the store is empty. The documents are as of it,
   * so every server over the same store gives the same bytes.
   */
  asOf: string;
  /** `<run id>:<journal seq>`: changes exactly when something is recorded. */
  key: string;
}

/**
 * The run store's state as the trust center sees it (DESIGN §12.7: documents are rebuilt on every store write, never
 * per request). One instance serves a process and asks the store at most once every RECHECK_MS, as CurrentRun does:
 * a write shows within a second. A write that lands while a document is being built may already be in it; the next
 * check sees the new state and the document is built again, so what is served settles within a second too.
 */
@injectable()
export class StoreState {
  private readonly state: Rechecked<TrustStoreState>;

  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(CLOCK) clock: Clock,
  ) {
    this.state = new Rechecked(clock, (now, known) => this.read(now, known));
  }

  current(): Promise<TrustStoreState> {
    return this.state.get();
  }

  private async read(now: number, known: TrustStoreState | undefined): Promise<TrustStoreState> {
    const [runs, journal] = await Promise.all([this.store.list(), this.store.journal()]);
    const latest = runs.at(-1);
    const last = journal.at(-1);
    const key = `${latest?.id ?? 'none'}:${last?.seq ?? 0}`;
    if (known?.key === key) return known;
    const times = [latest?.recorded_at, latest?.as_of, last?.recorded_at].filter((t): t is string => t !== undefined).map((t) => Date.parse(t));
    return {
      ...(latest === undefined ? {} : { run: { id: latest.id, seq: latest.seq, recorded_at: latest.recorded_at } }),
      journal: { seq: last?.seq ?? 0, ...(last === undefined ? {} : { recorded_at: last.recorded_at }) },
      asOf: isoSeconds(new Date(times.length === 0 ? now : Math.max(...times))),
      key,
    };
  }
}
