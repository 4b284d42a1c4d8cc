import type { InjectionToken } from 'tsyringe';
import type { GovernancePolicy } from '../domain/governance/governance-policy';

/** Settings of this installation: the tool's identity and the governance policy from svc.config.json. */
export interface RunSettings {
  tool: { name: string; version: string };
  governance: GovernancePolicy;
}

export const RUN_SETTINGS: InjectionToken<RunSettings> = Symbol('RunSettings');
