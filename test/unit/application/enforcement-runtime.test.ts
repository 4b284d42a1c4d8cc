import { EnforcementRuntime, type EnforcementRuntimeOptions } from '../../../src/application/enforcement/enforcement-runtime';
import type { EnforcementAuditRecord } from '../../../src/domain/enforcement/enforcement-audit-record';
import type { EPLPolicy } from '../../../src/domain/enforcement/epl-policy';
import { InvalidInputError } from '../../../src/domain/errors';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import type { Status } from '../../../src/domain/ksi/status';
import type { Clock } from '../../../src/ports/clock';
import type { EnforcementAdapter, EnforcementAdapterResult, EnforcementContext } from '../../../src/ports/enforcement-adapter';
import { FakeTimer } from '../../fakes/fake-timer';
import { FixedClock } from '../../fakes/fixed-clock';
import { anEplPolicy } from '../../support/builders';

/** One second later at each reading, so the audit trail's times show its order. */
class TickingClock implements Clock {
  private tick = 0;
  now(): Date {
    return new Date(Date.UTC(2026, 10, 20, 12, 0, this.tick++));
  }
}

type Reply = (context: EnforcementContext) => EnforcementAdapterResult | Promise<EnforcementAdapterResult>;

/** Handles the listed actions and answers with `reply`; keeps every context it was given. */
class ScriptedAdapter implements EnforcementAdapter {
  readonly calls: EnforcementContext[] = [];
  constructor(
    readonly name: string,
    private readonly actions: string[],
    private readonly reply: Reply,
  ) {}

  canHandle(action: { name: string }): boolean {
    return this.actions.includes(action.name);
  }

  async enforce(context: EnforcementContext): Promise<EnforcementAdapterResult> {
    this.calls.push(context);
    return this.reply(context);
  }
}

const result = (ksi: string, status: Status, evidence?: Record<string, unknown>): KsiResult =>
  evidence ? { ksi_id: ksi, status, evidence } : { ksi_id: ksi, status };

const policy = (overrides: Partial<EPLPolicy> = {}): EPLPolicy => anEplPolicy(overrides) as EPLPolicy;

/** An adapter that fixes what it is given: the result after is PASS. */
const fixer = (name = 'entra-ca', actions = ['enable-ca-policy']) =>
  new ScriptedAdapter(name, actions, (c) => ({
    changed: true,
    after: { ...c.result, status: 'PASS' },
    detail: `enabled "${String(c.action.parameters?.policy)}"`,
  }));

function runtime(adapters: EnforcementAdapter[], options: Partial<EnforcementRuntimeOptions> = {}) {
  const timer = new FakeTimer();
  return { timer, runtime: new EnforcementRuntime({ adapters, timer, clock: new FixedClock(), ...options }) };
}

const AT = '2026-11-20T12:00:00.000Z';

describe('EnforcementRuntime', () => {
  it('leaves a policy whose condition does not hold COMPLIANT and calls no adapter', async () => {
    const adapter = fixer();
    const report = await runtime([adapter]).runtime.run({ policies: [policy()], results: [result('KSI-IA-02', 'PASS')] });
    expect(adapter.calls).toEqual([]);
    expect(report.outcomes).toEqual([
      {
        policy_id: 'mfa-admins',
        target: 'KSI-IA-02',
        ksi_id: 'KSI-IA-02',
        mode: 'enforce',
        state: 'COMPLIANT',
        reason: 'condition does not hold for KSI-IA-02 (status PASS)',
        attempts: 0,
        changed: false,
        audit: [
          { policy_id: 'mfa-admins', event: 'enter', phase: 'load', from: null, to: 'EVALUATING', at: AT, reason: 'loaded from policies' },
          {
            policy_id: 'mfa-admins',
            event: 'transition',
            phase: 'evaluate',
            from: 'EVALUATING',
            to: 'COMPLIANT',
            at: AT,
            reason: 'condition does not hold for KSI-IA-02 (status PASS)',
          },
        ],
      },
    ]);
    expect(report.summary).toEqual({
      total: 1,
      counts: { EVALUATING: 0, COMPLIANT: 1, VIOLATED: 0, ENFORCING: 0, REMEDIATED: 0, FAILED: 0 },
      dry_run: 0,
      attempts: 0,
      started_at: AT,
      finished_at: AT,
    });
  });

  it('enforces a violated policy and verifies it REMEDIATED, with the exact audit trail', async () => {
    const adapter = fixer();
    const { runtime: run } = runtime([adapter], { clock: new TickingClock() });
    const report = await run.run({ policies: { policies: [policy({ timeout_ms: 5000 })] }, results: [result('KSI-IA-02', 'FAIL')], source: 'ca.json' });
    const at = (s: number) => `2026-11-20T12:00:0${s}.000Z`;
    const expected: EnforcementAuditRecord[] = [
      { policy_id: 'mfa-admins', event: 'enter', phase: 'load', from: null, to: 'EVALUATING', at: at(1), reason: 'loaded from ca.json' },
      {
        policy_id: 'mfa-admins',
        event: 'transition',
        phase: 'evaluate',
        from: 'EVALUATING',
        to: 'VIOLATED',
        at: at(2),
        reason: 'condition holds for KSI-IA-02 (status FAIL)',
      },
      {
        policy_id: 'mfa-admins',
        event: 'step',
        phase: 'plan',
        from: 'VIOLATED',
        to: 'VIOLATED',
        at: at(3),
        reason: 'action "enable-ca-policy" goes to adapter "entra-ca" (at most 1 attempt(s), timeout 5000 ms)',
      },
      {
        policy_id: 'mfa-admins',
        event: 'transition',
        phase: 'enforce',
        from: 'VIOLATED',
        to: 'ENFORCING',
        at: at(4),
        reason: 'enforcement starts with adapter "entra-ca"',
      },
      {
        policy_id: 'mfa-admins',
        event: 'step',
        phase: 'enforce',
        from: 'ENFORCING',
        to: 'ENFORCING',
        at: at(5),
        reason: 'attempt 1: adapter "entra-ca" changed something: enabled "Require MFA for admins"',
        attempt: 1,
      },
      {
        policy_id: 'mfa-admins',
        event: 'transition',
        phase: 'verify',
        from: 'ENFORCING',
        to: 'REMEDIATED',
        at: at(6),
        reason: 'verified on attempt 1: condition no longer holds for KSI-IA-02 (status PASS)',
        attempt: 1,
      },
    ];
    expect(report.outcomes[0]).toEqual({
      policy_id: 'mfa-admins',
      target: 'KSI-IA-02',
      ksi_id: 'KSI-IA-02',
      mode: 'enforce',
      state: 'REMEDIATED',
      reason: 'verified on attempt 1: condition no longer holds for KSI-IA-02 (status PASS)',
      adapter: 'entra-ca',
      attempts: 1,
      changed: true,
      audit: expected,
    });
    expect(report.audit).toEqual(expected);
    expect(report.summary).toEqual({
      total: 1,
      counts: { EVALUATING: 0, COMPLIANT: 0, VIOLATED: 0, ENFORCING: 0, REMEDIATED: 1, FAILED: 0 },
      dry_run: 0,
      attempts: 1,
      started_at: at(0),
      finished_at: at(7),
    });
    expect(adapter.calls).toHaveLength(1);
    const [call] = adapter.calls;
    expect([call.attempt, call.action, call.result, call.signal.aborted]).toEqual([1, policy().action, result('KSI-IA-02', 'FAIL'), true]);
    expect(call.signal.reason).toBe('settled');
  });

  it('tries max_attempts rounds while verification still finds the policy violated, then ends FAILED', async () => {
    let n = 0;
    const stubborn = new ScriptedAdapter('stubborn', ['enable-ca-policy'], (c) => ({ changed: true, after: { ...c.result, evidence: { round: ++n } } }));
    const report = await runtime([stubborn]).runtime.run({ policies: [policy({ max_attempts: 3 })], results: [result('KSI-IA-02', 'FAIL')] });
    const [outcome] = report.outcomes;
    expect([outcome.state, outcome.reason, outcome.attempts, outcome.changed]).toEqual([
      'FAILED',
      'still violated after 3 attempt(s): condition holds for KSI-IA-02 (status FAIL)',
      3,
      true,
    ]);
    expect(stubborn.calls.map((c) => [c.attempt, c.result.evidence])).toEqual([
      [1, undefined],
      [2, { round: 1 }],
      [3, { round: 2 }],
    ]);
    expect(outcome.audit.slice(4).map((r) => [r.event, r.phase, r.from, r.to, r.attempt, r.reason])).toEqual([
      ['step', 'enforce', 'ENFORCING', 'ENFORCING', 1, 'attempt 1: adapter "stubborn" changed something'],
      ['step', 'verify', 'ENFORCING', 'ENFORCING', 1, 'attempt 1: condition still holds for KSI-IA-02 (status FAIL); trying again'],
      ['step', 'enforce', 'ENFORCING', 'ENFORCING', 2, 'attempt 2: adapter "stubborn" changed something'],
      ['step', 'verify', 'ENFORCING', 'ENFORCING', 2, 'attempt 2: condition still holds for KSI-IA-02 (status FAIL); trying again'],
      ['step', 'enforce', 'ENFORCING', 'ENFORCING', 3, 'attempt 3: adapter "stubborn" changed something'],
      ['transition', 'verify', 'ENFORCING', 'FAILED', 3, 'still violated after 3 attempt(s): condition holds for KSI-IA-02 (status FAIL)'],
    ]);
    expect(report.summary.attempts).toBe(3);
  });

  it('ends REMEDIATED on a later attempt when verification then passes', async () => {
    const slow = new ScriptedAdapter('slow', ['enable-ca-policy'], (c) => ({
      changed: c.attempt === 2,
      after: { ...c.result, status: c.attempt === 2 ? 'PASS' : 'FAIL' },
    }));
    const [outcome] = (await runtime([slow]).runtime.run({ policies: [policy({ max_attempts: 5 })], results: [result('KSI-IA-02', 'FAIL')] })).outcomes;
    expect([outcome.state, outcome.reason, outcome.attempts]).toEqual([
      'REMEDIATED',
      'verified on attempt 2: condition no longer holds for KSI-IA-02 (status PASS)',
      2,
    ]);
  });

  it('stops a dry run at the plan: VIOLATED, adapter never called', async () => {
    const adapter = fixer();
    const report = await runtime([adapter]).runtime.run({
      policies: [policy({ mode: 'dry-run' }), policy({ id: 'other', mode: 'dry-run', action: { name: 'disable-legacy-auth' } })],
      results: [result('KSI-IA-02', 'FAIL')],
    });
    expect(adapter.calls).toEqual([]);
    expect(report.outcomes.map((o) => [o.state, o.reason, o.adapter, o.attempts])).toEqual([
      ['VIOLATED', 'dry run: would run action "enable-ca-policy" with adapter "entra-ca"', 'entra-ca', 0],
      ['VIOLATED', 'dry run: no adapter handles action "disable-legacy-auth"; an enforce run would end FAILED', 'no-op', 0],
    ]);
    expect(report.outcomes[0].audit.map((r) => [r.event, r.phase, r.from, r.to])).toEqual([
      ['enter', 'load', null, 'EVALUATING'],
      ['transition', 'evaluate', 'EVALUATING', 'VIOLATED'],
      ['step', 'plan', 'VIOLATED', 'VIOLATED'],
    ]);
    expect(report.summary.counts.VIOLATED).toBe(2);
    expect(report.summary.dry_run).toBe(2);
  });

  it('falls back to the no-op adapter when none handles the action: nothing changes, FAILED "no adapter"', async () => {
    const other = fixer('other', ['something-else']);
    // Even when a re-read says PASS, a policy no adapter enforced is never REMEDIATED.
    const report = await runtime([other], { resultAfter: async () => result('KSI-IA-02', 'PASS') }).runtime.run({
      policies: [policy()],
      results: [result('KSI-IA-02', 'FAIL')],
    });
    const [outcome] = report.outcomes;
    expect(other.calls).toEqual([]);
    expect([outcome.state, outcome.reason, outcome.adapter, outcome.attempts, outcome.changed]).toEqual(['FAILED', 'no adapter', 'no-op', 1, false]);
    expect(outcome.audit.slice(2).map((r) => [r.event, r.phase, r.from, r.to, r.reason])).toEqual([
      ['step', 'plan', 'VIOLATED', 'VIOLATED', 'no adapter handles action "enable-ca-policy"; the no-op adapter stands in'],
      ['transition', 'enforce', 'VIOLATED', 'ENFORCING', 'enforcement starts with adapter "no-op"'],
      [
        'step',
        'enforce',
        'ENFORCING',
        'ENFORCING',
        'attempt 1: adapter "no-op" changed nothing: no adapter handles action "enable-ca-policy"; nothing was changed',
      ],
      ['transition', 'enforce', 'ENFORCING', 'FAILED', 'no adapter'],
    ]);
  });

  it('fails only the policy whose adapter throws; the others go on', async () => {
    const broken = new ScriptedAdapter('broken', ['break'], () => {
      throw new Error('Graph said 403\nInsufficient privileges');
    });
    const report = await runtime([broken, fixer()], { concurrency: 2 }).runtime.run({
      policies: [policy({ id: 'a' }), policy({ id: 'b', action: { name: 'break' } }), policy({ id: 'c' })],
      results: [result('KSI-IA-02', 'FAIL')],
    });
    expect(report.outcomes.map((o) => [o.policy_id, o.state, o.reason])).toEqual([
      ['a', 'REMEDIATED', 'verified on attempt 1: condition no longer holds for KSI-IA-02 (status PASS)'],
      ['b', 'FAILED', 'adapter "broken" threw on attempt 1: Graph said 403 Insufficient privileges'],
      ['c', 'REMEDIATED', 'verified on attempt 1: condition no longer holds for KSI-IA-02 (status PASS)'],
    ]);
    expect(report.summary.counts).toEqual({ EVALUATING: 0, COMPLIANT: 0, VIOLATED: 0, ENFORCING: 0, REMEDIATED: 2, FAILED: 1 });
  });

  it('times out a policy: FAILED "timed out after N ms", the adapter sees its signal abort, late work is ignored', async () => {
    let called!: () => void;
    const started = new Promise<void>((resolve) => (called = resolve));
    let finish!: (r: EnforcementAdapterResult) => void;
    const hanging = new ScriptedAdapter('hanging', ['enable-ca-policy'], (c) => {
      called();
      return new Promise<EnforcementAdapterResult>((resolve) => {
        finish = resolve;
        c.signal.addEventListener('abort', () => undefined);
      });
    });
    const { timer, runtime: run } = runtime([hanging, fixer('fast', ['fast'])]);
    const running = run.run({
      policies: [policy({ timeout_ms: 5000, max_attempts: 2 }), policy({ id: 'quick', action: { name: 'fast' } })],
      results: [result('KSI-IA-02', 'FAIL')],
    });
    await started;
    expect(timer.requested).toEqual([5000, 30000]);
    timer.advance(4999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(hanging.calls[0].signal.aborted).toBe(false);
    timer.advance(1);
    const report = await running;
    const [outcome, quick] = report.outcomes;
    expect([outcome.state, outcome.reason, outcome.attempts]).toEqual(['FAILED', 'timed out after 5000 ms', 1]);
    expect(hanging.calls[0].signal.aborted).toBe(true);
    expect((hanging.calls[0].signal.reason as Error).message).toBe('timed out after 5000 ms');
    expect(outcome.audit.at(-1)).toEqual({
      policy_id: 'mfa-admins',
      event: 'transition',
      phase: 'enforce',
      from: 'ENFORCING',
      to: 'FAILED',
      at: '2026-11-20T12:00:00.000Z',
      reason: 'timed out after 5000 ms',
      attempt: 1,
    });
    expect(quick.state).toBe('REMEDIATED');
    const records = outcome.audit.length;
    finish({ changed: true, after: result('KSI-IA-02', 'PASS') });
    await new Promise((resolve) => setImmediate(resolve));
    expect([outcome.audit.length, outcome.state, outcome.changed, hanging.calls.length]).toEqual([records, 'FAILED', false, 1]);
    expect(timer.sleepers.size).toBe(0);
  });

  it('keeps at most `concurrency` policies in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const adapter = new ScriptedAdapter('counting', ['enable-ca-policy'], async (c) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return { changed: true, after: { ...c.result, status: 'PASS' } };
    });
    const policies = Array.from({ length: 40 }, (_, i) => policy({ id: `p${i}` }));
    const report = await runtime([adapter], { concurrency: 4 }).runtime.run({ policies, results: [result('KSI-IA-02', 'FAIL')] });
    expect(most).toBe(4);
    expect(adapter.calls).toHaveLength(40);
    expect(report.summary.counts.REMEDIATED).toBe(40);
  });

  it('runs 10,000 policies over 1,000 results with the right summary (its time is measured by npm run bench, not here)', async () => {
    // 1,000 distinct ids: ten two-letter areas (AA, BB, ...) x 100 numbers.
    const ids = Array.from({ length: 1000 }, (_, i) => `KSI-${String.fromCharCode(65 + Math.floor(i / 100)).repeat(2)}-${String(i % 100).padStart(2, '0')}`);
    const results = ids.map((id, i) => result(id, i % 2 === 0 ? 'FAIL' : 'PASS', { drift: i % 3 }));
    const policies = Array.from({ length: 10_000 }, (_, i): EPLPolicy => {
      const kind = i % 4;
      return policy({
        id: `p-${i}`,
        target: i % 10 === 9 ? `KSI-ZZ-${String(i % 100).padStart(2, '0')}` : ids[i % 1000],
        mode: kind === 3 ? 'dry-run' : 'enforce',
        action: { name: kind === 2 ? 'unhandled' : 'enable-ca-policy' },
        condition: { any: [{ status_in: ['FAIL'] }, { evidence: { path: 'drift', op: '>', value: 1 } }] },
      });
    });
    const adapter = new ScriptedAdapter('fixer', ['enable-ca-policy'], (c) => ({
      changed: true,
      after: { ...c.result, status: 'PASS', evidence: { drift: 0 } },
    }));
    const report = await runtime([adapter], { concurrency: 16 }).runtime.run({ policies, results });

    // Count the expected outcomes the slow, obvious way.
    const byId = new Map(results.map((r) => [r.ksi_id, r]));
    const expected = { EVALUATING: 0, COMPLIANT: 0, VIOLATED: 0, ENFORCING: 0, REMEDIATED: 0, FAILED: 0 };
    let attempts = 0;
    policies.forEach((p, i) => {
      const r = byId.get(p.target);
      if (!r) return expected.EVALUATING++;
      const violated = r.status === 'FAIL' || (r.evidence?.drift as number) > 1;
      if (!violated) return expected.COMPLIANT++;
      if (p.mode === 'dry-run') return expected.VIOLATED++;
      attempts++;
      return i % 4 === 2 ? expected.FAILED++ : expected.REMEDIATED++;
    });
    expect(report.summary.total).toBe(10_000);
    expect(report.summary.counts).toEqual(expected);
    expect(report.summary.attempts).toBe(attempts);
    expect(report.summary.dry_run).toBe(2500);
    expect(expected).toEqual({ EVALUATING: 1000, COMPLIANT: 2670, VIOLATED: 670, ENFORCING: 0, REMEDIATED: 3160, FAILED: 2500 });
    expect(report.outcomes.map((o) => o.policy_id)).toEqual(policies.map((p) => p.id));
  });

  it('leaves a policy without a result for its KSI in EVALUATING, counted as not evaluated', async () => {
    const report = await runtime([fixer()]).runtime.run({
      policies: [policy({ target: 'KSI-SC-07' }), policy({ id: 'ctl', target: 'sc-7.3' })],
      results: [result('KSI-IA-02', 'FAIL')],
    });
    expect(report.outcomes.map((o) => [o.ksi_id, o.state, o.reason, o.audit.length])).toEqual([
      ['KSI-SC-07', 'EVALUATING', 'not evaluated: no result for KSI-SC-07', 2],
      ['KSI-SC-07', 'EVALUATING', 'not evaluated: no result for KSI-SC-07 (control sc-7.3)', 2],
    ]);
    expect(report.outcomes[0].audit[1]).toEqual({
      policy_id: 'mfa-admins',
      event: 'step',
      phase: 'evaluate',
      from: 'EVALUATING',
      to: 'EVALUATING',
      at: AT,
      reason: 'not evaluated: no result for KSI-SC-07',
    });
    expect(report.summary.counts.EVALUATING).toBe(2);
  });

  it('finds the KSI of a control target by the catalog rule, or through controlToKsi', async () => {
    const results = [result('KSI-AC-02', 'FAIL'), result('KSI-IAM-01', 'FAIL')];
    const byRule = await runtime([]).runtime.run({ policies: [policy({ target: 'ac-2.4', mode: 'dry-run' })], results });
    expect([byRule.outcomes[0].ksi_id, byRule.outcomes[0].reason]).toEqual([
      'KSI-AC-02',
      'dry run: no adapter handles action "enable-ca-policy"; an enforce run would end FAILED',
    ]);
    expect(byRule.outcomes[0].audit[1].reason).toBe('condition holds for KSI-AC-02 (control ac-2.4) (status FAIL)');
    const mapped = await runtime([], { controlToKsi: (c) => (c === 'ia-2' ? 'KSI-IAM-01' : undefined) }).runtime.run({
      policies: [policy({ target: 'ia-2', mode: 'dry-run' }), policy({ id: 'x', target: 'zz-9' })],
      results,
    });
    expect(mapped.outcomes.map((o) => [o.ksi_id, o.state, o.reason])).toEqual([
      ['KSI-IAM-01', 'VIOLATED', 'dry run: no adapter handles action "enable-ca-policy"; an enforce run would end FAILED'],
      [null, 'EVALUATING', 'not evaluated: no KSI covers control zz-9'],
    ]);
  });

  it('verifies through resultAfter when the adapter reports no result, and fails when it cannot verify', async () => {
    const silent = new ScriptedAdapter('silent', ['enable-ca-policy', 'other'], () => ({ changed: true }));
    const reads: Array<[string, string, number, boolean]> = [];
    const { runtime: withHook } = runtime([silent], {
      resultAfter: async (ksi, { policy: p, attempt, signal }) => {
        reads.push([ksi, p.id, attempt, signal.aborted]);
        if (p.id === 'gone') return undefined;
        if (p.id === 'throws') throw new Error('store unreachable');
        if (p.id === 'wrong') return result('KSI-AC-02', 'PASS');
        return result(ksi, 'PASS');
      },
    });
    const report = await withHook.run({ policies: ['ok', 'gone', 'throws', 'wrong'].map((id) => policy({ id })), results: [result('KSI-IA-02', 'FAIL')] });
    expect(report.outcomes.map((o) => [o.policy_id, o.state, o.reason])).toEqual([
      ['ok', 'REMEDIATED', 'verified on attempt 1: condition no longer holds for KSI-IA-02 (status PASS)'],
      ['gone', 'FAILED', 'not verified: resultAfter has no result for KSI-IA-02 after attempt 1'],
      ['throws', 'FAILED', 'not verified: resultAfter threw on attempt 1: store unreachable'],
      ['wrong', 'FAILED', 'not verified: the result after attempt 1 is for "KSI-AC-02", not KSI-IA-02'],
    ]);
    expect(reads).toEqual([
      ['KSI-IA-02', 'ok', 1, false],
      ['KSI-IA-02', 'gone', 1, false],
      ['KSI-IA-02', 'throws', 1, false],
      ['KSI-IA-02', 'wrong', 1, false],
    ]);
    const without = await runtime([silent]).runtime.run({ policies: [policy()], results: [result('KSI-IA-02', 'FAIL')] });
    expect([without.outcomes[0].state, without.outcomes[0].reason, without.outcomes[0].changed]).toEqual([
      'FAILED',
      'not verified: adapter "silent" reported no result after attempt 1 and no resultAfter hook is set',
      true,
    ]);
  });

  it('gives the action to the first adapter that handles it, skipping one whose canHandle throws', async () => {
    const throwing: EnforcementAdapter = {
      name: 'flaky',
      canHandle: () => {
        throw new Error('not configured');
      },
      enforce: async () => ({ changed: false }),
    };
    const first = fixer('first');
    const second = fixer('second');
    const report = await runtime([throwing, first, second]).runtime.run({ policies: [policy()], results: [result('KSI-IA-02', 'FAIL')] });
    expect([report.outcomes[0].adapter, first.calls.length, second.calls.length]).toEqual(['first', 1, 0]);
    expect(report.outcomes[0].audit[2].reason).toBe(
      'action "enable-ca-policy" goes to adapter "first" (at most 1 attempt(s), timeout 30000 ms) (adapter "flaky" threw in canHandle: not configured)',
    );
  });

  it('streams every record to onAudit in the order of the trail', async () => {
    const seen: EnforcementAuditRecord[] = [];
    const report = await runtime([fixer()], { onAudit: (r) => seen.push(r) }).runtime.run({
      policies: [policy(), policy({ id: 'b', mode: 'dry-run' })],
      results: [result('KSI-IA-02', 'FAIL')],
    });
    expect(seen).toEqual(report.audit);
    expect(seen).toHaveLength(6 + 3);
    expect(seen.slice(0, 2).map((r) => [r.policy_id, r.event])).toEqual([
      ['mfa-admins', 'enter'],
      ['b', 'enter'],
    ]);
  });

  it('refuses an invalid policy document or results before evaluating anything', async () => {
    const adapter = fixer();
    const { runtime: run } = runtime([adapter]);
    await expect(run.run({ policies: [policy({ mode: 'force' as never })], results: [], source: 'ca.json' })).rejects.toThrow(
      new InvalidInputError(
        'invalid-epl-policy',
        'ca.json: policies[0].mode: expected "enforce" or "dry-run", got "force" (policy "mfa-admins"); write "enforce", or "dry-run" to plan without changing anything',
      ),
    );
    await expect(run.run({ policies: [policy()], results: [result('KSI-IA-02', 'FAIL'), result('KSI-IA-02', 'PASS')] })).rejects.toThrow(
      'results: results[1].ksi_id: duplicate "KSI-IA-02" (first at results[0]); keep one result per KSI, or merge several reports with "svc evidence build"',
    );
    expect(adapter.calls).toEqual([]);
  });

  it('runs an empty batch', async () => {
    const report = await runtime([]).runtime.run({ policies: [], results: [] });
    expect(report).toEqual({
      outcomes: [],
      audit: [],
      summary: {
        total: 0,
        counts: { EVALUATING: 0, COMPLIANT: 0, VIOLATED: 0, ENFORCING: 0, REMEDIATED: 0, FAILED: 0 },
        dry_run: 0,
        attempts: 0,
        started_at: AT,
        finished_at: AT,
      },
    });
  });

  it.each<[string, Partial<EnforcementRuntimeOptions>, string]>([
    ['concurrency 0', { concurrency: 0 }, 'EnforcementRuntime: concurrency: expected a whole number of at least 1, got number 0; pass e.g. 8 or leave it out'],
    [
      'concurrency 2.5',
      { concurrency: 2.5 },
      'EnforcementRuntime: concurrency: expected a whole number of at least 1, got number 2.5; pass e.g. 8 or leave it out',
    ],
    [
      'adapters not an array',
      { adapters: undefined as never },
      'EnforcementRuntime: adapters: expected an array, got nothing; pass [] when there is none (every action then ends FAILED "no adapter")',
    ],
    ['no timer', { timer: undefined as never }, 'EnforcementRuntime: timer: missing; pass a Timer, or use createEnforcementRuntime for the system timer'],
  ])('refuses options with %s', (_name, options, message) => {
    expect(() => new EnforcementRuntime({ adapters: [], timer: new FakeTimer(), ...options })).toThrow(
      new InvalidInputError('invalid-enforcement-options', message),
    );
  });

  it('uses the timer as its clock when no clock is given', async () => {
    const timer = new FakeTimer(new Date('2027-01-02T03:04:05Z'));
    const report = await new EnforcementRuntime({ adapters: [], timer }).run({ policies: [policy()], results: [result('KSI-IA-02', 'PASS')] });
    expect(report.audit.map((r) => r.at)).toEqual(['2027-01-02T03:04:05.000Z', '2027-01-02T03:04:05.000Z']);
  });
});
