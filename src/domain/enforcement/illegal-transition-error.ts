import { AppError } from '../errors';
import { LEGAL_TRANSITIONS, type EnforcementState } from './enforcement-state';

/**
 * A move outside the transition table of SPEC "States and transitions". It is a bug in the runtime or in a
 * caller driving the state machine by hand, never a result of policies or adapters.
 */
export class IllegalTransitionError extends AppError {
  readonly kind = 'conflict';

  constructor(
    readonly policyId: string,
    readonly from: EnforcementState,
    readonly to: EnforcementState,
  ) {
    super('illegal-transition', `policy "${policyId}": illegal transition ${from} -> ${to}; ${allowed(from)}`);
  }
}

function allowed(from: EnforcementState): string {
  const next = LEGAL_TRANSITIONS[from];
  if (next.length === 0) return `${from} is a final state`;
  return `from ${from} the next state is ${next.join(' or ')}`;
}
