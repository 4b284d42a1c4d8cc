import { compareActions, decideAction, DEFAULT_GOVERNANCE_POLICY, formatGovernanceLine } from '../../../src/domain/governance/governance-policy';
import { lowerSeverity } from '../../../src/domain/governance/severity';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';

const catalog = builtInCatalog();
const policy = DEFAULT_GOVERNANCE_POLICY;

describe('governance policy (DESIGN §5)', () => {
  it.each([
    ['KSI-AC-02', 'FAIL', 'REMEDIATE', 'Critical', 7, 'identity-team@agency.example'],
    ['KSI-AC-02', 'WARN', 'REMEDIATE', 'High', 14, 'identity-team@agency.example'],
    ['KSI-AC-02', 'PASS', 'MONITOR', 'Low', 60, 'identity-team@agency.example'],
    ['KSI-AU-02', 'FAIL', 'REMEDIATE', 'High', 14, 'secops-team@agency.example'],
    ['KSI-AU-02', 'WARN', 'REMEDIATE', 'Medium', 30, 'secops-team@agency.example'],
    ['KSI-PL-02', 'FAIL', 'REMEDIATE', 'Medium', 30, 'grc-team@agency.example'],
    ['KSI-PL-02', 'WARN', 'REMEDIATE', 'Low', 60, 'grc-team@agency.example'],
    ['KSI-SC-08', 'PASS', 'MONITOR', 'Low', 60, 'platform-team@agency.example'],
    ['KSI-ZZ-01', 'FAIL', 'MONITOR', 'Low', 60, 'compliance-team@agency.example'],
  ] as const)('%s %s → %s at %s, SLA %sd, owner %s', (id, status, action, severity, sla, owner) => {
    expect(decideAction(id, status, catalog.get(id), policy)).toEqual({ action, ksi_id: id, severity, sla_days: sla, owner });
  });

  it('steps severity down once, Low staying Low', () => {
    expect(['Critical', 'High', 'Medium', 'Low'].map((s) => lowerSeverity(s as never))).toEqual(['High', 'Medium', 'Low', 'Low']);
  });

  it('takes SLA days and the compliance mailbox from the policy', () => {
    const custom = { sla_days: { Critical: 3, High: 10, Medium: 20, Low: 45 }, unmapped_owner: 'grc@x.example' };
    expect(decideAction('KSI-AC-02', 'FAIL', catalog.get('KSI-AC-02'), custom).sla_days).toBe(3);
    expect(decideAction('KSI-ZZ-01', 'FAIL', undefined, custom)).toMatchObject({ owner: 'grc@x.example', sla_days: 45 });
  });

  it('orders lines by descending severity, then ksi_id, and writes them in the report form', () => {
    const actions = [
      decideAction('KSI-SC-08', 'PASS', catalog.get('KSI-SC-08'), policy),
      decideAction('KSI-IA-02', 'FAIL', catalog.get('KSI-IA-02'), policy),
      decideAction('KSI-AU-02', 'WARN', catalog.get('KSI-AU-02'), policy),
      decideAction('KSI-AC-02', 'FAIL', catalog.get('KSI-AC-02'), policy),
    ].sort(compareActions);
    expect(actions.map(formatGovernanceLine)).toEqual([
      '- REMEDIATE | KSI-AC-02 | sev=Critical | owner=identity-team@agency.example | SLA=7d',
      '- REMEDIATE | KSI-IA-02 | sev=Critical | owner=identity-team@agency.example | SLA=7d',
      '- REMEDIATE | KSI-AU-02 | sev=Medium | owner=secops-team@agency.example | SLA=30d',
      '- MONITOR | KSI-SC-08 | sev=Low | owner=platform-team@agency.example | SLA=60d',
    ]);
  });
});
