import type { EnforcementAuditRecord } from './enforcement-audit-record';
import { ENFORCEMENT_STATES, type EnforcementState } from './enforcement-state';
import type { EplMode } from './epl-policy';

/** Where one policy ended after a run, and why. */
export interface EnforcementOutcome {
  policy_id: string;
  target: string;
  /** The KSI whose result is evaluated: the target, or the KSI covering the target control (null when none does). */
  ksi_id: string | null;
  mode: EplMode;
  /**
   * COMPLIANT, REMEDIATED or FAILED; VIOLATED for a dry run (or an enforce run cut short); EVALUATING when the
   * policy could not be evaluated (no result for its KSI).
   */
  state: EnforcementState;
  reason: string;
  /** The adapter chosen in the plan phase (`no-op` when none handles the action); absent when nothing was planned. */
  adapter?: string;
  /** Enforce + verify rounds tried. */
  attempts: number;
  /** True when an adapter said it changed something, whatever the verification found. */
  changed: boolean;
  audit: EnforcementAuditRecord[];
}

/** Counts of a batch run. `counts.EVALUATING` is the number of policies that could not be evaluated. */
export interface EnforcementSummary {
  total: number;
  counts: Record<EnforcementState, number>;
  /** Policies run in dry-run mode. */
  dry_run: number;
  /** Adapter calls, over all policies. */
  attempts: number;
  started_at: string;
  finished_at: string;
}

export function summarize(outcomes: readonly EnforcementOutcome[], startedAt: string, finishedAt: string): EnforcementSummary {
  const counts = Object.fromEntries(ENFORCEMENT_STATES.map((s) => [s, 0])) as Record<EnforcementState, number>;
  let dryRun = 0;
  let attempts = 0;
  for (const outcome of outcomes) {
    counts[outcome.state] += 1;
    if (outcome.mode === 'dry-run') dryRun += 1;
    attempts += outcome.attempts;
  }
  return { total: outcomes.length, counts, dry_run: dryRun, attempts, started_at: startedAt, finished_at: finishedAt };
}
