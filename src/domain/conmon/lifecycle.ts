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
  /** The run's assessed results, in ksi_id order. */
  items: readonly AssessedResult[];
}

export interface LifecycleStep {
  /** Every tracked item after the run, open and closed, in poam_id order. */
  items: TrackedPoamItem[];
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
 */
export function advanceLifecycle(previous: readonly TrackedPoamItem[], run: LifecycleRun): LifecycleStep {
  const tracked = new Map(previous.map((item) => [item.poam_id, item]));
  const changes: LifecycleChange[] = [];
  for (const assessed of run.items) {
    const id = poamId(assessed.result.ksi_id);
    const before = tracked.get(id);
    const status = assessed.result.status;
    if (!needsPoam(assessed)) {
      if (before?.status === 'Open') {
        const closed: TrackedPoamItem = { ...before, status: 'Closed', overdue: false, status_date: run.asOf, completion_date: run.asOf, last_status: status, last_run: run.id };
        tracked.set(id, closed);
        changes.push({ kind: 'closed', item: closed });
      }
      continue;
    }
    const open = before?.status === 'Open';
    const detected = open ? before.original_detection_date : detectionDate(assessed, run.context);
    const { status: _open, ...row } = poamRow(assessed, run.context, detected);
    const item: TrackedPoamItem = { ...row, status: 'Open', overdue: open && before.overdue && row.scheduled_completion_date < run.asOf, status_date: open ? before.status_date : run.asOf, last_status: status, last_run: run.id };
    tracked.set(id, item);
    if (!open) changes.push({ kind: 'opened', item, ...(before ? { reopened: true } : {}) });
    else if (before.risk_rating !== item.risk_rating) changes.push({ kind: 'risk-changed', item, previousRisk: before.risk_rating });
  }
  for (const [id, item] of tracked) {
    if (item.status !== 'Open' || item.overdue || item.scheduled_completion_date >= run.asOf) continue;
    const overdue: TrackedPoamItem = { ...item, overdue: true, status_date: run.asOf };
    tracked.set(id, overdue);
    changes.push({ kind: 'overdue', item: overdue });
  }
  const items = [...tracked.values()].sort((x, y) => compareIds(x.poam_id, y.poam_id));
  return { items, changes: changes.map((c) => ({ ...c, item: tracked.get(c.item.poam_id) ?? c.item })) };
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
