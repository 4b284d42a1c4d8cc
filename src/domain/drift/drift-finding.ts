import type { Presence } from './run-diff';

/** The five classes of DESIGN §5's drift table. */
export const DRIFT_CLASSES = ['DRIFT-IDENTITY', 'DRIFT-AUTHZ', 'DRIFT-SEMANTIC', 'DRIFT-PROVENANCE', 'DRIFT-SCHEMA'] as const;
export type DriftClass = (typeof DRIFT_CLASSES)[number];

/** P1 is the most severe. */
export const DRIFT_SEVERITIES = ['P1', 'P2', 'P3', 'P4'] as const;
export type DriftSeverity = (typeof DRIFT_SEVERITIES)[number];

/** One classified change between two runs. `ksi_id` is null for a change of the run as a whole (schema, source tool). */
export interface DriftFinding {
  ksi_id: string | null;
  class: DriftClass;
  severity: DriftSeverity;
  from: Presence | string;
  to: Presence | string;
  reason: string;
}

export interface DriftCounts {
  total: number;
  severity: Record<DriftSeverity, number>;
  class: Record<DriftClass, number>;
}
