import type { InjectionToken } from 'tsyringe';
import type { GovernancePolicy } from '../domain/governance/governance-policy';
import type { Retention } from '../domain/conmon/retention';

/** Settings of this installation: the tool's identity and the governance policy from svc.config.json. */
export interface RunSettings {
  tool: { name: string; version: string };
  governance: GovernancePolicy;
  /**
   * Continuous monitoring: the sinks `svc conmon process` sends events to when no --sink is given, and the retention
   * of recorded runs (conmon.retention: old runs' documents pruned after each recording; none: everything kept).
   */
  conmon: { sinks: string[]; retention?: Retention };
}

export const RUN_SETTINGS: InjectionToken<RunSettings> = Symbol('RunSettings');
