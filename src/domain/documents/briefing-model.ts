import type { RunCounts } from '../assessment/assessment';
import type { InputRef } from '../artifacts/run-context';
import type { RunSummary } from '../conmon/run-record';
import { schedule, type FreshnessEntry, type FreshnessReport } from '../freshness/freshness';
import type { AreaStatus, GovernanceRow, RunDashboardModel } from '../reporting/dashboard-model';

/** How many rows the top-risks and next-due tables hold: what fits on one slide. */
export const BRIEFING_ROWS = 5;

/** Open and overdue POA&M items at one run: a point of the briefing's trend chart. */
export interface PoamTrendPoint {
  /** YYYY-MM-DD the run speaks for. */
  as_of: string;
  open: number;
  overdue: number;
}

/** Everything `svc generate pptx` shows an executive; the renderer only lays it out. */
export interface BriefingModel {
  title: string;
  /** The system or tenant the run is about. */
  system: string;
  /** When the briefing was made (ISO-8601 UTC): also the file's created and modified dates. */
  generated_at: string;
  /** YYYY-MM-DD the run speaks for. */
  as_of: string;
  input: InputRef;
  tool: { name: string; version: string };
  counts: RunCounts;
  /** Status counts per area, in the dashboard's order. */
  areas: AreaStatus[];
  /** The most severe rows that need remediation, at most BRIEFING_ROWS, in governance order. */
  top_risks: GovernanceRow[];
  /** 'store': one point per run recorded by `svc conmon process`, oldest first; 'run': this run alone. */
  poam_trend: { source: 'store' | 'run'; points: PoamTrendPoint[] };
  /** The evidence that falls due first (undated first: it is due now), at most BRIEFING_ROWS. */
  next_due: FreshnessEntry[];
}

export interface BriefingFacts {
  dashboard: RunDashboardModel;
  system: string;
  /** The run store's summaries, in seq order; empty when nothing was recorded. */
  summaries: readonly RunSummary[];
  freshness: FreshnessReport;
}

/** An executive briefing of one run: the dashboard's status by area, its top risks, the POA&M trend, what falls due next. */
export function briefingModel({ dashboard, system, summaries, freshness }: BriefingFacts): BriefingModel {
  return {
    title: `Executive briefing: ${system}`,
    system,
    generated_at: dashboard.generated_at,
    as_of: dashboard.as_of,
    input: dashboard.input,
    tool: dashboard.tool,
    counts: dashboard.counts,
    areas: dashboard.areas,
    top_risks: dashboard.governance.filter((row) => row.action === 'REMEDIATE').slice(0, BRIEFING_ROWS),
    poam_trend:
      summaries.length > 0
        ? { source: 'store', points: summaries.map((s) => ({ as_of: s.as_of.slice(0, 10), open: s.poam.open, overdue: s.poam.overdue })) }
        : { source: 'run', points: [thisRun(dashboard)] },
    next_due: schedule(freshness).slice(0, BRIEFING_ROWS),
  };
}

/** The run's own point: every FAIL or WARN row is an open item, overdue when its due date is before the run's date. */
function thisRun(dashboard: RunDashboardModel): PoamTrendPoint {
  return {
    as_of: dashboard.as_of,
    open: dashboard.governance.filter((row) => row.due !== null).length,
    overdue: dashboard.sla.find((b) => b.bucket === 'Overdue')?.count ?? 0,
  };
}
