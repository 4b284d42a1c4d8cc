import { spawnSync } from 'node:child_process';
import { ROOT } from '../support/run-svc';

/** The package entry, by its name (package.json `exports`), as a consumer requires it from plain Node outside jest. */
const ENTRY = 'compliance-evidence-service/enforcement';

const SCRIPT = `
const { createEnforcementRuntime, EnforcementState, IllegalTransitionError, transition, validatePolicies } = require(${JSON.stringify(ENTRY)});
const adapter = {
  name: 'demo-ca',
  canHandle: (action) => action.name === 'enable-ca-policy',
  enforce: async (context) => ({ changed: true, after: { ...context.result, status: 'PASS' }, detail: 'enabled ' + context.action.parameters.policy }),
};
const runtime = createEnforcementRuntime({ adapters: [adapter] });
const policies = [{ id: 'mfa-admins', target: 'ia-2', condition: { status_in: ['FAIL'] }, action: { name: 'enable-ca-policy', parameters: { policy: 'Require MFA' } }, mode: 'enforce' }];
runtime.run({ policies, results: [{ ksi_id: 'KSI-IA-02', status: 'FAIL' }], source: 'ca.json' }).then((report) => {
  let illegal;
  try { transition('p', EnforcementState.COMPLIANT, EnforcementState.ENFORCING); } catch (e) { illegal = [e instanceof IllegalTransitionError, e.code, e.message]; }
  let invalid;
  try { validatePolicies([{ ...policies[0], mode: 'force' }], 'ca.json'); } catch (e) { invalid = [e.code, e.message]; }
  const [o] = report.outcomes;
  process.stdout.write(JSON.stringify({
    state: o.state, reason: o.reason, adapter: o.adapter, ksi: o.ksi_id,
    trail: o.audit.map((r) => [r.event, r.phase, r.from, r.to, r.reason, /^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$/.test(r.at)]),
    counts: report.summary.counts, illegal, invalid,
  }));
});
`;

describe('the enforcement entry, compliance-evidence-service/enforcement', () => {
  it('runs one policy from plain Node with the system clock and timer, and exits at once', () => {
    const started = Date.now();
    const run = spawnSync(process.execPath, ['-e', SCRIPT], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // The 30 s time-out of the policy is cleared when enforcement ends: nothing keeps the process alive.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(JSON.parse(run.stdout)).toEqual({
      state: 'REMEDIATED',
      reason: 'verified on attempt 1: condition no longer holds for KSI-IA-02 (status PASS)',
      adapter: 'demo-ca',
      ksi: 'KSI-IA-02',
      trail: [
        ['enter', 'load', null, 'EVALUATING', 'loaded from ca.json', true],
        ['transition', 'evaluate', 'EVALUATING', 'VIOLATED', 'condition holds for KSI-IA-02 (control ia-2) (status FAIL)', true],
        ['step', 'plan', 'VIOLATED', 'VIOLATED', 'action "enable-ca-policy" goes to adapter "demo-ca" (at most 1 attempt(s), timeout 30000 ms)', true],
        ['transition', 'enforce', 'VIOLATED', 'ENFORCING', 'enforcement starts with adapter "demo-ca"', true],
        ['step', 'enforce', 'ENFORCING', 'ENFORCING', 'attempt 1: adapter "demo-ca" changed something: enabled Require MFA', true],
        ['transition', 'verify', 'ENFORCING', 'REMEDIATED', 'verified on attempt 1: condition no longer holds for KSI-IA-02 (status PASS)', true],
      ],
      counts: { EVALUATING: 0, COMPLIANT: 0, VIOLATED: 0, ENFORCING: 0, REMEDIATED: 1, FAILED: 0 },
      illegal: [true, 'illegal-transition', 'policy "p": illegal transition COMPLIANT -> ENFORCING; COMPLIANT is a final state'],
      invalid: [
        'invalid-epl-policy',
        'ca.json: policies[0].mode: expected "enforce" or "dry-run", got "force" (policy "mfa-admins"); write "enforce", or "dry-run" to plan without changing anything',
      ],
    });
  });

  it('loads no package: the library runs without the api extra or the CLI', () => {
    const run = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(ENTRY)}); process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('node_modules'))))`],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
