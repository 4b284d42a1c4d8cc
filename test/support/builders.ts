import type { KsiResult } from '../../src/domain/ksi/ksi-result';
import type { Status } from '../../src/domain/ksi/status';
import { DEFAULT_GOVERNANCE_POLICY } from '../../src/domain/governance/governance-policy';
import type { RunSettings } from '../../src/ports/run-settings';

/** A KSI result with defaults a test can override. */
export function aResult(ksiId: string, status: Status = 'PASS', extra: Partial<KsiResult> = {}): KsiResult {
  return { ksi_id: ksiId, status, ...extra };
}

/** The sample of fixtures/sample-baseline.json in miniature: 2 FAIL, 1 WARN, 2 PASS, one unmapped. */
export function sampleResults(): KsiResult[] {
  return [
    aResult('KSI-IA-02', 'FAIL', { title: 'MFA', observed_at: '2026-11-02T14:03:12Z', checks: [{ id: 'MS.AAD.3.1v1', status: 'FAIL' }] }),
    aResult('KSI-AC-02', 'FAIL', { observed_at: '2026-11-02T14:03:40Z' }),
    aResult('KSI-AU-02', 'WARN', { observed_at: '2026-11-02T14:04:02Z' }),
    aResult('KSI-SC-08', 'PASS', { evidence: { min_tls: '1.2', smtp_tls: 'required' } }),
    aResult('KSI-CNA-01', 'PASS'),
  ];
}

export const TEST_SETTINGS: RunSettings = { tool: { name: 'svc', version: '0.5.0' }, governance: DEFAULT_GOVERNANCE_POLICY, conmon: { sinks: [] } };

/** An enforcement policy (docs/enforcement.md): MFA for admins through a Conditional Access action, enforced. */
export function anEplPolicy<T extends Record<string, unknown>>(overrides: T = {} as T) {
  return {
    id: 'mfa-admins',
    target: 'KSI-IA-02',
    condition: { status_in: ['FAIL'] },
    action: { name: 'enable-ca-policy', parameters: { policy: 'Require MFA for admins' } },
    mode: 'enforce',
    ...overrides,
  };
}
