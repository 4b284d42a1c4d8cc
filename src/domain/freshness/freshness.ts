import type { AssessedResult } from '../assessment/assessment';
import { DAY_MS } from '../encoding/iso-time';
import { markdownText } from '../encoding/markdown';
import { compareIds } from '../governance/governance-policy';

/**
 * fresh: observed within the KSI's validation frequency; stale: older; undated: neither the result's observed_at
 * nor the report's generated_at says when it was observed, so its age cannot be shown (counted with the stale);
 * unmapped: outside the catalog, so it has no frequency.
 */
export type FreshnessState = 'fresh' | 'stale' | 'undated' | 'unmapped';

export interface FreshnessEntry {
  ksi_id: string;
  title: string;
  owner: string;
  frequency_days: number | null;
  /** When the evidence was observed: the result's observed_at, else the report's generated_at. */
  observed_at: string | null;
  dated_by: 'observed_at' | 'generated_at' | null;
  /** Whole seconds between observed_at and now (negative when observed after now). */
  age_seconds: number | null;
  /** observed_at + frequency: when the evidence must be collected again. */
  due_at: string | null;
  state: FreshnessState;
}

export interface FreshnessReport {
  now: string;
  entries: FreshnessEntry[];
  counts: Record<FreshnessState, number> & { total: number };
}

/** Age of each result's evidence against its KSI's validation frequency (DESIGN §4), at `now`. */
export function assessFreshness(items: readonly AssessedResult[], generatedAt: string | undefined, now: Date): FreshnessReport {
  const counts = { total: 0, fresh: 0, stale: 0, undated: 0, unmapped: 0 };
  const entries = items.map(({ result, definition, action }): FreshnessEntry => {
    const observed = result.observed_at ?? generatedAt;
    const time = observed === undefined ? NaN : Date.parse(observed);
    const frequency = definition?.frequency_days ?? null;
    const base = {
      ksi_id: result.ksi_id,
      title: result.title ?? definition?.title ?? 'Unmapped KSI',
      owner: action.owner,
      frequency_days: frequency,
      observed_at: Number.isNaN(time) ? null : utc(time),
      dated_by: Number.isNaN(time) ? null : result.observed_at !== undefined ? ('observed_at' as const) : ('generated_at' as const),
      age_seconds: Number.isNaN(time) ? null : Math.floor((now.getTime() - time) / 1000),
    };
    const due = frequency === null || Number.isNaN(time) ? null : time + frequency * DAY_MS;
    const state: FreshnessState = frequency === null ? 'unmapped' : due === null ? 'undated' : now.getTime() > due ? 'stale' : 'fresh';
    counts.total += 1;
    counts[state] += 1;
    return { ...base, due_at: due === null ? null : utc(due), state };
  });
  return { now: utc(now.getTime()), entries, counts };
}

/** True when the evidence of some KSI is stale or undated: `svc ir freshness` exits 1. */
export function hasStaleEvidence(report: FreshnessReport): boolean {
  return report.counts.stale + report.counts.undated > 0;
}

/** Entries in the order they fall due (undated first: they are due now), then by ksi_id; unmapped ones are left out. */
export function schedule(report: FreshnessReport): FreshnessEntry[] {
  return report.entries
    .filter((e) => e.state !== 'unmapped')
    .sort((x, y) => (x.due_at === y.due_at ? compareIds(x.ksi_id, y.ksi_id) : x.due_at === null ? -1 : y.due_at === null ? 1 : x.due_at < y.due_at ? -1 : 1));
}

/** `11.3`: an age in days with one decimal. */
export function days(seconds: number): string {
  return (seconds / 86_400).toFixed(1);
}

function utc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

const ids = (entries: readonly FreshnessEntry[], state: FreshnessState) => entries.filter((e) => e.state === state).map((e) => e.ksi_id);

/** The text `svc ir freshness` prints: counts like the transform's summary, then a table of what is out of date. */
export function freshnessText(report: FreshnessReport, input: string): string {
  const { counts, entries } = report;
  const line = (label: string, state: FreshnessState) => {
    const list = ids(entries, state);
    return `${label}: ${list.length}${list.length > 0 && state !== 'fresh' ? ` (${list.join(', ')})` : ''}`;
  };
  const lines = [
    `Checking freshness of ${markdownText(input)} at ${report.now}`,
    `KSIs: ${counts.total}`,
    line('Fresh', 'fresh'),
    line('Stale', 'stale'),
    line('Undated', 'undated'),
    line('Unmapped', 'unmapped'),
  ];
  const late = entries.filter((e) => e.state === 'stale' || e.state === 'undated');
  if (late.length > 0) {
    lines.push('', '| KSI | Observed | Age (days) | Every (days) | Due | Owner |', '|---|---|---|---|---|---|');
    for (const e of late)
      lines.push(
        `| ${markdownText(e.ksi_id)} | ${e.observed_at ?? 'unknown'} | ${e.age_seconds === null ? '-' : days(e.age_seconds)} | ${e.frequency_days} | ${e.due_at ?? 'now'} | ${markdownText(e.owner)} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** The table `svc ir freshness-schedule` prints. */
export function scheduleText(report: FreshnessReport, input: string): string {
  const lines = [
    `Evidence schedule of ${markdownText(input)} at ${report.now}`,
    '',
    '| Due | KSI | Title | Every (days) | Last observed | Owner | State |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const e of schedule(report))
    lines.push(
      `| ${e.due_at ?? 'now'} | ${markdownText(e.ksi_id)} | ${markdownText(e.title)} | ${e.frequency_days} | ${e.observed_at ?? 'unknown'} | ${markdownText(e.owner)} | ${e.state} |`,
    );
  return `${lines.join('\n')}\n`;
}
