import type { RunCounts } from '../assessment/assessment';
import type { InputRef } from '../artifacts/run-context';
import type { DriftClass } from '../drift/drift-finding';
import type { Severity } from '../governance/severity';
import type { Status } from '../ksi/status';

/** Status counts of one area (NIST family, or UNMAPPED) in a run. */
export interface AreaStatus {
  area: string;
  title: string;
  pass: number;
  warn: number;
  fail: number;
}

/** One row of the dashboard's governance table. */
export interface GovernanceRow {
  ksi_id: string;
  title: string;
  area: string;
  status: Status;
  action: 'REMEDIATE' | 'MONITOR';
  severity: Severity;
  owner: string;
  sla_days: number;
  /** YYYY-MM-DD the POA&M item is due (FAIL/WARN only), else null. */
  due: string | null;
  controls: string[];
}

/** POA&M items by how their scheduled completion date stands against the run's date. */
export const SLA_BUCKETS = ['Overdue', 'Due within 7 days', 'Due within 30 days', 'Due later'] as const;
export type SlaBucket = (typeof SLA_BUCKETS)[number];

/** Everything `svc ir dashboard` shows about one run; the renderer only lays it out. */
export interface RunDashboardModel {
  title: string;
  /** When the page was made (ISO-8601 UTC). */
  generated_at: string;
  /** The date SLA buckets are measured from (YYYY-MM-DD). */
  as_of: string;
  input: InputRef;
  /** Hex Merkle root of the run's evidence entries. */
  merkle_root: string;
  tool: { name: string; version: string };
  counts: RunCounts;
  areas: AreaStatus[];
  /** Governance actions per severity, most severe first. */
  severities: { severity: Severity; remediate: number; monitor: number }[];
  sla: { bucket: SlaBucket; count: number }[];
  /** Ordered like the governance report: descending severity, then ksi_id. */
  governance: GovernanceRow[];
}

/** One stored run as a point of the trend charts. */
export interface TrendPoint {
  seq: number;
  id: string;
  as_of: string;
  /** PASS / results, 0..1. */
  pass_rate: number;
  /** Pass rate per area, 0..1; an area absent from the run is absent here. */
  areas: Record<string, number>;
  counts: RunCounts;
  open: number;
  overdue: number;
  drift: Record<DriftClass, number>;
}

/** Everything `svc conmon dashboard` shows: trends across the stored runs, oldest first. */
export interface TrendDashboardModel {
  title: string;
  generated_at: string;
  /** The store the runs came from (path or URL without password). */
  store: string;
  tool: { name: string; version: string };
  /** Areas that appear in any run, in order, each with its title. */
  areas: { area: string; title: string }[];
  runs: TrendPoint[];
}
