/**
 * `compliance-evidence-service/enforcement` (SPEC §9, docs/enforcement.md): the enforcement runtime, a library
 * only. No command and no route imports this module (test/architecture/enforcement-surface.test.ts).
 */
import { EnforcementRuntime, type EnforcementRuntimeOptions } from '../../application/enforcement/enforcement-runtime';
import type { Timer } from '../../ports/timer';
import { systemTime } from './container';

export { EnforcementRuntime, DEFAULT_CONCURRENCY } from '../../application/enforcement/enforcement-runtime';
export type { EnforcementRuntimeOptions, EnforcementRunInput, EnforcementReport, ResultAfter } from '../../application/enforcement/enforcement-runtime';
export { NoOpEnforcementAdapter } from '../../application/enforcement/no-op-enforcement-adapter';
export type { EnforcementAdapter, EnforcementAdapterResult, EnforcementContext } from '../../ports/enforcement-adapter';
export { EnforcementState, ENFORCEMENT_STATES, LEGAL_TRANSITIONS, isLegalTransition } from '../../domain/enforcement/enforcement-state';
export { EnforcementPhase, ENFORCEMENT_PHASES } from '../../domain/enforcement/enforcement-phase';
export { transition } from '../../domain/enforcement/enforcement-transition';
export { IllegalTransitionError } from '../../domain/enforcement/illegal-transition-error';
export {
  validatePolicies,
  EPL_MODES,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TIMEOUT_MS,
  MAX_ATTEMPTS_LIMIT,
  TIMEOUT_MS_LIMIT,
} from '../../domain/enforcement/epl-policy';
export type { EPLPolicy, EnforcementAction, EplMode } from '../../domain/enforcement/epl-policy';
export { evaluateCondition, EVIDENCE_OPERATORS, MAX_CONDITION_DEPTH } from '../../domain/enforcement/epl-condition';
export type { EplCondition, EvidenceTest, EvidenceOperator } from '../../domain/enforcement/epl-condition';
export type { EnforcementOutcome, EnforcementSummary } from '../../domain/enforcement/enforcement-outcome';
export type { EnforcementAuditRecord, AuditEvent } from '../../domain/enforcement/enforcement-audit-record';
export type { KsiResult } from '../../domain/ksi/ksi-result';
export type { Clock } from '../../ports/clock';
export type { Timer } from '../../ports/timer';
export { AppError, InvalidInputError } from '../../domain/errors';

/** The runtime over the system clock and timer; pass `clock` or `timer` to replace either. */
export function createEnforcementRuntime(options: Omit<EnforcementRuntimeOptions, 'timer'> & { timer?: Timer }): EnforcementRuntime {
  const system = systemTime();
  return new EnforcementRuntime({ ...options, timer: options.timer ?? system.timer, clock: options.clock ?? system.clock });
}
