import type { InjectionToken } from 'tsyringe';
import type { GovernancePolicy } from '../domain/governance/governance-policy';

/** Settings of this installation: the tool's identity and the governance policy from svc.config.json. */
export interface RunSettings {
  tool: { name: string; version: string };
  governance: GovernancePolicy;
  /** Continuous monitoring: the sinks `svc conmon process` sends events to when no --sink is given. */
  conmon: { sinks: string[] };
}

export const RUN_SETTINGS: InjectionToken<RunSettings> = Symbol('RunSettings');
