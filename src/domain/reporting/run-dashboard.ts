import type { AssessedResult } from '../assessment/assessment';
import { detectionDate, needsPoam } from '../artifacts/poam';
import { addDays, type RunContext } from '../artifacts/run-context';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import { compareActions } from '../governance/governance-policy';
import { SEVERITIES } from '../governance/severity';
import { areaCounts, areaOf, areaTitle } from './areas';
import type { AreaStatus, GovernanceRow, RunDashboardModel, SlaBucket } from './dashboard-model';
import { SLA_BUCKETS } from './dashboard-model';
import { isoSeconds } from '../encoding/iso-time';

export interface RunDashboardFacts {
  items: readonly AssessedResult[];
  context: RunContext;
  catalog: KsiCatalog;
  merkleRoot: string;
  counts: RunDashboardModel['counts'];
  tool: { name: string; version: string };
  /** YYYY-MM-DD the SLA buckets are measured from. */
  asOf: string;
}

/** What `svc ir dashboard` shows of one run: status by area, actions by severity, POA&M by SLA, the governance table. */
export function runDashboardModel(facts: RunDashboardFacts): RunDashboardModel {
  const { items, context, catalog, asOf } = facts;
  const areas = areaCounts(items);
  const governance: GovernanceRow[] = [...items]
    .sort((x, y) => compareActions(x.action, y.action))
    .map((i) => ({
      ksi_id: i.result.ksi_id,
      title: i.result.title ?? i.definition?.title ?? 'Unmapped KSI',
      area: areaOf(i),
      status: i.result.status,
      action: i.action.action,
      severity: i.action.severity,
      owner: i.action.owner,
      sla_days: i.action.sla_days,
      due: needsPoam(i) ? addDays(detectionDate(i, context), i.action.sla_days) : null,
      controls: i.definition?.controls ?? [],
    }));
  const sla = new Map<SlaBucket, number>(SLA_BUCKETS.map((b) => [b, 0]));
  for (const row of governance) if (row.due !== null) sla.set(slaBucket(row.due, asOf), (sla.get(slaBucket(row.due, asOf)) ?? 0) + 1);
  return {
    title: `Compliance dashboard: ${context.source?.tenant ?? context.input.name}`,
    generated_at: isoSeconds(context.runAt),
    as_of: asOf,
    input: context.input,
    merkle_root: facts.merkleRoot,
    tool: facts.tool,
    counts: facts.counts,
    areas: Object.entries(areas).map(([area, c]): AreaStatus => ({ area, title: areaTitle(area, catalog), ...c })),
    severities: SEVERITIES.map((severity) => ({
      severity,
      remediate: items.filter((i) => i.action.severity === severity && i.action.action === 'REMEDIATE').length,
      monitor: items.filter((i) => i.action.severity === severity && i.action.action === 'MONITOR').length,
    })),
    sla: SLA_BUCKETS.map((bucket) => ({ bucket, count: sla.get(bucket) ?? 0 })),
    governance,
  };
}

function slaBucket(due: string, asOf: string): SlaBucket {
  if (due < asOf) return 'Overdue';
  if (due <= addDays(asOf, 7)) return 'Due within 7 days';
  if (due <= addDays(asOf, 30)) return 'Due within 30 days';
  return 'Due later';
}
