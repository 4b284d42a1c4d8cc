import { baseControl, normalizeControlId, type KsiDefinition } from '../catalog/ksi-catalog';
import type { NormalizedReport } from '../ksi/ksi-result';
import type { Status } from '../ksi/status';
import { describeRetired, resolveCr26Id } from './cr26-aliases';
import type { Cr26Class, Cr26Force, Cr26Ksi, Cr26Rules } from './cr26-rules';
import { HISTORY_RULE, METHODS_RULE, proseFact, proseFactForce } from './prose-facts';

/** A CR26 KSI's implementation status, in the words of the SDR schema's `ksiImplementationStatus`. */
export type Cr26KsiStatus = 'Implemented' | 'Partially Implemented' | 'Not Implemented';

/**
 * One KSI result of a run, as the evaluation sees it: its id (a CR26 id, an earlier FedRAMP id, or a 163-catalog
 * id), its status, the tool that produced it and the ids of the checks it ran. `evaluationResults` builds these
 * from a normalized report.
 */
export interface EvaluationResult {
  ksi_id: string;
  status: Status;
  tool: string;
  /** The check ids (`checks[].id`); a result without checks is one check of its own, named by its ksi_id. */
  checks: string[];
}

/** How a contributing result reaches a CR26 KSI: keyed by it, keyed by an earlier id of it, or through shared controls. */
export type ContributionVia = 'id' | 'alias' | 'controls';

/** A result that counts for a CR26 KSI. */
export interface ContributingResult {
  ksi_id: string;
  status: Status;
  tool: string;
  checks: string[];
  via: ContributionVia;
}

/**
 * What svc concludes for one applicable CR26 KSI (DESIGN §12.2). `status` is absent when no result contributes
 * (the KSI is then listed in `noEvidence`). `methods`: distinct (tool, check id) pairs among the contributing
 * results. `methodsRequired`: FRC-CSX-VVK's minimum for the class (absent for Class A, whose statement names no
 * number), with the force the rules data gives; `methodsMet` only where there is a minimum.
 */
export interface Cr26KsiEvaluation {
  id: string;
  status?: Cr26KsiStatus;
  contributing: ContributingResult[];
  methods: number;
  methodsRequired?: { min: number; force?: Cr26Force };
  methodsMet?: boolean;
}

/**
 * Why a result contributes to no applicable CR26 KSI: `retired` (an earlier id CR26 has no successor for; `reason`
 * is describeRetired's line), `not-applicable` (a CR26 KSI, or an earlier id of one, outside the profile's list),
 * `no-shared-control` (a 163-catalog KSI none of whose controls meets an applicable KSI's), `unknown` (none of these).
 */
export interface UnmappedResult {
  id: string;
  kind: 'retired' | 'not-applicable' | 'no-shared-control' | 'unknown';
  reason: string;
}

/** The evaluation of one run for a profile's class: every applicable KSI in the order given, and what was left over. */
export interface Cr26Evaluation {
  class: Cr26Class;
  ksis: Cr26KsiEvaluation[];
  /** Ids of the applicable KSIs no result contributes to, in the order given. */
  noEvidence: string[];
  /** Each result id that contributes to nothing, once, sorted by id. */
  unmapped: UnmappedResult[];
}

export interface EvaluationInput {
  /** The CR26 model: its aliases and retired ids, and FRC-CSX-VVK's force per class. */
  rules: Cr26Rules;
  /** The KSIs applicable to the profile (`applicability(...).ksis.map((k) => k.ksi)`). */
  ksis: readonly Cr26Ksi[];
  class: Cr26Class;
  results: readonly EvaluationResult[];
  /** The 163-KSI catalog's definitions by id (a KsiCatalog). */
  catalog: { get(id: string): Pick<KsiDefinition, 'controls'> | undefined };
}

/**
 * A result's or a KSI's controls for matching: each normalized (`AC-2(1)` → `ac-2.1`), plus the base of every
 * enhancement (`ac-2.1` adds `ac-2`).
 *
 * Control intersection rule (docs/decisions.md): two control lists meet when these expanded sets share an element.
 * So `ac-2` meets `ac-2` and `ac-2.1` (the enhancement's base is the control itself); `ac-2.1` meets `ac-2.1`, `ac-2`
 * and also `ac-2.3` (both stand on the base `ac-2`); `ac-2` never meets `ac-20` or `ac-20.1` (different bases).
 * A 163-catalog KSI always lists its base control, so for it the expansion changes nothing.
 */
export function matchControls(controls: Iterable<string>): Set<string> {
  const set = new Set<string>();
  for (const raw of controls) {
    const control = normalizeControlId(raw) ?? raw.trim().toLowerCase();
    set.add(control);
    set.add(baseControl(control));
  }
  return set;
}

/** Whether two control lists meet under the intersection rule of `matchControls`. */
export function controlsIntersect(a: Iterable<string>, b: Iterable<string>): boolean {
  const left = matchControls(a);
  for (const control of matchControls(b)) if (left.has(control)) return true;
  return false;
}

/** `Implemented` when every status is PASS, `Not Implemented` when every one is FAIL, else `Partially Implemented`; none: undefined. */
export function ksiStatusOf(statuses: readonly Status[]): Cr26KsiStatus | undefined {
  if (statuses.length === 0) return undefined;
  if (statuses.every((s) => s === 'PASS')) return 'Implemented';
  if (statuses.every((s) => s === 'FAIL')) return 'Not Implemented';
  return 'Partially Implemented';
}

/** Distinct (tool, check id) pairs among the results. */
export function automatedMethods(results: readonly Pick<EvaluationResult, 'tool' | 'checks'>[]): number {
  const pairs = new Set<string>();
  for (const r of results) for (const check of r.checks) pairs.add(JSON.stringify([r.tool, check]));
  return pairs.size;
}

/**
 * The results of a normalized report for evaluation. The tool is the report's `source.tool`, else the result's own
 * `source` text, else `unknown`; the checks are the result's `checks[].id`, else its ksi_id (the result is then its
 * tool's one check for that KSI).
 */
export function evaluationResults(report: NormalizedReport): EvaluationResult[] {
  const reportTool = typeof report.source?.tool === 'string' && report.source.tool !== '' ? report.source.tool : undefined;
  return report.results.map((r) => {
    const tool = reportTool ?? (typeof r.source === 'string' && r.source !== '' ? r.source : 'unknown');
    const ids = (r.checks ?? []).map((c) => c.id).filter((id) => typeof id === 'string' && id !== '');
    return { ksi_id: r.ksi_id, status: r.status, tool, checks: ids.length > 0 ? [...new Set(ids)] : [r.ksi_id] };
  });
}

/**
 * Evaluates a run's results against the KSIs applicable to a profile (DESIGN §12.2). A result reaches KSI K when
 * it is keyed K; when it is keyed an earlier id that resolves to K through the rules' aliases; or when it is keyed
 * a 163-catalog KSI whose controls meet K's (`matchControls`). An id is looked up in that order: a CR26 id or alias
 * of a KSI outside `ksis` is unmapped (`not-applicable`), a retired earlier id is unmapped (`retired`) and reaches
 * nothing, even when it also looks like a catalog id.
 */
export function evaluateCr26Ksis(input: EvaluationInput): Cr26Evaluation {
  const { rules, ksis, results, catalog } = input;
  const cls = input.class;
  const contributing = new Map<string, ContributingResult[]>(ksis.map((k) => [k.id, []]));
  const cr26Ksis = new Set(rules.ksis.map((k) => k.id));
  const retired = new Map(rules.retired.map((r) => [r.id, r]));
  const targets = ksis.map((k) => ({ id: k.id, controls: matchControls(k.controls) }));
  const unmapped = new Map<string, UnmappedResult>();
  const add = (id: string, result: EvaluationResult, via: ContributionVia) =>
    contributing.get(id)!.push({ ksi_id: result.ksi_id, status: result.status, tool: result.tool, checks: [...result.checks], via });

  for (const result of results) {
    const id = result.ksi_id;
    const resolved = resolveCr26Id(rules, id);
    if (resolved !== undefined && cr26Ksis.has(resolved)) {
      if (contributing.has(resolved)) add(resolved, result, resolved === id ? 'id' : 'alias');
      else unmapped.set(id, { id, kind: 'not-applicable', reason: `${resolved === id ? id : `${id} (now ${resolved})`} does not apply to the profile's class ${cls}` });
      continue;
    }
    const gone = retired.get(id);
    if (gone !== undefined) {
      unmapped.set(id, { id, kind: 'retired', reason: describeRetired(gone, rules.info.version) });
      continue;
    }
    const definition = catalog.get(id);
    if (definition !== undefined) {
      const controls = matchControls(definition.controls);
      const reached = targets.filter((t) => [...t.controls].some((c) => controls.has(c)));
      for (const t of reached) add(t.id, result, 'controls');
      if (reached.length === 0) unmapped.set(id, { id, kind: 'no-shared-control', reason: `${id}: none of its controls (${definition.controls.join(', ')}) meets an applicable KSI's` });
      continue;
    }
    unmapped.set(id, { id, kind: 'unknown', reason: `${id}: neither a CR26 KSI, an earlier FedRAMP id nor a catalog KSI` });
  }

  const fact = proseFact(METHODS_RULE, cls);
  const force = proseFactForce(rules, METHODS_RULE, cls);
  const evaluated = ksis.map((k): Cr26KsiEvaluation => {
    const list = contributing.get(k.id)!;
    const status = ksiStatusOf(list.map((r) => r.status));
    const methods = automatedMethods(list);
    return {
      id: k.id,
      ...(status === undefined ? {} : { status }),
      contributing: list,
      methods,
      ...(fact === undefined ? {} : { methodsRequired: { min: fact.value, ...(force === undefined ? {} : { force }) }, methodsMet: methods >= fact.value }),
    };
  });
  return {
    class: cls,
    ksis: evaluated,
    noEvidence: evaluated.filter((k) => k.status === undefined).map((k) => k.id),
    unmapped: [...unmapped.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
}

/** One day of a KSI's history: its status from the day's last run; absent when that run gave it no evidence. */
export interface DailyKsiStatus {
  /** YYYY-MM-DD (UTC). */
  date: string;
  status?: Cr26KsiStatus;
}

/** Counts of days in a window by status (SDR-CSX-KMT; the `ksiMetrics` summary shape of DESIGN §12.3). */
export interface MetricSummary {
  days: number;
  implemented: number;
  partially: number;
  notImplemented: number;
  noEvidence: number;
}

export interface KsiMetrics {
  /** The 30 UTC days ending with `now`'s day, always 30 days: a day without an entry (or before the history) is `noEvidence`. */
  last30Days: MetricSummary;
  /**
   * Up to a year: the 365 UTC days ending with `now`'s day, starting no earlier than the first day of the history
   * ("where available"); days 0 when the history has no entry in that year.
   */
  lastYear: MetricSummary;
}

const DAY_MS = 86_400_000;

/**
 * The 30-day and up-to-a-year summaries of a KSI's daily statuses at `now`. One entry per date; where a date repeats
 * the later entry wins. Entries after `now`'s day are ignored.
 */
export function ksiMetrics(daily: readonly DailyKsiStatus[], now: Date): KsiMetrics {
  const today = dayNumber(now.toISOString().slice(0, 10));
  const byDay = new Map<number, Cr26KsiStatus | undefined>();
  for (const entry of daily) {
    const day = dayNumber(entry.date);
    if (day <= today) byDay.set(day, entry.status);
  }
  const yearStart = today - 364;
  const first = Math.min(...[...byDay.keys()].filter((d) => d >= yearStart));
  return {
    last30Days: summarize(byDay, today - 29, today),
    lastYear: Number.isFinite(first) ? summarize(byDay, first, today) : summarize(byDay, today + 1, today),
  };
}

function summarize(byDay: Map<number, Cr26KsiStatus | undefined>, from: number, to: number): MetricSummary {
  const summary: MetricSummary = { days: 0, implemented: 0, partially: 0, notImplemented: 0, noEvidence: 0 };
  for (let day = from; day <= to; day++) {
    summary.days += 1;
    const status = byDay.get(day);
    if (status === 'Implemented') summary.implemented += 1;
    else if (status === 'Partially Implemented') summary.partially += 1;
    else if (status === 'Not Implemented') summary.notImplemented += 1;
    else summary.noEvidence += 1;
  }
  return summary;
}

/**
 * Whether a KSI's history reaches back far enough for FRC-CSX-MOT. `since`: the first day with a status (a day
 * without evidence does not start a history). `required`: the class's period (Class C 6 months, D 18; A and B name
 * none, and then `met` is absent), its force, and `from`: `now`'s day that many calendar months earlier (clamped to
 * the month's last day: 31 Aug − 6 months = 28 Feb). `met`: `since` is on or before `from`. Gaps inside the history
 * are not judged here; the summaries count them.
 */
export interface HistoryCheck {
  since?: string;
  required?: { months: number; force?: Cr26Force; from: string };
  met?: boolean;
}

/** FRC-CSX-MOT's history check for a KSI's daily statuses at `now` (see HistoryCheck). */
export function historyCheck(daily: readonly DailyKsiStatus[], cls: Cr26Class, rules: Pick<Cr26Rules, 'rules'>, now: Date): HistoryCheck {
  const today = now.toISOString().slice(0, 10);
  const dated = daily.filter((d) => d.status !== undefined && d.date <= today).map((d) => d.date);
  const since = dated.length === 0 ? undefined : dated.reduce((a, b) => (b < a ? b : a));
  const fact = proseFact(HISTORY_RULE, cls);
  if (fact === undefined) return since === undefined ? {} : { since };
  const force = proseFactForce(rules, HISTORY_RULE, cls);
  const from = monthsBefore(today, fact.value);
  return {
    ...(since === undefined ? {} : { since }),
    required: { months: fact.value, ...(force === undefined ? {} : { force }), from },
    met: since !== undefined && since <= from,
  };
}

/** YYYY-MM-DD `months` calendar months earlier, the day clamped to the month's length. */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const index = y * 12 + (m - 1) - months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}
