import { inject, injectable } from 'tsyringe';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { CLOCK, type Clock } from '../../ports/clock';
import { JOURNAL_STORE, type JournalStore } from '../../ports/journal-store';
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
  /** `<run id>:<journal seq>`, then `@<asOf>` once a due time has passed since: changes exactly when the documents do. */
  key: string;
  /** The key of what is written (`<run id>:<journal seq>`), whatever has passed since. */
  written: string;
}

/** How many passed changes one request advances over. */
const MAX_STEPS = 8;

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
    @inject(JOURNAL_STORE) private readonly entries: JournalStore,
    @inject(CLOCK) private readonly clock: Clock,
  ) {
    this.state = new Rechecked(clock, (now, known) => this.read(now, known));
  }

  /** What has passed since the last write: the state advanced over them, and the next change it waits for. */
  private advanced: { state: TrustStoreState; next: Promise<number | undefined> } | undefined;

  /**
   * The state now. With `nextChange` (the first instant after a state's asOf at which its documents change by time
   * alone: a stored due time passing, DESIGN §12.7), a state whose next change has passed advances to it: asOf becomes
   * that instant, and the key changes with it, so every document is built again once, as of then. Every server over the
   * same store advances to the same instants, and so gives the same bytes. Each state's next change is asked once.
   */
  async current(nextChange?: (state: TrustStoreState) => Promise<number | undefined>): Promise<TrustStoreState> {
    const written = await this.state.get();
    if (nextChange === undefined) return written;
    const now = this.clock.now().getTime();
    let at = this.advanced?.state.written === written.key ? this.advanced : { state: written, next: nextChange(written) };
    // Bounded: a server that was down long catches up over the following requests.
    for (let step = 0; step < MAX_STEPS; step++) {
      const next = await at.next;
      if (next === undefined || next > now) break;
      const asOf = isoSeconds(new Date(next));
      const state: TrustStoreState = { ...written, asOf, key: `${written.key}@${asOf}` };
      at = { state, next: nextChange(state) };
    }
    this.advanced = at;
    return at.state;
  }

  private async read(now: number, known: TrustStoreState | undefined): Promise<TrustStoreState> {
    const [runs, journal] = await Promise.all([this.store.list(), this.entries.journal()]);
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
      written: key,
    };
  }
}

/**
 * The state of a snapshot's store (snapshotContainer): its runs and journal never change, so its documents never
 * advance with time either; the nextChange a builder passes is not asked.
 */
@injectable()
export class FrozenStoreState extends StoreState {
  override current(): Promise<TrustStoreState> {
    return super.current();
  }
}
