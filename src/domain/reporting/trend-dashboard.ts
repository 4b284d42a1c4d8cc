import type { RunSummary } from '../conmon/run-record';
import type { TrendDashboardModel } from './dashboard-model';

export interface TrendFacts {
  summaries: readonly RunSummary[];
  store: string;
  tool: { name: string; version: string };
  generatedAt: string;
  areaTitle: (area: string) => string;
}

/** What `svc conmon dashboard` shows: one point per stored run, oldest first, from the run summaries alone. */
export function trendDashboardModel(facts: TrendFacts): TrendDashboardModel {
  const areas = [...new Set(facts.summaries.flatMap((s) => Object.keys(s.areas)))].sort();
  const last = facts.summaries[facts.summaries.length - 1];
  return {
    title: `Continuous monitoring trends${last ? `: ${last.source?.tenant ?? last.input.name}` : ''}`,
    generated_at: facts.generatedAt,
    store: facts.store,
    tool: facts.tool,
    areas: areas.map((area) => ({ area, title: facts.areaTitle(area) })),
    runs: facts.summaries.map((s) => ({
      seq: s.seq,
      id: s.id,
      as_of: s.as_of,
      pass_rate: ratio(s.counts.pass, s.counts.results),
      areas: Object.fromEntries(Object.entries(s.areas).map(([area, c]) => [area, ratio(c.pass, c.pass + c.warn + c.fail)])),
      counts: s.counts,
      open: s.poam.open,
      overdue: s.poam.overdue,
      drift: s.drift,
    })),
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
