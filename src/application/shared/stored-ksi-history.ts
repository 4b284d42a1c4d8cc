import type { KsiCounts } from '../../domain/conmon/ksi-counts';
import { KSI_HISTORY_DOCUMENT, nextKsiHistory, readKsiHistory, replayKsiHistory, type HistoryRun, type KsiHistory } from '../../domain/conmon/ksi-history';
import type { Cr26Ksi } from '../../domain/fedramp/cr26-rules';
import type { Cr26Tally } from '../../domain/fedramp/ksi-evaluation';
import type { RunSummary } from '../../domain/conmon/run-record';
import { sourceKey } from '../../domain/conmon/run-sources';
import { AppError, IntegrityError } from '../../domain/errors';
import type { RunView } from '../../ports/run-store';
import { storedCountRows } from './stored-ksi-counts';
import { storedText } from './stored-text';

/** A run as the KSI history names it. */
export function historyRun(summary: RunSummary): HistoryRun {
  return { id: summary.id, seq: summary.seq, as_of: summary.as_of, source: sourceKey(summary.source) };
}

/**
 * The KSI history `run` keeps (domain/conmon/ksi-history.ts), checked by the store against its link; undefined for a
 * run recorded before svc kept one. A document that is not one svc wrote, or does not end with `run`, is
 * run-store-tampered.
 */
export async function storedKsiHistory(store: RunView, run: RunSummary): Promise<KsiHistory | undefined> {
  const opened = await store.openDocument(run.id, KSI_HISTORY_DOCUMENT);
  if (opened === undefined) return undefined;
  let read: KsiHistory | string;
  try {
    read = readKsiHistory(JSON.parse(await storedText(opened)));
  } catch (error) {
    // The store's own finding (a changed document) as it is.
    if (error instanceof AppError) throw error;
    read = (error as Error).message;
  }
  if (typeof read !== 'string' && read.runs.at(-1)?.id !== run.id) read = `its last run is not run ${run.seq}`;
  if (typeof read === 'string') throw historyTampered(store, run, read);
  return read;
}

/** What a KSI history that is not one svc wrote, or does not match the runs it names, is. */
export function historyTampered(store: Pick<RunView, 'location'>, run: RunSummary, problem: string): IntegrityError {
  return new IntegrityError(
    'run-store-tampered',
    `${store.location} run ${run.seq} ${KSI_HISTORY_DOCUMENT}: ${problem}; the store was modified outside svc. Restore it from backup`,
  );
}

/**
 * The KSI history a run recorded after `latest` adds itself to: `latest`'s, or, for a store whose runs were recorded
 * before svc kept one, made once from every run's stored KSI counts.
 */
export async function historyBefore(store: RunView, latest: RunSummary | undefined): Promise<KsiHistory | undefined> {
  if (latest === undefined) return undefined;
  const kept = await storedKsiHistory(store, latest);
  if (kept !== undefined) return kept;
  const runs = (await store.list()).filter((r) => r.seq <= latest.seq);
  const rows = await storedCountRows(store, runs);
  return nextKsiHistory(
    undefined,
    runs.map((r) => ({ run: historyRun(r), rows: rows.get(r.id) })),
  );
}

/** A KSI's counts in a run. */
export type KsiTotals = Pick<KsiCounts, 'pass' | 'fail' | 'other'>;

/**
 * Per KSI, the counts of each run of `needed` the KSI `history` counts (domain/conmon/ksi-history.ts), by run id:
 * its runs replayed in seq order, each source's counts per KSI changed by the rows that changed (`router` says which
 * KSIs a row's id reaches). A run of `needed` the history does not name, or names otherwise than the store lists it,
 * is what `tampered` says; one it names `uncounted` is not in the map. Runs of a source between which nothing changed
 * are given the same map: it is not to be changed.
 */
export function countsFromHistory(
  history: KsiHistory,
  needed: readonly RunSummary[],
  ksis: readonly Pick<Cr26Ksi, 'id'>[],
  router: Pick<Cr26Tally, 'reach'>,
  tampered: (problem: string) => Error,
): Map<string, Map<string, KsiTotals>> {
  const wanted = new Map(needed.map((r) => [r.id, r]));
  const named = new Set<string>();
  const counted = new Map<string, Map<string, KsiTotals>>();
  // Each source's counts per KSI as the replay stands, and the copy last given for it (kept while nothing changes).
  const sources = new Map<string, { counts: Map<string, KsiTotals>; given?: Map<string, KsiTotals> }>();
  for (const { entry, changes } of replayKsiHistory(history.runs)) {
    const summary = wanted.get(entry.id);
    if (summary !== undefined) {
      if (summary.seq !== entry.seq || summary.as_of !== entry.as_of || sourceKey(summary.source) !== entry.source)
        throw tampered(`it names run ${entry.seq} otherwise than the store lists run ${summary.seq}`);
      named.add(entry.id);
    }
    if (changes === undefined) continue;
    let source = sources.get(entry.source);
    if (source === undefined) sources.set(entry.source, (source = { counts: new Map(ksis.map((k) => [k.id, { pass: 0, fail: 0, other: 0 }])) }));
    for (const { before, after } of changes) {
      for (const id of router.reach(after.ksi_id)) {
        const c = source.counts.get(id)!;
        c.pass += after.pass - (before?.pass ?? 0);
        c.fail += after.fail - (before?.fail ?? 0);
        c.other += after.other - (before?.other ?? 0);
        source.given = undefined;
      }
    }
    if (summary !== undefined) counted.set(entry.id, (source.given ??= new Map([...source.counts].map(([id, c]) => [id, { ...c }]))));
  }
  const missing = needed.find((r) => !named.has(r.id));
  if (missing !== undefined) throw tampered(`it does not name run ${missing.seq}`);
  return counted;
}
