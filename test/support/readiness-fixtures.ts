/**
 * The readiness scenario's fixtures (issue 36: one copy, for the unit test of CheckFedrampReadiness and the e2e of
 * `svc fedramp readiness`): the provider's statements file and a report keyed by CR26 ids, generated the day before
 * the scenario's now (2026-12-10, after 2026-12-07: the VDR rules are in force for a 20x application).
 */
export const READINESS_STATEMENTS = [
  '# Statements',
  '',
  '## KSI-IAM-APM',
  'Every account signs in with a passkey.',
  '',
  '## VDR-TFR-PVR',
  'We remediate by N-rating within the timeframes.',
  '',
].join('\n');

/** A report keyed by CR26 ids, generated the day before the scenario's now. */
export const READINESS_REPORT = {
  schema_version: '1',
  generated_at: '2026-12-09T08:00:00Z',
  source: { tool: 'svc-fixture', version: '1' },
  results: [
    {
      ksi_id: 'KSI-IAM-APM',
      status: 'PASS',
      observed_at: '2026-12-09T07:00:00Z',
      checks: [
        { id: 'passkeys-only', status: 'PASS' },
        { id: 'no-passwords', status: 'PASS' },
      ],
    },
    { ksi_id: 'KSI-CNA-RNT', status: 'PASS', observed_at: '2026-11-20T07:00:00Z', checks: [{ id: 'deny-by-default', status: 'PASS' }] },
    { ksi_id: 'KSI-CED-RAT', status: 'PASS', observed_at: '2026-10-01T00:00:00Z', evidence_kind: 'non-machine' },
    { ksi_id: 'KSI-SVC-SIN', status: 'FAIL', observed_at: '2026-12-09T07:00:00Z', checks: [{ id: 'signed-artifacts', status: 'FAIL' }] },
  ],
};
