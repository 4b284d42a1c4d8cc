import { baseControl, normalizeControlId, type KsiDefinition } from '../catalog/ksi-catalog';
import type { KsiResult, NormalizedReport } from '../ksi/ksi-result';
import type { Status } from '../ksi/status';
import { dayNumber } from '../encoding/iso-time';
import type { JsonSchemaType } from '../encoding/json-schema-type';
import { describeRetired } from './cr26-aliases';
import type { Cr26Class, Cr26Force, Cr26Ksi, Cr26Rules } from './cr26-rules';
import { HISTORY_RULE, METHODS_RULE, proseFactForce, releaseFact } from './prose-facts';

/** A CR26 KSI's implementation statuses, in the words of the SDR schema's `ksiImplementationStatus`. */
export const CR26_KSI_STATUSES = ['Implemented', 'Partially Implemented', 'Not Implemented'] as const;
export type Cr26KsiStatus = (typeof CR26_KSI_STATUSES)[number];

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
  return tallyStatus({
    pass: statuses.filter((s) => s === 'PASS').length,
    fail: statuses.filter((s) => s === 'FAIL').length,
    other: statuses.filter((s) => s !== 'PASS' && s !== 'FAIL').length,
  });
}

/**
 * The results of a normalized report for evaluation. The tool is the report's `source.tool`, else the result's own
 * `source` text, else `unknown`; the checks are the result's `checks[].id`, else its ksi_id (the result is then its
 * tool's one check for that KSI).
 */
export function evaluationResults(report: NormalizedReport): EvaluationResult[] {
  const reportTool = typeof report.source?.tool === 'string' && report.source.tool !== '' ? report.source.tool : undefined;
  return report.results.map((r) => evaluationResult(r, reportTool));
}

/** One result for evaluation, its tool the report's (`reportTool`) else its own `source`, else `unknown` (see evaluationResults). */
export function evaluationResult(r: KsiResult, reportTool: string | undefined): EvaluationResult {
  const tool = reportTool ?? (typeof r.source === 'string' && r.source !== '' ? r.source : 'unknown');
  const ids: string[] = [];
  for (const c of r.checks ?? []) if (typeof c.id === 'string' && c.id !== '' && !ids.includes(c.id)) ids.push(c.id);
  return { ksi_id: r.ksi_id, status: r.status, tool, checks: ids.length > 0 ? ids : [r.ksi_id] };
}

/** An id of svc's own 163-KSI catalog (`KSI-AC-02`: a NIST SP 800-53 family and base control), which no CR26 document carries. */
export const CATALOG_KSI_ID = /^KSI-[A-Z]{2}-\d{2}$/;

/**
 * How a CR26 document names a result's id (documents carry only CR26 ids): a CR26 KSI id as itself, an earlier FedRAMP
 * id as the CR26 id it now is, a KSI of svc's catalog as the NIST SP 800-53 base control it stands for (`KSI-AC-02` →
 * `ac-2`); any other id (a FedRAMP release's, `--catalog`) as itself.
 */
export function cr26NameOf(id: string, rules: Pick<Cr26Rules, 'aliases'>, catalog: EvaluationInput['catalog']): string {
  if (Object.prototype.hasOwnProperty.call(rules.aliases, id)) return rules.aliases[id];
  if (!CATALOG_KSI_ID.test(id)) return id;
  const first = catalog.get(id)?.controls[0];
  return first === undefined ? id : baseControl(normalizeControlId(first) ?? first.trim().toLowerCase());
}

/** How many ids' routes a tally remembers. */
const ROUTES_KEPT = 65_536;

/** What the tally keeps of one applicable KSI: the indices of its contributing results, how each reached it, its statuses and methods. */
export interface KsiTally {
  id: string;
  /** Indices (as given to `add`) of the contributing results, in the order added. */
  indices: number[];
  /** How each of `indices` reached the KSI. */
  via: ContributionVia[];
  pass: number;
  fail: number;
  /** WARN and any other status. */
  other: number;
  /** Distinct (tool, check id) pairs among the contributing results, as `<tool> NUL <check id>`, in the order first seen (`testsOf`). */
  methods: Set<string>;
  /** Distinct tools among them. */
  tools: Set<string>;
}

/** A tally's automated methods as FedRAMP's `ksiTests` list them: `<tool>:<check id>`, sorted. */
export function testsOf(t: Pick<KsiTally, 'methods'>): string[] {
  return [...t.methods].map((m) => m.replace('\u0000', ':')).sort();
}

/**
 * The CR26 evaluation of a run, one result at a time (DESIGN §12.2): a run of a million results is tallied without
 * keeping a copy of each. A result reaches KSI K when it is keyed K; when it is keyed an earlier id that resolves to
 * K through the rules' aliases; or when it is keyed a 163-catalog KSI whose controls meet K's (`matchControls`). An
 * id is looked up in that order: a CR26 id or alias of a KSI outside `ksis` is unmapped (`not-applicable`), a
 * retired earlier id is unmapped (`retired`) and reaches nothing, even when it also looks like a catalog id.
 */
export class Cr26Tally {
  private readonly byKsi: Map<string, KsiTally>;
  private readonly cr26Ksis: Set<string>;
  private readonly retired: Map<string, Cr26Rules['retired'][number]>;
  private readonly targets: { id: string; controls: Set<string> }[];
  private readonly unmapped = new Map<string, UnmappedResult>();
  /** Where each catalog id leads (computed once per id), with the name a CR26 document gives it (cr26NameOf). */
  private readonly reachedBy = new Map<string, Route | UnmappedResult>();

  constructor(private readonly input: Omit<EvaluationInput, 'results'>) {
    this.byKsi = new Map(input.ksis.map((k) => [k.id, { id: k.id, indices: [], via: [], pass: 0, fail: 0, other: 0, methods: new Set(), tools: new Set() }]));
    this.cr26Ksis = new Set(input.rules.ksis.map((k) => k.id));
    this.retired = new Map(input.rules.retired.map((r) => [r.id, r]));
    this.targets = input.ksis.map((k) => ({ id: k.id, controls: matchControls(k.controls) }));
  }

  /** Tallies one result; returns the ids of the KSIs it reached (empty when it is unmapped). */
  add(result: EvaluationResult, index: number): readonly string[] {
    return this.addKeyed(result.ksi_id, index, () => result);
  }

  /** `add` for a result keyed `id` that is made only when it reaches a KSI (most of a large run may reach none). */
  addKeyed(key: string, index: number, made: () => EvaluationResult): readonly string[] {
    const route = this.route(key);
    if (!('ids' in route)) {
      this.unmapped.set(route.id, route);
      return [];
    }
    const result = made();
    // A result without checks is its own one check, named by its ksi_id: named in a CR26 document as cr26NameOf names it.
    const checks = result.checks.map((c) => (c === result.ksi_id ? route.name : c));
    for (const id of route.ids) {
      const t = this.byKsi.get(id)!;
      t.indices.push(index);
      t.via.push(route.via === 'id' && result.ksi_id !== id ? 'alias' : route.via);
      if (result.status === 'PASS') t.pass += 1;
      else if (result.status === 'FAIL') t.fail += 1;
      else t.other += 1;
      t.tools.add(result.tool);
      for (const check of checks) t.methods.add(`${result.tool}\u0000${check}`);
    }
    return route.ids;
  }

  /** The applicable KSIs a result id reaches, as `add` routes it (none for an unmapped id); routes are kept. */
  reach(key: string): readonly string[] {
    const route = this.route(key);
    return 'ids' in route ? route.ids : [];
  }

  /** The name a CR26 document gives a result's id (cr26NameOf). */
  nameOf(id: string): string {
    const route = this.route(id);
    return 'ids' in route ? route.name : cr26NameOf(id, this.input.rules, this.input.catalog);
  }

  /** The tally of an applicable KSI. */
  ksi(id: string): KsiTally | undefined {
    return this.byKsi.get(id);
  }

  /** The evaluation so far: every applicable KSI in the order given, with what the tally knows of it. */
  evaluation(): Omit<Cr26Evaluation, 'ksis'> & { ksis: (Omit<Cr26KsiEvaluation, 'contributing'> & { tally: KsiTally })[] } {
    const cls = this.input.class;
    const fact = releaseFact(this.input.rules, METHODS_RULE, cls);
    const force = proseFactForce(this.input.rules, METHODS_RULE, cls);
    const ksis = this.input.ksis.map((k) => {
      const tally = this.byKsi.get(k.id)!;
      const status = tallyStatus(tally);
      const methods = tally.methods.size;
      return {
        id: k.id,
        ...(status === undefined ? {} : { status }),
        tally,
        methods,
        ...(fact === undefined ? {} : { methodsRequired: { min: fact.value, ...(force === undefined ? {} : { force }) }, methodsMet: methods >= fact.value }),
      };
    });
    return {
      class: cls,
      ksis,
      noEvidence: ksis.filter((k) => k.status === undefined).map((k) => k.id),
      unmapped: [...this.unmapped.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    };
  }

  private route(id: string): Route | UnmappedResult {
    let route = this.reachedBy.get(id);
    if (route === undefined) {
      route = this.routeOf(id);
      // Most runs repeat a few hundred ids; a run of a million distinct ids must not keep a route for each.
      if (this.reachedBy.size < ROUTES_KEPT) this.reachedBy.set(id, route);
    }
    return route;
  }

  private routeOf(id: string): Route | UnmappedResult {
    const { rules, catalog } = this.input;
    const resolved = this.cr26Ksis.has(id) ? id : Object.prototype.hasOwnProperty.call(rules.aliases, id) ? rules.aliases[id] : undefined;
    if (resolved !== undefined && this.cr26Ksis.has(resolved)) {
      if (this.byKsi.has(resolved)) return { ids: [resolved], via: resolved === id ? 'id' : 'alias', name: resolved };
      return {
        id,
        kind: 'not-applicable',
        reason: `${resolved === id ? id : `${id} (now ${resolved})`} does not apply to the profile's class ${this.input.class}`,
      };
    }
    const gone = this.retired.get(id);
    if (gone !== undefined) return { id, kind: 'retired', reason: describeRetired(gone, rules.info.version) };
    const definition = catalog.get(id);
    if (definition !== undefined) {
      const controls = matchControls(definition.controls);
      const reached = this.targets.filter((t) => [...t.controls].some((c) => controls.has(c))).map((t) => t.id);
      if (reached.length > 0) return { ids: reached, via: 'controls', name: cr26NameOf(id, rules, catalog) };
      return { id, kind: 'no-shared-control', reason: `${id}: none of its controls (${definition.controls.join(', ')}) meets an applicable KSI's` };
    }
    return { id, kind: 'unknown', reason: `${id}: neither a CR26 KSI, an earlier FedRAMP id nor a catalog KSI` };
  }
}

/** Where a result's id leads: the applicable KSIs it reaches, how, and the name a CR26 document gives the id. */
interface Route {
  ids: string[];
  via: ContributionVia;
  name: string;
}

/** ksiStatusOf from counts: PASS, FAIL and the rest. */
export function tallyStatus(t: Pick<KsiTally, 'pass' | 'fail' | 'other'>): Cr26KsiStatus | undefined {
  const total = t.pass + t.fail + t.other;
  if (total === 0) return undefined;
  if (t.pass === total) return 'Implemented';
  if (t.fail === total) return 'Not Implemented';
  return 'Partially Implemented';
}

/** Evaluates a run's results against the KSIs applicable to a profile (DESIGN §12.2; Cr26Tally says how a result reaches a KSI). */
export function evaluateCr26Ksis(input: EvaluationInput): Cr26Evaluation {
  const tally = new Cr26Tally(input);
  input.results.forEach((result, index) => tally.add(result, index));
  const evaluation = tally.evaluation();
  return {
    ...evaluation,
    ksis: evaluation.ksis.map(({ tally: t, ...k }) => {
      const contributing = t.indices.map((i, n): ContributingResult => {
        const r = input.results[i];
        return { ksi_id: r.ksi_id, status: r.status, tool: r.tool, checks: [...r.checks], via: t.via[n] };
      });
      const { methods, methodsRequired, methodsMet, status, id } = k;
      return {
        id,
        ...(status === undefined ? {} : { status }),
        contributing,
        methods,
        ...(methodsRequired === undefined ? {} : { methodsRequired, methodsMet }),
      };
    }),
  };
}

/*
 * The KSI metrics' shapes (SDR-CSX-KMT, DESIGN §12.3) are svc's own: no FedRAMP schema declares them. Each is written
 * once, as the JSON Schema GET /fedramp/metrics publishes (SDR_KSI_METRICS_SCHEMA), and its type is read from it.
 */

/** One day of a KSI's history: its status from the day's last run; absent when that run gave it no evidence. */
export const DAILY_KSI_STATUS_SCHEMA = {
  type: 'object',
  required: ['date'],
  properties: {
    /** YYYY-MM-DD (UTC). */
    date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    status: { enum: CR26_KSI_STATUSES },
  },
} as const;
export type DailyKsiStatus = JsonSchemaType<typeof DAILY_KSI_STATUS_SCHEMA>;

const DAY_COUNT = { type: 'integer', minimum: 0 } as const;

/** Counts of days in a window by status (SDR-CSX-KMT; the `ksiMetrics` summary shape of DESIGN §12.3). */
export const METRIC_SUMMARY_SCHEMA = {
  type: 'object',
  required: ['days', 'implemented', 'partially', 'notImplemented', 'noEvidence'],
  properties: { days: DAY_COUNT, implemented: DAY_COUNT, partially: DAY_COUNT, notImplemented: DAY_COUNT, noEvidence: DAY_COUNT },
} as const;
export type MetricSummary = JsonSchemaType<typeof METRIC_SUMMARY_SCHEMA>;

/** A KSI's summaries at `now`. */
export const KSI_METRICS_SCHEMA = {
  type: 'object',
  required: ['last30Days', 'lastYear'],
  properties: {
    /** The 30 UTC days ending with `now`'s day, always 30 days: a day without an entry (or before the history) is `noEvidence`. */
    last30Days: METRIC_SUMMARY_SCHEMA,
    /**
     * Up to a year: the 365 UTC days ending with `now`'s day, starting no earlier than the first day of the history
     * ("where available"); days 0 when the history has no entry in that year.
     */
    lastYear: METRIC_SUMMARY_SCHEMA,
  },
} as const;
export type KsiMetrics = JsonSchemaType<typeof KSI_METRICS_SCHEMA>;

/**
 * The 30-day and up-to-a-year summaries of a KSI's daily statuses at `now`. One entry per date; where a date repeats
 * the later entry wins. Entries after `now`'s day are ignored.
 */
export function ksiMetrics(daily: readonly DailyKsiStatus[], now: Date): KsiMetrics {
  const today = dayNumber(now.toISOString().slice(0, 10));
  // Each day's status, the last given for a day counting (the history svc reads has one a day, in date order).
  const days: number[] = [];
  const statuses = new Map<number, Cr26KsiStatus | undefined>();
  for (const entry of daily) {
    const day = dayNumberOf(entry.date);
    if (day > today) continue;
    if (!statuses.has(day)) days.push(day);
    statuses.set(day, entry.status);
  }
  const yearStart = today - 364;
  let first = Infinity;
  for (const day of days) if (day >= yearStart && day < first) first = day;
  return {
    last30Days: summarize(days, statuses, today - 29, today),
    lastYear: Number.isFinite(first) ? summarize(days, statuses, first, today) : summarize(days, statuses, today + 1, today),
  };
}

/**
 * dayNumber of a daily status's date, remembered: every KSI's year has the same 365 dates, and the metrics of a year
 * of 60 KSIs would otherwise parse 22,000 of them. At most DAY_NUMBERS_KEPT are kept (then forgotten at once).
 */
function dayNumberOf(date: string): number {
  let day = dayNumbers.get(date);
  if (day === undefined) {
    if (dayNumbers.size >= DAY_NUMBERS_KEPT) dayNumbers.clear();
    dayNumbers.set(date, (day = dayNumber(date)));
  }
  return day;
}
const dayNumbers = new Map<string, number>();
const DAY_NUMBERS_KEPT = 4096;

/** The days from `from` to `to`, each counted by its status; a day without one is noEvidence. */
function summarize(days: readonly number[], statuses: ReadonlyMap<number, Cr26KsiStatus | undefined>, from: number, to: number): MetricSummary {
  const summary: MetricSummary = { days: Math.max(0, to - from + 1), implemented: 0, partially: 0, notImplemented: 0, noEvidence: 0 };
  for (const day of days) {
    if (day < from || day > to) continue;
    const status = statuses.get(day);
    if (status === 'Implemented') summary.implemented += 1;
    else if (status === 'Partially Implemented') summary.partially += 1;
    else if (status === 'Not Implemented') summary.notImplemented += 1;
  }
  summary.noEvidence = summary.days - summary.implemented - summary.partially - summary.notImplemented;
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
  const fact = releaseFact(rules, HISTORY_RULE, cls);
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
