import { isLegalTransition, type EnforcementState } from './enforcement-state';
import { IllegalTransitionError } from './illegal-transition-error';

/** Returns `to` when the move is in the table of SPEC "States and transitions"; throws IllegalTransitionError otherwise. */
export function transition(policyId: string, from: EnforcementState, to: EnforcementState): EnforcementState {
  if (!isLegalTransition(from, to)) throw new IllegalTransitionError(policyId, from, to);
  return to;
}
