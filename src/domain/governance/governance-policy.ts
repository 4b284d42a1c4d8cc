import type { KsiDefinition } from '../catalog/ksi-catalog';
import { markdownText } from '../encoding/markdown';
import type { Status } from '../ksi/status';
import { lowerSeverity, severityRank, type Severity } from './severity';

export type ActionType = 'REMEDIATE' | 'MONITOR';

export interface GovernanceAction {
  action: ActionType;
  ksi_id: string;
  severity: Severity;
  owner: string;
  sla_days: number;
}

/** The rules of DESIGN §5 that are configurable in svc.config.json. */
export interface GovernancePolicy {
  sla_days: Record<Severity, number>;
  /** Mailbox that owns every unmapped KSI. */
  unmapped_owner: string;
}

export const DEFAULT_GOVERNANCE_POLICY: GovernancePolicy = Object.freeze({
  sla_days: Object.freeze({ Critical: 7, High: 14, Medium: 30, Low: 60 }),
  unmapped_owner: 'compliance-team@agency.example',
});

/**
 * FAIL → REMEDIATE at the KSI's FAIL severity; WARN → REMEDIATE one step lower; PASS → MONITOR at Low;
 * unmapped → MONITOR at Low owned by the compliance team.
 */
export function decideAction(ksiId: string, status: Status, definition: KsiDefinition | undefined, policy: GovernancePolicy): GovernanceAction {
  if (!definition) return { action: 'MONITOR', ksi_id: ksiId, severity: 'Low', owner: policy.unmapped_owner, sla_days: policy.sla_days.Low };
  const severity: Severity = status === 'FAIL' ? definition.severity : status === 'WARN' ? lowerSeverity(definition.severity) : 'Low';
  return {
    action: status === 'PASS' ? 'MONITOR' : 'REMEDIATE',
    ksi_id: ksiId,
    severity,
    owner: definition.owner,
    sla_days: policy.sla_days[severity],
  };
}

/** Governance report order: descending severity, then ksi_id ascending. */
export function compareActions(a: GovernanceAction, b: GovernanceAction): number {
  return severityRank(b.severity) - severityRank(a.severity) || compareIds(a.ksi_id, b.ksi_id);
}

/** Code-unit order, the same on every machine and locale (RFC 8785 sorts keys the same way). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function formatGovernanceLine(a: GovernanceAction): string {
  return `- ${a.action} | ${markdownText(a.ksi_id)} | sev=${a.severity} | owner=${markdownText(a.owner)} | SLA=${a.sla_days}d`;
}
