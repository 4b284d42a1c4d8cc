import type { AssessedResult, HashedResult, RunCounts } from '../assessment/assessment';
import type { RiskRating } from '../artifacts/poam';
import type { RunContext } from '../artifacts/run-context';
import { countDrift, detectDrift, type DriftSide } from '../drift/drift-detection';
import type { DriftFinding, DriftSeverity } from '../drift/drift-finding';
import { CONMON_EVENT_SCHEMA, type ConmonEvent, type EventKind, type EventSeverity } from './conmon-event';
import { lifecycleEntries, type LifecycleChange, type LifecycleEntry } from './lifecycle';
import { lazyArray } from '../encoding/json-chunks';
import { areaCounts } from '../reporting/areas';
import type { DecidedRun, RunRecord, RunSummary, TrackedPoamItem } from './run-record';
import { worstStatus } from '../ksi/status';

/** A run ready to be recorded: everything the store keeps of it except what depends on the runs before it. */
export interface RunToRecord {
  id: string;
  record: RunRecord;
  context: RunContext;
  /** ISO-8601 UTC time the run speaks for. */
  asOf: string;
  recordedAt: string;
  merkleRoot: string;
  counts: RunCounts;
  /** This run's results with their content hashes and report facts, for the drift against the latest run. */
  side: DriftSide;
  /**
   * The other sources' worst result of each KSI in their latest runs (docs/conmon.md, "Sources"): a KSI this run
   * reports is judged by the POA&M lifecycle on the worse of its result and theirs, so one scanner's PASS does not
   * close an item another scanner still reports. Absent: this run's results alone.
   */
  others?: ReadonlyMap<string, AssessedResult>;
}

/**
 * What recording a run moves on from: the POA&M state the latest recorded run left (every source's), and the latest
 * run of the same source with its results assessed again, for the drift comparison (absent for a source's first run:
 * drift compares a source with itself, never one scanner with another).
 */
export interface PreviousRun {
  poam: readonly TrackedPoamItem[];
  side?: DriftSide;
}

/** The most POA&M items a run's lifecycle may have to be held once walked (recordStep). */
const LIFECYCLE_HELD = 20_000;

/** How many events a run emits, and its drift findings by severity: what `conmon process` reports of them. */
export interface EventTally {
  events: number;
  drift: Record<DriftSeverity, number>;
}

/** A decided run, and the tally of its events (counted as the lifecycle is first walked, not by walking the events). */
export interface RecordedStep extends DecidedRun {
  tally: EventTally;
}

/**
 * What recording a run adds to the store: its summary, the POA&M lifecycle after it (DESIGN §6, docs/conmon.md),
 * the drift against the latest run and one event per change. `uuid` turns a stable key into a UUIDv5.
 *
 * The POA&M state and the events are LazyArrays: a lifecycle of more than LIFECYCLE_HELD items is merged again from the
 * previous state and the run's results each time one is read (for the chain's hashes, the state file, the POA&M
 * pages), so a run of a million results never holds its items or events all at once; a smaller one is kept once
 * merged. The same inputs give the same items and events every time.
 */
export function recordStep(run: RunToRecord, previous: PreviousRun | undefined, seq: number, uuid: (key: string) => string): RecordedStep {
  const asOfDay = run.asOf.slice(0, 10);
  // Read as they are asked for: a result kept as its evidence entry is made again each time (EntryResult).
  const items: Iterable<AssessedResult> = { [Symbol.iterator]: () => itemsOf(run.side.results) };
  const judged: Iterable<AssessedResult> = run.others === undefined || run.others.size === 0 ? items : { [Symbol.iterator]: () => worseOf(items, run.others!) };
  // The state before, not `previous`: what the closures below keep lives as long as the run's documents are written,
  // and the previous run's side (its results, for the drift) is the size of a whole run.
  const before = previous?.poam ?? [];
  const walk = () => lifecycleEntries(before, { id: run.id, asOf: asOfDay, context: run.context, items: judged });
  // The lifecycle is read several times (the counts, the events, the POA&M state, each hashed and written): one of up to
  // LIFECYCLE_HELD items is kept once walked; a larger one is walked again each time, one item at a time.
  const held = heldUpTo(walk(), LIFECYCLE_HELD);
  const lifecycle = (): Iterable<LifecycleEntry> => held ?? walk();
  const counts = { open: 0, overdue: 0, closed: 0, opened: 0, closed_now: 0 };
  let becameOverdue = 0;
  let changed = 0;
  for (const { item, changes } of lifecycle()) {
    changed += changes.length;
    if (item.status === 'Closed') counts.closed += 1;
    else counts.open += 1;
    if (item.status === 'Open' && item.overdue) counts.overdue += 1;
    for (const change of changes) {
      if (change.kind === 'opened') counts.opened += 1;
      if (change.kind === 'closed') counts.closed_now += 1;
      if (change.kind === 'overdue') becameOverdue += 1;
    }
  }
  const drift = previous?.side ? detectDrift(previous.side, run.side) : [];
  const driftCounts = countDrift(drift);
  const summary: RunSummary = {
    seq,
    id: run.id,
    recorded_at: run.recordedAt,
    as_of: run.asOf,
    input: run.context.input,
    ...(run.context.source ? { source: run.context.source } : {}),
    merkle_root: run.merkleRoot,
    counts: run.counts,
    areas: areaCounts(items),
    poam: counts,
    drift: driftCounts.class,
  };
  const event = eventMaker(summary, uuid);
  const recorded = event(
    'run.recorded',
    null,
    null,
    String(seq),
    'info',
    `Run ${seq} recorded: ${run.counts.results} KSIs, ${run.counts.pass} PASS, ${run.counts.warn} WARN, ${run.counts.fail} FAIL`,
    {
      counts: run.counts,
      merkle_root: run.merkleRoot,
      poam: summary.poam,
    },
  );
  /** The changes of the lifecycle in their order: those the results made, then the items that became overdue. */
  function* changes(late: boolean): Generator<ConmonEvent> {
    for (const entry of lifecycle()) for (const change of entry.changes) if ((change.kind === 'overdue') === late) yield lifecycleEvent(change, event);
  }
  const events = lazyArray(function* () {
    yield recorded;
    yield* changes(false);
    // A second walk only when some item became overdue.
    if (becameOverdue > 0) yield* changes(true);
    for (const finding of drift) yield driftEvent(finding, event);
  });
  return {
    // The run-recorded event, one per lifecycle change, one per drift finding (events, below).
    tally: { events: 1 + changed + drift.length, drift: driftCounts.severity },
    summary,
    record: run.record,
    poam: lazyArray(function* () {
      for (const entry of lifecycle()) yield entry.item;
    }),
    events,
  };
}

type MakeEvent = (
  kind: EventKind,
  ksiId: string | null,
  poamId: string | null,
  subject: string,
  severity: EventSeverity,
  summary: string,
  data: Record<string, unknown>,
) => ConmonEvent;

function eventMaker(summary: RunSummary, uuid: (key: string) => string): MakeEvent {
  const run = { id: summary.id, seq: summary.seq, input: summary.input };
  return (kind, ksi_id, poam_id, subject, severity, text, data) => ({
    schema: CONMON_EVENT_SCHEMA,
    event_id: uuid(`conmon-event/${summary.id}/${kind}/${subject}`),
    kind,
    time: summary.as_of,
    severity,
    run,
    ksi_id,
    poam_id,
    summary: text,
    data,
  });
}

const RISK_SEVERITY: Record<RiskRating, EventSeverity> = { Critical: 'critical', High: 'error', Moderate: 'warning', Low: 'notice' };
const DRIFT_SEVERITY: Record<DriftSeverity, EventSeverity> = { P1: 'critical', P2: 'error', P3: 'warning', P4: 'notice' };

function lifecycleEvent(change: LifecycleChange, event: MakeEvent): ConmonEvent {
  const { item } = change;
  const at = (kind: EventKind, severity: EventSeverity, text: string, data: Record<string, unknown>) =>
    event(kind, item.ksi_id, item.poam_id, item.poam_id, severity, `${item.poam_id} ${text}`, {
      status: item.last_status,
      risk_rating: item.risk_rating,
      point_of_contact: item.point_of_contact,
      ...data,
    });
  const dates = { original_detection_date: item.original_detection_date, scheduled_completion_date: item.scheduled_completion_date };
  switch (change.kind) {
    case 'opened':
      return at(
        'poam.opened',
        RISK_SEVERITY[item.risk_rating],
        `${change.reopened ? 'reopened' : 'opened'}: ${item.ksi_id} ${item.last_status} (${item.risk_rating}), due ${item.scheduled_completion_date}`,
        { ...dates, reopened: change.reopened === true },
      );
    case 'closed':
      return at('poam.closed', 'info', `closed: ${item.ksi_id} PASS on ${item.completion_date}`, { ...dates, completion_date: item.completion_date });
    case 'overdue':
      return at(
        'poam.overdue',
        item.risk_rating === 'Critical' ? 'critical' : 'error',
        `overdue: due ${item.scheduled_completion_date}, open since ${item.original_detection_date}`,
        dates,
      );
    case 'risk-changed':
      return at(
        'poam.risk-changed',
        RISK_SEVERITY[item.risk_rating],
        `risk ${change.previousRisk} -> ${item.risk_rating}, due ${item.scheduled_completion_date}`,
        { ...dates, previous_risk_rating: change.previousRisk },
      );
  }
}

function driftEvent(finding: DriftFinding, event: MakeEvent): ConmonEvent {
  const subject = `${finding.class}/${finding.ksi_id ?? finding.reason}`;
  return event(
    'drift.detected',
    finding.ksi_id,
    null,
    subject,
    DRIFT_SEVERITY[finding.severity],
    `${finding.class} ${finding.severity} ${finding.ksi_id ?? '(run)'}: ${finding.reason}`,
    { ...finding },
  );
}

/** The entries as an array, unless there are more than `max`. */
function heldUpTo<T>(entries: Iterable<T>, max: number): T[] | undefined {
  const held: T[] = [];
  for (const entry of entries) {
    if (held.length === max) return undefined;
    held.push(entry);
  }
  return held;
}

function* itemsOf(results: readonly HashedResult[]): Generator<AssessedResult> {
  for (const { item } of results) yield item;
}

/** Each of the run's items, or another source's result of the same KSI where that one is worse. */
function* worseOf(items: Iterable<AssessedResult>, others: ReadonlyMap<string, AssessedResult>): Generator<AssessedResult> {
  for (const item of items) {
    const other = others.get(item.result.ksi_id);
    yield other !== undefined && worstStatus(item.result.status, other.result.status) !== item.result.status ? other : item;
  }
}
