import type { Applicability, ApplicableKsi, ApplicableRule, EffectiveState } from './applicability';
import type { Cr26Force } from './cr26-rules';
import { cadenceText, type EvidenceCadence } from './evidence-cadence';
import type { Cr26KsiStatus, HistoryCheck } from './ksi-evaluation';
import { HISTORY_RULE, METHODS_RULE } from './prose-facts';
import { reliedRule } from './relied-rules';
import type { RuleJudgment } from './rule-judgments';
import type { FreshnessCounts } from './run-facts';
import type { ProviderStatement } from './statements';
import { plural } from '../encoding/plural';

/** Where one applicable rule or KSI stands (DESIGN §12.3, `fedramp readiness`). */
export type ReadinessStatus = 'met' | 'not_met' | 'needs_statement' | 'not_yet_required';

export const READINESS_STATUSES: readonly ReadinessStatus[] = ['met', 'not_met', 'needs_statement', 'not_yet_required'];

/** The rule that makes the KSIs apply to 20x Classes B–D (Class A's are named by FRC-CLA-MFR, their `via`). */
export const KSI_RULE = reliedRule('SDR-CSX-KSI');

/** One applicable rule or KSI, judged. */
export interface ReadinessItem {
  id: string;
  kind: 'rule' | 'ksi';
  force?: Cr26Force;
  effective: EffectiveState;
  status: ReadinessStatus;
  /** Why it is not met, needs a statement or is not yet required. */
  why?: string;
  /** What to do about it. */
  todo?: string;
  /** not_yet_required: the date it is required from (absent while FedRAMP has not defined it for the class). */
  from?: string;
  /** What does not change the status but should be seen (a SHOULD not met, a generated KSI statement). */
  warnings?: string[];
}

/** What one run says of one applicable KSI. */
export interface ReadinessKsiFacts {
  id: string;
  /** From the run (DESIGN §12.2); absent when no result reaches it. */
  status?: Cr26KsiStatus;
  /** The contributing results by status. */
  results: { pass: number; fail: number; other: number };
  /** The contributing results' evidence against the class cadences. */
  freshness: { machine: FreshnessCounts; nonMachine: FreshnessCounts };
  /** Automated methods, and FRC-CSX-VVK's minimum for the class (none for Class A). */
  methods: number;
  methodsRequired?: { min: number; force?: Cr26Force };
  /** FRC-CSX-MOT's check of its recorded history. */
  history?: HistoryCheck;
}

export interface ReadinessInput {
  found: Pick<Applicability, 'rules' | 'ksis' | 'recommended' | 'optional'>;
  /** The run judged (the run store's latest); undefined when none is recorded. */
  run?: { seq: number; asOf: string; results: number };
  /** Where the run store is, for messages. */
  store: string;
  /** svc's own judgments (judgeRules); with no run, those it made from no results are not met. */
  judgments: ReadonlyMap<string, RuleJudgment>;
  /** The provider's statements: the file the profile names (undefined when it names none) and the statements by CR26 id. */
  statements: { file?: string; byId: ReadonlyMap<string, Pick<ProviderStatement, 'line' | 'implementation' | 'status'>> };
  /** Per applicable KSI, from the run (ignored when there is none). */
  ksis: readonly ReadinessKsiFacts[];
  /** A kind without a cadence (the release lacks its rule) is not judged for freshness. */
  cadences: { machine?: EvidenceCadence; nonMachine?: EvidenceCadence };
}

export type ReadinessCounts = { total: number } & Record<ReadinessStatus, number>;

/** A Class A rule FRC-CLA-RFR recommends or FRC-CLA-OFR leaves optional: listed with its force, never judged. */
export interface ReadinessApart {
  id: string;
  force?: Cr26Force;
  effective: EffectiveState;
}

export interface Readiness {
  rules: ReadinessItem[];
  ksis: ReadinessItem[];
  recommended: ReadinessApart[];
  optional: ReadinessApart[];
  counts: { rules: ReadinessCounts; ksis: ReadinessCounts };
  /** Ids of the MUST and MUST NOT rules and KSIs in force that are not met or need a statement: any, and readiness exits 1. */
  mustNotMet: string[];
}

const NO_RUN_TODO = 'record a run: svc conmon process <report>';
const RERUN_TODO = 'run the scans again and record the run (svc ir freshness --class lists them)';

/**
 * Readiness for a certification (DESIGN §12.3): every applicable rule and KSI with exactly one status.
 * - A rule `required_from` a later date is not_yet_required from that date; one FedRAMP has not yet defined for the
 *   class (a pilot) is not_yet_required without a date, the reason naming the pilot.
 * - A rule svc judges (judgeRules) is met or not met by that judgment; with no run recorded, not met.
 * - Any other rule needs the provider's statement: with implementation text it is met, unless its `### Status` says
 *   Partially Implemented, Not Implemented or Planned (not met, the provider's word as the reason); Not Applicable
 *   is met with a warning (the assessor decides); without one it needs a statement.
 * - A KSI (20x) takes the force and date of the rule that makes it apply (SDR-CSX-KSI, or FRC-CLA-MFR for Class A). It
 *   is met when the run gives it Implemented, every contributing result is fresh by the class cadence, it has
 *   FRC-CSX-VVK's automated methods and FRC-CSX-MOT's history, each where that rule is a MUST in force (else a
 *   shortfall is a warning); otherwise not met with every reason. A KSI without a provider statement gets a warning.
 * The Class A recommended and optional rules are listed apart, never judged.
 */
export function judgeReadiness(input: ReadinessInput): Readiness {
  const rules = input.found.rules.map((r) => judgeRule(r, input));
  const ksis = input.found.ksis.map((k) => judgeKsi(k, input));
  const apart = (list: ApplicableRule[]) => list.map((r) => ({ id: r.rule.id, ...(r.force === undefined ? {} : { force: r.force }), effective: r.effective }));
  return {
    rules,
    ksis,
    recommended: apart(input.found.recommended),
    optional: apart(input.found.optional),
    counts: { rules: countOf(rules), ksis: countOf(ksis) },
    mustNotMet: [...rules, ...ksis].filter(blocks).map((item) => item.id),
  };
}

/** Whether an item keeps the offering from being ready: a MUST (or MUST NOT) in force that is not met or needs a statement. */
export function blocks(item: Pick<ReadinessItem, 'force' | 'effective' | 'status'>): boolean {
  return (
    (item.force === 'MUST' || item.force === 'MUST NOT') &&
    item.effective.state === 'in_force' &&
    (item.status === 'not_met' || item.status === 'needs_statement')
  );
}

function judgeRule(applicable: ApplicableRule, input: ReadinessInput): ReadinessItem {
  const id = applicable.rule.id;
  const base = { id, kind: 'rule' as const, ...(applicable.force === undefined ? {} : { force: applicable.force }), effective: applicable.effective };
  const later = notYet(applicable.effective);
  if (later !== undefined) return { ...base, ...later };
  const judgment = input.judgments.get(id);
  if (judgment !== undefined) {
    if (input.run === undefined) return { ...base, status: 'not_met', why: `no run recorded in ${input.store}`, todo: NO_RUN_TODO };
    if (judgment.met) return { ...base, status: 'met' };
    return {
      ...base,
      status: 'not_met',
      ...(judgment.why === undefined ? {} : { why: judgment.why }),
      ...(judgment.todo === undefined ? {} : { todo: judgment.todo }),
    };
  }
  const { file } = input.statements;
  const statement = input.statements.byId.get(id);
  if (statement === undefined) return { ...base, status: 'needs_statement', why: 'no provider statement', todo: writeStatement(id, file) };
  if (statement.implementation.length === 0) {
    return {
      ...base,
      status: 'needs_statement',
      why: `## ${id} (${file}:${statement.line}) has no implementation text`,
      todo: `write how the rule is met under ## ${id} in ${file}`,
    };
  }
  const status = statement.status;
  if (status === undefined || status.value === 'Implemented') return { ...base, status: 'met' };
  if (status.value === null)
    return { ...base, status: 'met', warnings: [`the provider's status is ${status.written}; the assessor decides whether the rule applies`] };
  return {
    ...base,
    status: 'not_met',
    why: `the provider's status is ${status.written}`,
    todo: `implement it, then update ### Status under ## ${id} in ${file}`,
  };
}

function judgeKsi(applicable: ApplicableKsi, input: ReadinessInput): ReadinessItem {
  const id = applicable.ksi.id;
  const byRule = input.found.rules.find((r) => r.rule.id === (applicable.via === 'type' ? KSI_RULE : applicable.via));
  const effective: EffectiveState = byRule?.effective ?? { state: 'in_force' };
  const base = { id, kind: 'ksi' as const, ...(byRule?.force === undefined ? {} : { force: byRule.force }), effective };
  const warnings: string[] = [];
  if (!input.statements.byId.has(id)) {
    warnings.push(
      `ksiImplementation is generated by svc; write ## ${id} in ${input.statements.file ?? 'the statements file (fedramp.statements in svc.config.json)'}`,
    );
  }
  const withWarnings = (item: ReadinessItem): ReadinessItem => (warnings.length === 0 ? item : { ...item, warnings });
  const later = notYet(effective);
  if (later !== undefined) return withWarnings({ ...base, ...later });
  if (input.run === undefined) return withWarnings({ ...base, status: 'not_met', why: `no run recorded in ${input.store}`, todo: NO_RUN_TODO });
  const facts = input.ksis.find((k) => k.id === id);
  const reasons: string[] = [];
  const todos: string[] = [];
  const short = (reason: string, todo: string) => {
    reasons.push(reason);
    if (!todos.includes(todo)) todos.push(todo);
  };
  if (facts?.status === undefined) {
    short(
      'no evidence: no result of the run reaches it',
      `report results keyed ${id} (or by a catalog KSI that shares its controls) and record the run with svc conmon process`,
    );
  } else if (facts.status !== 'Implemented') {
    const { pass, fail, other } = facts.results;
    short(`${facts.status} (${pass} pass, ${fail} fail, ${other} other)`, 'fix what the failing checks report and record a new run');
  }
  if (facts !== undefined) {
    for (const [kind, counts, cadence] of [
      ['machine-based', facts.freshness.machine, input.cadences.machine],
      ['non-machine', facts.freshness.nonMachine, input.cadences.nonMachine],
    ] as const) {
      if (cadence === undefined) continue;
      const every = `${cadenceText(cadence.every)} (${cadence.rule}${cadence.from_class === undefined ? '' : `, Class ${cadence.from_class}'s`})`;
      if (counts.stale > 0)
        short(`${counts.stale} of ${plural(counts.total, `${kind} result`)} older than ${every}, the oldest observed ${counts.oldest}`, RERUN_TODO);
      if (counts.undated > 0)
        short(`${counts.undated} of ${plural(counts.total, `${kind} result`)} ${counts.undated === 1 ? 'carries' : 'carry'} no time`, RERUN_TODO);
    }
  }
  const methods = facts?.methods ?? 0;
  const required = facts?.methodsRequired;
  if (required !== undefined && methods < required.min) {
    const binding = binds(METHODS_RULE, required.force, input);
    const text = `${methods} automated ${methods === 1 ? 'method' : 'methods'}; ${METHODS_RULE} (${binding.stands}) asks at least ${required.min}`;
    if (binding.binds) short(text, 'add automated checks from more tools or checks');
    else warnings.push(text);
  }
  const history = facts?.history;
  if (history?.required !== undefined && history.met !== true) {
    const { months, from, force } = history.required;
    const binding = binds(HISTORY_RULE, force, input);
    const text = `${history.since === undefined ? 'no recorded history' : `history since ${history.since}`}; ${HISTORY_RULE} (${binding.stands}) asks ${months} months, since ${from}`;
    if (binding.binds) short(text, 'record a run every day with svc conmon process; the history grows with each');
    else warnings.push(text);
  }
  if (reasons.length === 0) return withWarnings({ ...base, status: 'met' });
  return withWarnings({ ...base, status: 'not_met', why: reasons.join('; '), todo: todos.join('; ') });
}

/** Whether `rule` binds the profile now (a MUST in force), and how it stands: its force, or when it will be required. */
function binds(rule: string, force: Cr26Force | undefined, input: ReadinessInput): { binds: boolean; stands: string } {
  const applicable = input.found.rules.find((r) => r.rule.id === rule);
  if (applicable === undefined) return { binds: false, stands: 'not applicable to the profile' };
  const e = applicable.effective;
  if (e.state === 'required_from') return { binds: false, stands: `required from ${e.date}` };
  if (e.state === 'not_yet_defined') return { binds: false, stands: `not yet defined for Class ${e.class}` };
  const f = force ?? applicable.force;
  return { binds: f === 'MUST', stands: f ?? 'no force given' };
}

/** not_yet_required for a rule not in force, with the reason; undefined for one in force. */
function notYet(effective: EffectiveState): (Pick<ReadinessItem, 'status' | 'from'> & { why: string }) | undefined {
  if (effective.state === 'required_from') {
    return {
      status: 'not_yet_required',
      from: effective.date,
      why: `required from ${effective.date}${effective.optional_from === undefined ? '' : ` (optional from ${effective.optional_from})`}`,
    };
  }
  if (effective.state === 'not_yet_defined') {
    return {
      status: 'not_yet_required',
      why: `not yet defined for Class ${effective.class}: ${effective.pilot === undefined ? 'the rules give nothing for the class yet' : `FedRAMP leaves it to the ${effective.pilot}`}`,
    };
  }
  return undefined;
}

function writeStatement(id: string, file: string | undefined): string {
  return file === undefined ? `name a statements file in fedramp.statements (svc.config.json) and write ## ${id} in it` : `write ## ${id} in ${file}`;
}

function countOf(items: readonly ReadinessItem[]): ReadinessCounts {
  const counts: ReadinessCounts = { total: items.length, met: 0, not_met: 0, needs_statement: 0, not_yet_required: 0 };
  for (const item of items) counts[item.status] += 1;
  return counts;
}
