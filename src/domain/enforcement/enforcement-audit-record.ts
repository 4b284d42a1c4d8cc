import type { EnforcementPhase } from './enforcement-phase';
import type { EnforcementState } from './enforcement-state';

/**
 * What a record is: `enter` (a loaded policy enters EVALUATING; `from` is null), `transition` (a move of the
 * state table), or `step` (something done inside a state: the plan, an enforce attempt, a verification,
 * evaluation that could not happen; `from` equals `to`).
 */
export type AuditEvent = 'enter' | 'transition' | 'step';

/** One line of the audit trail. Records of a policy are in the order they happened. */
export interface EnforcementAuditRecord {
  policy_id: string;
  event: AuditEvent;
  phase: EnforcementPhase;
  from: EnforcementState | null;
  to: EnforcementState;
  /** ISO-8601 time from the runtime's clock. */
  at: string;
  reason: string;
  /** The enforce + verify round (1-based) a record of the enforce or verify phase belongs to. */
  attempt?: number;
}
