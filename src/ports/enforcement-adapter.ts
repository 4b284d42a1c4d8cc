import type { InjectionToken } from 'tsyringe';
import type { EnforcementAction, EPLPolicy } from '../domain/enforcement/epl-policy';
import type { KsiResult } from '../domain/ksi/ksi-result';

/** What the runtime hands an adapter for one enforce attempt. */
export interface EnforcementContext {
  policy: EPLPolicy;
  action: EnforcementAction;
  /** The violating result: the evaluated one on attempt 1, the last verified one on later attempts. */
  result: KsiResult;
  /** 1-based enforce + verify round. */
  attempt: number;
  /**
   * Aborted when the policy's timeout_ms runs out (reason: an Error "timed out after N ms"): stop work and settle
   * promptly. Also aborted, with reason "settled", once the policy's enforcement has ended.
   */
  signal: AbortSignal;
}

/** What an adapter reports after an attempt. */
export interface EnforcementAdapterResult {
  /** Whether the adapter changed anything in the target system. */
  changed: boolean;
  /**
   * The KSI result as it stands after enforcement, for the verify phase. Without it, the runtime asks its
   * `resultAfter` hook; with neither, the attempt cannot be verified and the policy ends FAILED.
   */
  after?: KsiResult;
  /** One line for the audit trail (no secrets or tokens). */
  detail?: string;
}

/**
 * Applies an EPL action to a system (a Conditional Access policy, a group, a setting). The runtime gives an
 * action to the first adapter whose canHandle returns true. enforce may throw any error: the runtime catches
 * it, records its message, and the policy ends FAILED without stopping the other policies. Messages of thrown
 * errors go into the audit trail, so they must not carry secrets or tokens.
 */
export interface EnforcementAdapter {
  /** Short name for the audit trail (`entra-conditional-access`). */
  readonly name: string;
  canHandle(action: EnforcementAction): boolean;
  enforce(context: EnforcementContext): Promise<EnforcementAdapterResult>;
}

export const ENFORCEMENT_ADAPTERS: InjectionToken<EnforcementAdapter[]> = Symbol('EnforcementAdapters');
