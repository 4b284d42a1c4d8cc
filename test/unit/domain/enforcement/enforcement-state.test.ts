import { AppError } from '../../../../src/domain/errors';
import { ENFORCEMENT_PHASES, EnforcementPhase } from '../../../../src/domain/enforcement/enforcement-phase';
import { ENFORCEMENT_STATES, EnforcementState, isLegalTransition } from '../../../../src/domain/enforcement/enforcement-state';
import { transition } from '../../../../src/domain/enforcement/enforcement-transition';
import { IllegalTransitionError } from '../../../../src/domain/enforcement/illegal-transition-error';

const LEGAL: Array<[EnforcementState, EnforcementState]> = [
  ['EVALUATING', 'COMPLIANT'],
  ['EVALUATING', 'VIOLATED'],
  ['VIOLATED', 'ENFORCING'],
  ['ENFORCING', 'REMEDIATED'],
  ['ENFORCING', 'FAILED'],
];

/** What the message says after the move, for each state a move starts from. */
const ALLOWED: Record<EnforcementState, string> = {
  EVALUATING: 'from EVALUATING the next state is COMPLIANT or VIOLATED',
  COMPLIANT: 'COMPLIANT is a final state',
  VIOLATED: 'from VIOLATED the next state is ENFORCING',
  ENFORCING: 'from ENFORCING the next state is REMEDIATED or FAILED',
  REMEDIATED: 'REMEDIATED is a final state',
  FAILED: 'FAILED is a final state',
};

const ALL_PAIRS = ENFORCEMENT_STATES.flatMap((from) => ENFORCEMENT_STATES.map((to): [EnforcementState, EnforcementState] => [from, to]));
const ILLEGAL = ALL_PAIRS.filter(([from, to]) => !LEGAL.some(([f, t]) => f === from && t === to));

describe('the enforcement state machine (SPEC "States and transitions")', () => {
  it('has the six states and the five phases, in order', () => {
    expect(ENFORCEMENT_STATES).toEqual(['EVALUATING', 'COMPLIANT', 'VIOLATED', 'ENFORCING', 'REMEDIATED', 'FAILED']);
    expect(EnforcementState.VIOLATED).toBe('VIOLATED');
    expect(ENFORCEMENT_PHASES).toEqual(['load', 'evaluate', 'plan', 'enforce', 'verify']);
    expect(EnforcementPhase.VERIFY).toBe('verify');
  });

  it('splits the 36 pairs into 5 legal and 31 illegal moves', () => {
    expect(ALL_PAIRS).toHaveLength(36);
    expect(ILLEGAL).toHaveLength(31);
    expect(ALL_PAIRS.filter(([from, to]) => isLegalTransition(from, to))).toEqual(LEGAL);
  });

  it.each(LEGAL)('accepts %s -> %s', (from, to) => {
    expect(transition('p1', from, to)).toBe(to);
  });

  it.each(ILLEGAL)('refuses %s -> %s with IllegalTransitionError', (from, to) => {
    let thrown: unknown;
    try {
      transition('block-legacy-auth', from, to);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toBeInstanceOf(AppError);
    const error = thrown as IllegalTransitionError;
    expect(error.message).toBe(`policy "block-legacy-auth": illegal transition ${from} -> ${to}; ${ALLOWED[from]}`);
    expect([error.kind, error.code, error.name, error.policyId, error.from, error.to]).toEqual([
      'conflict',
      'illegal-transition',
      'IllegalTransitionError',
      'block-legacy-auth',
      from,
      to,
    ]);
  });
});
