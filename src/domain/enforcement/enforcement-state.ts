/**
 * The six states of a policy in the enforcement runtime (SPEC "States and transitions"). A policy enters
 * EVALUATING when it is loaded; COMPLIANT, VIOLATED (after evaluation only, or at the end of a dry run),
 * REMEDIATED and FAILED are where a run leaves it.
 */
export const EnforcementState = {
  EVALUATING: 'EVALUATING',
  COMPLIANT: 'COMPLIANT',
  VIOLATED: 'VIOLATED',
  ENFORCING: 'ENFORCING',
  REMEDIATED: 'REMEDIATED',
  FAILED: 'FAILED',
} as const;
export type EnforcementState = (typeof EnforcementState)[keyof typeof EnforcementState];

export const ENFORCEMENT_STATES: readonly EnforcementState[] = Object.values(EnforcementState);

/** The only legal moves (SPEC): evaluation, the start of enforcement and its end. Nothing leaves a final state. */
export const LEGAL_TRANSITIONS: Readonly<Record<EnforcementState, readonly EnforcementState[]>> = {
  EVALUATING: ['COMPLIANT', 'VIOLATED'],
  COMPLIANT: [],
  VIOLATED: ['ENFORCING'],
  ENFORCING: ['REMEDIATED', 'FAILED'],
  REMEDIATED: [],
  FAILED: [],
};

export function isLegalTransition(from: EnforcementState, to: EnforcementState): boolean {
  return LEGAL_TRANSITIONS[from].includes(to);
}
