import type { AssessedResult } from '../assessment/assessment';
import { detectionDate, needsPoam, poamId, poamRow, type RiskRating } from '../artifacts/poam';
import type { RunContext } from '../artifacts/run-context';
import { compareIds } from '../governance/governance-policy';
import type { TrackedPoamItem } from './run-record';

export type LifecycleChangeKind = 'opened' | 'closed' | 'overdue' | 'risk-changed';

export interface LifecycleChange {
  kind: LifecycleChangeKind;
  item: TrackedPoamItem;
  /** opened: the KSI had a closed item that this run opens again. */
  reopened?: boolean;
  /** risk-changed: the rating before. */
  previousRisk?: RiskRating;
}

export interface LifecycleRun {
  id: string;
  /** The day the run speaks for (YYYY-MM-DD): closing date, status dates and the overdue check use it. */
  asOf: string;
  context: RunContext;
  /** The run's assessed results, in ksi_id order (read once). */
  items: Iterable<AssessedResult>;
}

export interface LifecycleStep {
  /** Every tracked item after the run, open and closed, in poam_id order. */
  items: TrackedPoamItem[];
  changes: LifecycleChange[];
}

/** One tracked item after a run, and what the run changed about it (each change carries the item as it ends up). */
export interface LifecycleEntry {
  item: TrackedPoamItem;
  changes: LifecycleChange[];
}

/**
 * The POA&M lifecycle across runs (docs/conmon.md):
 * - a FAIL or WARN with no open item opens one (detected on the result's date); a closed item of the same KSI is
 *   opened again with the new detection date;
 * - a FAIL or WARN with an open item keeps it open with its original detection date; its risk rating, due date
 *   (original detection + the SLA of the current severity) and text follow the latest result;
 * - a PASS closes the KSI's open item on the run's day;
 * - a KSI the run does not report leaves its item as it was: absence of evidence closes nothing;
 * - an open item whose scheduled completion date is before the run's day is overdue; becoming so is a change.
 *
 * A merge of the items tracked before (in poam_id order) with the run's results (in ksi_id order, which is poam_id
 * order): one entry per item after the run, in poam_id order, a few objects at a time, so it can be read again and
 * again (for counts, the state, the events) without the run's items ever all being in memory.
 */
export function* lifecycleEntries(previous: Iterable<TrackedPoamItem>, run: LifecycleRun): Generator<LifecycleEntry> {
  const before = previous[Symbol.iterator]();
  const results = run.items[Symbol.iterator]();
  let tracked = before.next();
  let next = results.next();
  while (!tracked.done || !next.done) {
    const assessed = next.done ? undefined : next.value;
    const id = assessed && poamId(assessed.result.ksi_id);
    const order = tracked.done ? 1 : id === undefined ? -1 : compareIds(tracked.value.poam_id, id);
    const entry = order < 0 ? { item: tracked.value, changes: [] } : reported(order === 0 ? tracked.value : undefined, assessed as AssessedResult, run);
    if (order <= 0) tracked = before.next();
    if (order >= 0) next = results.next();
    if (entry) yield overdue(entry, run.asOf);
  }
}

/** What a reported result does to its KSI's item (`before`, if any); undefined when nothing is tracked for it. */
function reported(before: TrackedPoamItem | undefined, assessed: AssessedResult, run: LifecycleRun): LifecycleEntry | undefined {
  const status = assessed.result.status;
  if (!needsPoam(assessed)) {
    if (before?.status !== 'Open') return before && { item: before, changes: [] };
    const closed: TrackedPoamItem = {
      ...before,
      status: 'Closed',
      overdue: false,
      status_date: run.asOf,
      completion_date: run.asOf,
      last_status: status,
      last_run: run.id,
    };
    return { item: closed, changes: [{ kind: 'closed', item: closed }] };
  }
  const open = before?.status === 'Open';
  const detected = open ? before.original_detection_date : detectionDate(assessed, run.context);
  const { status: _open, ...row } = poamRow(assessed, run.context, detected);
  const item: TrackedPoamItem = {
    ...row,
    status: 'Open',
    overdue: open && before.overdue && row.scheduled_completion_date < run.asOf,
    status_date: open ? before.status_date : run.asOf,
    last_status: status,
    last_run: run.id,
  };
  if (!open) return { item, changes: [{ kind: 'opened', item, ...(before ? { reopened: true } : {}) }] };
  return { item, changes: before.risk_rating !== item.risk_rating ? [{ kind: 'risk-changed', item, previousRisk: before.risk_rating }] : [] };
}

/** An open item past its scheduled completion date becomes overdue on the run's day; every change shows the final item. */
function overdue(entry: LifecycleEntry, asOf: string): LifecycleEntry {
  const { item } = entry;
  if (item.status !== 'Open' || item.overdue || item.scheduled_completion_date >= asOf) return entry;
  const late: TrackedPoamItem = { ...item, overdue: true, status_date: asOf };
  return { item: late, changes: [...entry.changes.map((c) => ({ ...c, item: late })), { kind: 'overdue', item: late }] };
}

/**
 * The lifecycle collected: every item after the run in poam_id order, and the changes (those the results made, in
 * poam_id order, then the items that became overdue, in poam_id order). For runs small enough to hold at once.
 */
export function advanceLifecycle(previous: readonly TrackedPoamItem[], run: LifecycleRun): LifecycleStep {
  const items: TrackedPoamItem[] = [];
  const changes: LifecycleChange[] = [];
  const late: LifecycleChange[] = [];
  for (const entry of lifecycleEntries(previous, run)) {
    items.push(entry.item);
    for (const change of entry.changes) (change.kind === 'overdue' ? late : changes).push(change);
  }
  return { items, changes: [...changes, ...late] };
}

export interface LifecycleCounts {
  open: number;
  overdue: number;
  closed: number;
}

export function countLifecycle(items: readonly TrackedPoamItem[]): LifecycleCounts {
  const counts = { open: 0, overdue: 0, closed: 0 };
  for (const item of items) {
    if (item.status === 'Closed') counts.closed += 1;
    else {
      counts.open += 1;
      if (item.overdue) counts.overdue += 1;
    }
  }
  return counts;
}
