import type { EnforcementAuditRecord, AuditEvent } from '../../domain/enforcement/enforcement-audit-record';
import { summarize, type EnforcementOutcome, type EnforcementSummary } from '../../domain/enforcement/enforcement-outcome';
import { EnforcementPhase } from '../../domain/enforcement/enforcement-phase';
import { EnforcementState } from '../../domain/enforcement/enforcement-state';
import { transition } from '../../domain/enforcement/enforcement-transition';
import { evaluateCondition } from '../../domain/enforcement/epl-condition';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_MS, validatePolicies, type EnforcementAction, type EPLPolicy } from '../../domain/enforcement/epl-policy';
import { baseControl, ksiIdForControl } from '../../domain/catalog/ksi-catalog';
import { InvalidInputError } from '../../domain/errors';
import { KSI_ID_PATTERN, readNormalizedReport, type KsiResult } from '../../domain/ksi/ksi-result';
import { describe } from '../../domain/encoding/json-values';
import type { Clock } from '../../ports/clock';
import type { EnforcementAdapter, EnforcementAdapterResult } from '../../ports/enforcement-adapter';
import type { Timer } from '../../ports/timer';
import { NoOpEnforcementAdapter } from './no-op-enforcement-adapter';

/** Re-reads a KSI result after an enforce attempt, when the adapter did not report it (`after`). */
export type ResultAfter = (ksiId: string, context: { policy: EPLPolicy; attempt: number; signal: AbortSignal }) => Promise<KsiResult | undefined>;

export interface EnforcementRuntimeOptions {
  /** Asked in order; the first whose canHandle(action) is true enforces it. */
  adapters: readonly EnforcementAdapter[];
  /** Time-outs (sleep with an abort signal); also the clock when `clock` is not given. */
  timer: Timer;
  /** Times of the audit trail (ISO-8601). Default: the timer. */
  clock?: Clock;
  /** Policies worked on at once; a whole number from 1, default 8. */
  concurrency?: number;
  /** Verification source when an adapter returns no `after` result. */
  resultAfter?: ResultAfter;
  /** The KSI that covers a control target. Default: the built-in catalog rule, base control `ac-2` → `KSI-AC-02` (DESIGN §4). */
  controlToKsi?: (control: string) => string | undefined;
  /** Called with each audit record as it is made (to stream the trail to a log or a SIEM); must not throw. */
  onAudit?: (record: EnforcementAuditRecord) => void;
}

export interface EnforcementRunInput {
  /** EPLPolicy[] or a policy document (`[...]` or `{"policies": [...]}`), checked in the load phase. */
  policies: unknown;
  /** At most one result per KSI (the shape of a normalized report's `results`, DESIGN §3). */
  results: readonly KsiResult[];
  /** Names the policies in error messages and in the audit trail (a file name). Default "policies". */
  source?: string;
}

export interface EnforcementReport {
  /** One per policy, in the order of the policies. */
  outcomes: EnforcementOutcome[];
  summary: EnforcementSummary;
  /** Every record of every policy, in the order recorded (policies run concurrently interleave). */
  audit: EnforcementAuditRecord[];
}

export const DEFAULT_CONCURRENCY = 8;

type Ending = { to: 'REMEDIATED' | 'FAILED'; phase: EnforcementPhase; reason: string; attempt: number };

const TIMED_OUT = Symbol('timed out');
/** The abort reason once a policy's enforcement has ended; a value, because abort() without one builds a DOMException with a stack. */
const SETTLED = 'settled';

/**
 * Runs the five phases over a batch of policies: load and validate them, evaluate each against its KSI result,
 * plan (dry-run policies stop here), enforce through an adapter, verify by re-evaluating after enforcement.
 * Each policy follows the state table of SPEC "States and transitions"; every transition and step is recorded
 * in the audit trail. An adapter that throws or runs out of time fails its policy only.
 *
 * run() throws InvalidInputError for an invalid policy document (`invalid-epl-policy`) or results
 * (`invalid-report`); everything that happens to a valid policy is an outcome.
 */
export class EnforcementRuntime {
  private readonly adapters: readonly EnforcementAdapter[];
  private readonly timer: Timer;
  private readonly clock: Clock;
  private readonly concurrency: number;
  private readonly fallback = new NoOpEnforcementAdapter();
  private lastTime = NaN;
  private lastIso = '';

  constructor(private readonly options: EnforcementRuntimeOptions) {
    const fail = (field: string, problem: string, fix: string): never => {
      throw new InvalidInputError('invalid-enforcement-options', `EnforcementRuntime: ${field}: ${problem}; ${fix}`);
    };
    if (!Array.isArray(options.adapters))
      fail('adapters', `expected an array, got ${describe(options.adapters)}`, 'pass [] when there is none (every action then ends FAILED "no adapter")');
    if (typeof options.timer?.sleep !== 'function') fail('timer', 'missing', 'pass a Timer, or use createEnforcementRuntime for the system timer');
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!(Number.isInteger(concurrency) && concurrency >= 1))
      fail('concurrency', `expected a whole number of at least 1, got ${describe(options.concurrency)}`, `pass e.g. ${DEFAULT_CONCURRENCY} or leave it out`);
    this.adapters = options.adapters;
    this.timer = options.timer;
    this.clock = options.clock ?? options.timer;
    this.concurrency = concurrency;
  }

  async run(input: EnforcementRunInput): Promise<EnforcementReport> {
    const source = input.source ?? 'policies';
    const startedAt = this.now();
    // Phase 1: load and validate. A bad document stops the run before anything is evaluated.
    const policies = validatePolicies(input.policies, source);
    const results = readNormalizedReport(input.results, 'results', { arrayPath: 'results' }).results;
    const byKsi = new Map<string, KsiResult>();
    for (const result of results) byKsi.set(result.ksi_id, result);

    const audit: EnforcementAuditRecord[] = [];
    const outcomes = policies.map((policy) => this.load(policy, source, audit));
    let next = 0;
    const worker = async () => {
      while (next < policies.length) {
        const i = next++;
        await this.runPolicy(policies[i], outcomes[i], byKsi, audit);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, policies.length) }, worker));
    return { outcomes, summary: summarize(outcomes, startedAt, this.now()), audit };
  }

  private load(policy: EPLPolicy, source: string, audit: EnforcementAuditRecord[]): EnforcementOutcome {
    const outcome: EnforcementOutcome = {
      policy_id: policy.id,
      target: policy.target,
      ksi_id: this.ksiFor(policy.target) ?? null,
      mode: policy.mode,
      state: EnforcementState.EVALUATING,
      reason: '',
      attempts: 0,
      changed: false,
      audit: [],
    };
    this.record(outcome, audit, 'enter', EnforcementPhase.LOAD, null, `loaded from ${source}`);
    return outcome;
  }

  private async runPolicy(policy: EPLPolicy, outcome: EnforcementOutcome, byKsi: Map<string, KsiResult>, audit: EnforcementAuditRecord[]): Promise<void> {
    const move = (to: EnforcementState, phase: EnforcementPhase, reason: string, attempt?: number) => {
      const from = outcome.state;
      outcome.state = transition(policy.id, from, to);
      this.record(outcome, audit, 'transition', phase, from, reason, attempt);
    };
    const step = (phase: EnforcementPhase, reason: string, attempt?: number) => this.record(outcome, audit, 'step', phase, outcome.state, reason, attempt);
    const end = (reason: string) => {
      outcome.reason = reason;
    };

    // Phase 2: evaluate. Without a result there is nothing to evaluate: the policy stays EVALUATING.
    const ksiId = outcome.ksi_id;
    if (ksiId === null) {
      step(EnforcementPhase.EVALUATE, `not evaluated: no KSI covers control ${policy.target}`);
      return end(`not evaluated: no KSI covers control ${policy.target}`);
    }
    const via = ksiId === policy.target ? '' : ` (control ${policy.target})`;
    const result = byKsi.get(ksiId);
    if (result === undefined) {
      step(EnforcementPhase.EVALUATE, `not evaluated: no result for ${ksiId}${via}`);
      return end(`not evaluated: no result for ${ksiId}${via}`);
    }
    if (!evaluateCondition(policy.condition, result)) {
      const reason = `condition does not hold for ${ksiId}${via} (status ${result.status})`;
      move(EnforcementState.COMPLIANT, EnforcementPhase.EVALUATE, reason);
      return end(reason);
    }
    move(EnforcementState.VIOLATED, EnforcementPhase.EVALUATE, `condition holds for ${ksiId}${via} (status ${result.status})`);

    // Phase 3: plan.
    const { adapter, problems } = this.choose(policy.action);
    const chosen = adapter ?? this.fallback;
    outcome.adapter = chosen.name;
    const action = `action "${policy.action.name}"`;
    const maxAttempts = policy.max_attempts ?? DEFAULT_MAX_ATTEMPTS;
    const timeoutMs = policy.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const note = problems.length === 0 ? '' : ` (${problems.join('; ')})`;
    if (policy.mode === 'dry-run') {
      const reason = adapter
        ? `dry run: would run ${action} with adapter "${adapter.name}"${note}`
        : `dry run: no adapter handles ${action}; an enforce run would end FAILED${note}`;
      step(EnforcementPhase.PLAN, reason);
      return end(reason);
    }
    step(
      EnforcementPhase.PLAN,
      adapter
        ? `${action} goes to adapter "${adapter.name}" (at most ${maxAttempts} attempt(s), timeout ${timeoutMs} ms)${note}`
        : `no adapter handles ${action}; the no-op adapter stands in${note}`,
    );

    // Phases 4 and 5: enforce and verify, inside the policy's time-out.
    move(EnforcementState.ENFORCING, EnforcementPhase.ENFORCE, `enforcement starts with adapter "${chosen.name}"`);
    // One controller per policy (they are not cheap): the adapter's signal, which also cuts the time-out's sleep short.
    const abort = new AbortController();
    const live = () => !abort.signal.aborted;
    const work = this.enforce(policy, chosen, adapter === undefined, result, ksiId, maxAttempts, abort.signal, outcome, (phase, reason, attempt) => {
      if (live()) step(phase, reason, attempt);
    }).catch((error: unknown): Ending => ({
      to: 'FAILED',
      phase: EnforcementPhase.ENFORCE,
      reason: `enforcement failed: ${message(error)}`,
      attempt: outcome.attempts,
    }));
    const timeout = this.timer.sleep(timeoutMs, abort.signal).then((): typeof TIMED_OUT => TIMED_OUT);
    const ending = await Promise.race([work, timeout]);
    if (ending === TIMED_OUT) {
      const reason = `timed out after ${timeoutMs} ms`;
      abort.abort(new Error(reason));
      move(EnforcementState.FAILED, EnforcementPhase.ENFORCE, reason, outcome.attempts);
      return end(reason);
    }
    abort.abort(SETTLED);
    move(ending.to, ending.phase, ending.reason, ending.attempt);
    return end(ending.reason);
  }

  /** The enforce + verify rounds. Records and counts nothing once the policy has timed out (signal aborted). */
  private async enforce(
    policy: EPLPolicy,
    adapter: EnforcementAdapter,
    isFallback: boolean,
    evaluated: KsiResult,
    ksiId: string,
    maxAttempts: number,
    signal: AbortSignal,
    outcome: EnforcementOutcome,
    step: (phase: EnforcementPhase, reason: string, attempt?: number) => void,
  ): Promise<Ending> {
    const name = `adapter "${adapter.name}"`;
    let current = evaluated;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) return { to: 'FAILED', phase: EnforcementPhase.ENFORCE, reason: 'aborted', attempt };
      outcome.attempts = attempt;
      let reply: EnforcementAdapterResult | undefined;
      try {
        reply = await adapter.enforce({ policy, action: policy.action, result: current, attempt, signal });
      } catch (error) {
        return { to: 'FAILED', phase: EnforcementPhase.ENFORCE, reason: `${name} threw on attempt ${attempt}: ${message(error)}`, attempt };
      }
      if (signal.aborted) return { to: 'FAILED', phase: EnforcementPhase.ENFORCE, reason: 'aborted', attempt };
      const changed = reply?.changed === true;
      if (changed) outcome.changed = true;
      const detail = reply?.detail ? `: ${oneLine(reply.detail)}` : '';
      step(EnforcementPhase.ENFORCE, `attempt ${attempt}: ${name} ${changed ? 'changed something' : 'changed nothing'}${detail}`, attempt);
      if (isFallback) return { to: 'FAILED', phase: EnforcementPhase.ENFORCE, reason: 'no adapter', attempt };

      let after = reply?.after;
      const hook = this.options.resultAfter;
      if (after === undefined && hook !== undefined) {
        try {
          after = await hook(ksiId, { policy, attempt, signal });
        } catch (error) {
          return { to: 'FAILED', phase: EnforcementPhase.VERIFY, reason: `not verified: resultAfter threw on attempt ${attempt}: ${message(error)}`, attempt };
        }
        if (signal.aborted) return { to: 'FAILED', phase: EnforcementPhase.VERIFY, reason: 'aborted', attempt };
      }
      if (after === undefined) {
        const reason = hook
          ? `not verified: resultAfter has no result for ${ksiId} after attempt ${attempt}`
          : `not verified: ${name} reported no result after attempt ${attempt} and no resultAfter hook is set`;
        return { to: 'FAILED', phase: EnforcementPhase.VERIFY, reason, attempt };
      }
      if (after.ksi_id !== ksiId) {
        return {
          to: 'FAILED',
          phase: EnforcementPhase.VERIFY,
          reason: `not verified: the result after attempt ${attempt} is for ${describe(after.ksi_id)}, not ${ksiId}`,
          attempt,
        };
      }
      if (!evaluateCondition(policy.condition, after)) {
        return {
          to: 'REMEDIATED',
          phase: EnforcementPhase.VERIFY,
          reason: `verified on attempt ${attempt}: condition no longer holds for ${ksiId} (status ${after.status})`,
          attempt,
        };
      }
      if (attempt >= maxAttempts) {
        return {
          to: 'FAILED',
          phase: EnforcementPhase.VERIFY,
          reason: `still violated after ${attempt} attempt(s): condition holds for ${ksiId} (status ${after.status})`,
          attempt,
        };
      }
      step(EnforcementPhase.VERIFY, `attempt ${attempt}: condition still holds for ${ksiId} (status ${after.status}); trying again`, attempt);
      current = after;
    }
  }

  private choose(action: EnforcementAction): { adapter?: EnforcementAdapter; problems: string[] } {
    const problems: string[] = [];
    for (const adapter of this.adapters) {
      try {
        if (adapter.canHandle(action)) return { adapter, problems };
      } catch (error) {
        problems.push(`adapter "${adapter.name}" threw in canHandle: ${message(error)}`);
      }
    }
    return { problems };
  }

  private ksiFor(target: string): string | undefined {
    if (KSI_ID_PATTERN.test(target)) return target;
    return this.options.controlToKsi ? this.options.controlToKsi(target) : ksiIdForControl(baseControl(target));
  }

  private record(
    outcome: EnforcementOutcome,
    audit: EnforcementAuditRecord[],
    event: AuditEvent,
    phase: EnforcementPhase,
    from: EnforcementState | null,
    reason: string,
    attempt?: number,
  ): void {
    const record: EnforcementAuditRecord = { policy_id: outcome.policy_id, event, phase, from, to: outcome.state, at: this.now(), reason };
    if (attempt !== undefined) record.attempt = attempt;
    outcome.audit.push(record);
    audit.push(record);
    this.options.onAudit?.(record);
  }

  /** ISO time of the clock; the string is reused while the clock reads the same millisecond. */
  private now(): string {
    const time = this.clock.now();
    const ms = time.getTime();
    if (ms !== this.lastTime) {
      this.lastTime = ms;
      this.lastIso = time.toISOString();
    }
    return this.lastIso;
  }
}

function message(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

function oneLine(text: string): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}
