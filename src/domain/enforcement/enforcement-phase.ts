/**
 * The five phases of a run, in order. Dry-run policies stop after PLAN; VERIFY re-evaluates the condition on
 * the result after enforcement.
 */
export const EnforcementPhase = {
  LOAD: 'load',
  EVALUATE: 'evaluate',
  PLAN: 'plan',
  ENFORCE: 'enforce',
  VERIFY: 'verify',
} as const;
export type EnforcementPhase = (typeof EnforcementPhase)[keyof typeof EnforcementPhase];

export const ENFORCEMENT_PHASES: readonly EnforcementPhase[] = Object.values(EnforcementPhase);
