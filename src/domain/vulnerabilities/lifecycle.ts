import { painTimeframe, type Cr26Class, type Cr26Force, type Cr26Rules, type Cr26Timeframe } from '../fedramp/cr26-rules';
import { addCadence } from '../fedramp/evidence-cadence';
import { releaseFact } from '../fedramp/prose-facts';
import { reliedRule } from '../fedramp/relied-rules';
import { InvalidInputError } from '../errors';
import { endOfDay, isoSeconds } from '../encoding/iso-time';

/**
 * A Potential Agency Impact N-rating (VER-EVA-EPA): N0 (least; from CR26 2026.10.05.01) or N1 to N5. Which ones the
 * release in use offers comes from its rules data (pain-ratings.ts).
 */
export type NRating = 0 | 1 | 2 | 3 | 4 | 5;

/** The VER and VDR rules the lifecycle reads from the rules data (DESIGN §12.4). */
export const LIFECYCLE_RULES = {
  evaluate: reliedRule('VER-TFR-EVU'),
  mitigate: reliedRule('VDR-TFR-PVR'),
  accept: reliedRule('VER-TFR-MAV'),
  kev: reliedRule('VDR-TFR-KEV'),
  internetIncident: reliedRule('VER-TFR-IRI'),
  otherIncident: reliedRule('VER-TFR-NRI'),
} as const;

/**
 * One evaluation of a group, by a person (`--by`) or by the evaluation policy (`policy:<hash>`), kept as recorded:
 * each field it gives replaces the one before, fields it leaves out stay as they were, and nothing is overwritten.
 */
export interface Evaluation {
  /** ISO-8601 UTC. */
  at: string;
  by: string;
  reason: string;
  /** Internet-reachable (VER-EVA-EIR). */
  irv?: boolean;
  /** Likely exploitable (VER-EVA-ELX). */
  lev?: boolean;
  n?: NRating;
  /** VER-EVA-EFP. */
  false_positive?: boolean;
  /** A mitigation applied at `at`: `full` ends the mitigation timeframe, `partial` usually comes with a lower `n`. */
  mitigated?: 'partial' | 'full';
  /** The projected next reduction of the N-rating. */
  next_reduction?: { at: string; n: NRating };
  /** A recorded decision to accept the vulnerability (VER-TFR-MAV), `reason` its rationale. */
  accept?: boolean;
}

/** What the run store knows of one group of detections sharing a finding id (VER-EVA-GRV) across runs. */
export interface GroupHistory {
  finding_id: string;
  /** The earliest `detected_at` of its detections. */
  first_detected: string;
  /** The as_of of the last run that detected it. */
  last_seen: string;
  /** The as_of of the first later run that no longer detected it; absent while the latest run still does. */
  remediated_at?: string;
  /** In the order recorded. */
  evaluations: Evaluation[];
}

/** A CISA KEV catalog entry for a finding (VDR-TFR-KEV). */
export interface KevEntry {
  cveID: string;
  /** YYYY-MM-DD. */
  dueDate: string;
}

export const VULNERABILITY_STATES = ['detected', 'evaluated', 'mitigated', 'remediated', 'accepted', 'false-positive'] as const;
export type VulnerabilityState = (typeof VULNERABILITY_STATES)[number];

/** A due time and whether it has passed unmet at `now`. */
export interface Due {
  rule: string;
  at: string;
  force?: Cr26Force;
  overdue: boolean;
}

/** An N-rating change: a mitigation event (DESIGN §12.4: reduction events). */
export interface Reduction {
  at: string;
  from?: NRating;
  to: NRating;
  by: string;
}

/** Where a group stands at `now` (DESIGN §12.4). */
export interface GroupJudgment {
  finding_id: string;
  state: VulnerabilityState;
  irv?: boolean;
  lev?: boolean;
  n?: NRating;
  /** When an evaluation first gave IRV, LEV and an N-rating. */
  evaluated_at?: string;
  reductions: Reduction[];
  next_reduction?: { at: string; n: NRating };
  due: { evaluation: Due; mitigation?: Due; kev?: Due };
  overdue: { is: boolean; reasons: string[]; due_at?: string };
  /** Reportable-incident flags (VER-TFR-IRI, VER-TFR-NRI) with the class's force. */
  incident: { internet: boolean; other: boolean; force?: Cr26Force };
  accepted?: { at: string; by: 'VER-TFR-MAV' | 'decision'; rationale: string };
  remediated_at?: string;
  /** How far it has been mitigated: `full` (with when), else `partial` once any partial mitigation is recorded. */
  mitigation?: { extent: 'partial' } | { extent: 'full'; at: string };
}

/**
 * Judges one group at `now` for a Certification Class (DESIGN §12.4), every timeframe read from the rules data:
 * - evaluation due VER-TFR-EVU's days after first detection (a policy evaluation counts), overdue while unevaluated;
 * - mitigation due by VDR-TFR-PVR's table (class × current N × IRV+LEV `irv_lev`, not IRV + LEV `nirv_lev`, not LEV
 *   `nlev`), counted from the evaluation that set the current N-rating (none where the table has no cell for it: N1,
 *   and N0 where a release offers it), overdue until fully mitigated,
 *   remediated, accepted or a false positive;
 * - a KEV entry due on the catalog's `dueDate` (VDR-TFR-KEV), overdue from the next day until remediated, even when
 *   mitigated;
 * - accepted by a recorded decision, or when not fully mitigated or remediated within VER-TFR-MAV's 192 days of the
 *   evaluation; remediated when a run no longer detects it; a false positive by evaluation;
 * - reportable-incident flags: VER-TFR-IRI (IRV and LEV with N above 3, until mitigated to N3 or below), VER-TFR-NRI
 *   (LEV, not IRV, N5, until N4 or below); the thresholds are prose facts (prose-facts.ts).
 * Judged as known at `now`: evaluations and a remediation recorded after it are left out, so a past day reads as it was.
 * Throws InvalidInputError when the rules data lacks a rule or timeframe it needs.
 */
export function judgeGroup(group: GroupHistory, rules: Pick<Cr26Rules, 'rules' | 'info'>, cls: Cr26Class, now: Date, kev?: KevEntry): GroupJudgment {
  const t = now.getTime();
  let irv: boolean | undefined;
  let lev: boolean | undefined;
  let n: NRating | undefined;
  let nSetAt: string | undefined;
  let evaluatedAt: string | undefined;
  let falsePositive = false;
  let fullyMitigatedAt: string | undefined;
  let partial = false;
  let decision: { at: string; rationale: string } | undefined;
  let nextReduction: { at: string; n: NRating } | undefined;
  const reductions: Reduction[] = [];
  // Judged as known at `now`: an evaluation or a remediation recorded after it does not count yet.
  for (const e of group.evaluations.filter((x) => Date.parse(x.at) <= t).sort((a, b) => Date.parse(a.at) - Date.parse(b.at))) {
    if (e.irv !== undefined) irv = e.irv;
    if (e.lev !== undefined) lev = e.lev;
    if (e.n !== undefined && e.n !== n) {
      reductions.push({ at: e.at, ...(n === undefined ? {} : { from: n }), to: e.n, by: e.by });
      n = e.n;
      nSetAt = e.at;
    }
    if (evaluatedAt === undefined && irv !== undefined && lev !== undefined && n !== undefined) evaluatedAt = e.at;
    if (e.false_positive !== undefined) falsePositive = e.false_positive;
    if (e.mitigated === 'full') fullyMitigatedAt ??= e.at;
    if (e.mitigated === 'partial') partial = true;
    if (e.next_reduction !== undefined) nextReduction = e.next_reduction;
    if (e.accept) decision ??= { at: e.at, rationale: e.reason };
  }
  const remediated = group.remediated_at !== undefined && Date.parse(group.remediated_at) <= t ? group.remediated_at : undefined;
  const closedAt = earliest(remediated, fullyMitigatedAt);

  const evu = classTimeframe(rules, LIFECYCLE_RULES.evaluate, cls);
  const evaluationDueAt = isoSeconds(new Date(addCadence(Date.parse(group.first_detected), evu.timeframe)));
  const evaluationDue: Due = {
    rule: LIFECYCLE_RULES.evaluate,
    at: evaluationDueAt,
    force: evu.force,
    overdue: evaluatedAt === undefined && !falsePositive && remediated === undefined && t > Date.parse(evaluationDueAt),
  };

  let accepted: GroupJudgment['accepted'];
  if (decision !== undefined) accepted = { at: decision.at, by: 'decision', rationale: decision.rationale };
  else if (evaluatedAt !== undefined && !falsePositive) {
    const { at, mav } = acceptanceAt(rules, evaluatedAt);
    if (t > at && (closedAt === undefined || Date.parse(closedAt) > at)) {
      accepted = {
        at: isoSeconds(new Date(at)),
        by: 'VER-TFR-MAV',
        rationale: `not fully mitigated or remediated within ${mav.num} ${mav.unit} of its evaluation on ${evaluatedAt.slice(0, 10)}`,
      };
    }
  }
  /** Still to be handled: not closed, not a false positive, not accepted. */
  const pending = closedAt === undefined && !falsePositive && accepted === undefined;

  let mitigation: Due | undefined;
  if (n !== undefined && nSetAt !== undefined && lev !== undefined) {
    const cell = painCell(rules, cls, n, irv === true && lev ? 'irv_lev' : lev ? 'nirv_lev' : 'nlev');
    if (cell !== undefined) {
      const at = isoSeconds(new Date(addCadence(Date.parse(nSetAt), cell.timeframe)));
      mitigation = { rule: LIFECYCLE_RULES.mitigate, at, force: cell.force, overdue: pending && t > Date.parse(at) };
    }
  }

  let kevDue: Due | undefined;
  if (kev !== undefined) {
    // Due by the end of the catalog's dueDate, overdue from the next day; even a fully mitigated or accepted KEV
    // entry is late until a run no longer detects it.
    const at = endOfDay(kev.dueDate);
    kevDue = {
      rule: LIFECYCLE_RULES.kev,
      at,
      force: forceOf(rules, LIFECYCLE_RULES.kev, cls),
      overdue: !falsePositive && remediated === undefined && t > Date.parse(at),
    };
  }

  const state: VulnerabilityState = falsePositive
    ? 'false-positive'
    : remediated !== undefined
      ? 'remediated'
      : accepted !== undefined
        ? 'accepted'
        : fullyMitigatedAt !== undefined || partial
          ? 'mitigated'
          : evaluatedAt !== undefined
            ? 'evaluated'
            : 'detected';

  // A fully mitigated vulnerability's likelihood or impact is negligible (FRD-FMV): no longer an incident either.
  const open = state !== 'false-positive' && state !== 'remediated' && fullyMitigatedAt === undefined;
  const above = releaseFact(rules, LIFECYCLE_RULES.internetIncident, cls)?.value;
  const five = releaseFact(rules, LIFECYCLE_RULES.otherIncident, cls)?.value;
  const incident = {
    internet: open && irv === true && lev === true && n !== undefined && above !== undefined && n > above,
    other: open && irv === false && lev === true && n !== undefined && five !== undefined && n >= five,
  };
  const incidentForce = incident.internet
    ? forceOf(rules, LIFECYCLE_RULES.internetIncident, cls)
    : incident.other
      ? forceOf(rules, LIFECYCLE_RULES.otherIncident, cls)
      : undefined;

  const reasons: string[] = [];
  if (evaluationDue.overdue)
    reasons.push(`not evaluated within ${evu.timeframe.num} ${evu.timeframe.unit} of detection (${LIFECYCLE_RULES.evaluate}, due ${evaluationDue.at})`);
  if (mitigation?.overdue) reasons.push(`N${n} not mitigated or remediated by ${mitigation.at} (${LIFECYCLE_RULES.mitigate})`);
  if (kevDue?.overdue) reasons.push(`KEV due ${kev!.dueDate} and still detected (${LIFECYCLE_RULES.kev})`);
  const dues = [evaluationDue, mitigation, kevDue]
    .filter((d): d is Due => d?.overdue === true)
    .map((d) => d.at)
    .sort();

  return {
    finding_id: group.finding_id,
    state,
    ...(irv === undefined ? {} : { irv }),
    ...(lev === undefined ? {} : { lev }),
    ...(n === undefined ? {} : { n }),
    ...(evaluatedAt === undefined ? {} : { evaluated_at: evaluatedAt }),
    reductions,
    ...(nextReduction === undefined ? {} : { next_reduction: nextReduction }),
    due: { evaluation: evaluationDue, ...(mitigation === undefined ? {} : { mitigation }), ...(kevDue === undefined ? {} : { kev: kevDue }) },
    overdue: { is: reasons.length > 0, reasons, ...(dues.length > 0 ? { due_at: dues[0] } : {}) },
    incident: { ...incident, ...(incidentForce === undefined ? {} : { force: incidentForce }) },
    ...(accepted === undefined ? {} : { accepted }),
    ...(remediated === undefined ? {} : { remediated_at: remediated }),
    ...(fullyMitigatedAt !== undefined
      ? { mitigation: { extent: 'full' as const, at: fullyMitigatedAt } }
      : partial
        ? { mitigation: { extent: 'partial' as const } }
        : {}),
  };
}

/**
 * The next due time that still counts for a group: none once it is remediated, a false positive, accepted or fully
 * mitigated (a KEV due date aside); the mitigation due time once evaluated; else the evaluation due time. The KEV due
 * time when it is earlier, or the only one left.
 */
export function nextDue(j: Pick<GroupJudgment, 'state' | 'mitigation' | 'due' | 'evaluated_at'>): string | undefined {
  if (j.state === 'remediated' || j.state === 'false-positive') return undefined;
  const kev = j.due.kev?.at;
  const handled = j.state === 'accepted' || j.mitigation?.extent === 'full';
  const own = handled ? undefined : j.evaluated_at === undefined ? j.due.evaluation.at : j.due.mitigation?.at;
  if (own === undefined) return kev;
  return kev !== undefined && Date.parse(kev) < Date.parse(own) ? kev : own;
}

/** When VER-TFR-MAV accepts a group evaluated at `evaluatedAt` that is not handled by then (ms), and the timeframe. */
function acceptanceAt(rules: Pick<Cr26Rules, 'rules' | 'info'>, evaluatedAt: string): { at: number; mav: { unit: Cr26Timeframe['unit']; num: number } } {
  const mav = ruleTimeframe(rules, LIFECYCLE_RULES.accept);
  return { at: addCadence(Date.parse(evaluatedAt), mav), mav };
}

/**
 * The first instant after `now` (ms) at which the group's judgment changes by time alone, with nothing recorded: a due
 * time passing unmet (the group is overdue from the second after it), or VER-TFR-MAV's acceptance. Undefined when
 * time alone changes nothing more (remediated, a false positive, accepted; fully mitigated with no KEV due ahead).
 * The trust center rebuilds its documents then (DESIGN §12.7), not on every request.
 */
export function nextJudgmentChange(j: GroupJudgment, rules: Pick<Cr26Rules, 'rules' | 'info'>, now: Date): number | undefined {
  if (j.state === 'remediated' || j.state === 'false-positive') return undefined;
  const after = (at: string | undefined) => (at === undefined ? [] : [Date.parse(at) + 1000]);
  const handled = j.state === 'accepted' || j.mitigation?.extent === 'full';
  const times = [
    ...(j.due.kev?.overdue === false ? after(j.due.kev.at) : []),
    ...(handled
      ? []
      : j.evaluated_at === undefined
        ? after(j.due.evaluation.at)
        : [...after(j.due.mitigation?.overdue === false ? j.due.mitigation.at : undefined), acceptanceAt(rules, j.evaluated_at).at + 1000]),
  ].filter((t) => t > now.getTime());
  return times.length === 0 ? undefined : Math.min(...times);
}

/** `VER-TFR-EVU`'s force and timeframe for the class. */
function classTimeframe(
  rules: Pick<Cr26Rules, 'rules' | 'info'>,
  id: string,
  cls: Cr26Class,
): { force: Cr26Force; timeframe: { unit: Cr26Timeframe['unit']; num: number } } {
  const variant = ruleOf(rules, id).varies_by_class?.[cls];
  const num = variant?.timeframe?.num ?? variant?.timeframe?.max;
  if (variant === undefined || variant.timeframe === undefined || num === undefined) throw missing(rules, `${id} gives no timeframe for Class ${cls}`);
  return { force: variant.force, timeframe: { unit: variant.timeframe.unit, num } };
}

/** A rule's own timeframe (VER-TFR-MAV's 192 days). */
function ruleTimeframe(rules: Pick<Cr26Rules, 'rules' | 'info'>, id: string): { unit: Cr26Timeframe['unit']; num: number } {
  const t = ruleOf(rules, id).timeframe;
  const num = t?.num ?? t?.max;
  if (t === undefined || num === undefined) throw missing(rules, `${id} gives no timeframe`);
  return { unit: t.unit, num };
}

/** VDR-TFR-PVR's cell for the class, N-rating and category; undefined where the table has none (N1, N0). */
export function painCell(
  rules: Pick<Cr26Rules, 'rules' | 'info'>,
  cls: Cr26Class,
  n: NRating,
  category: 'irv_lev' | 'nirv_lev' | 'nlev',
): { force: Cr26Force; timeframe: { unit: Cr26Timeframe['unit']; num: number } } | undefined {
  const variant = ruleOf(rules, LIFECYCLE_RULES.mitigate).varies_by_class?.[cls];
  if (variant?.pain_timeframes === undefined) throw missing(rules, `${LIFECYCLE_RULES.mitigate} gives no table for Class ${cls}`);
  const timeframe = painTimeframe(variant.pain_timeframes, n, category);
  return timeframe === undefined ? undefined : { force: variant.force, timeframe };
}

function forceOf(rules: Pick<Cr26Rules, 'rules' | 'info'>, id: string, cls: Cr26Class): Cr26Force | undefined {
  const rule = ruleOf(rules, id);
  return rule.varies_by_class?.[cls]?.force ?? rule.force;
}

function ruleOf(rules: Pick<Cr26Rules, 'rules' | 'info'>, id: string) {
  const rule = rules.rules.find((r) => r.id === id);
  if (rule === undefined) throw missing(rules, `no rule ${id}`);
  return rule;
}

function missing(rules: Pick<Cr26Rules, 'info'>, what: string): InvalidInputError {
  return new InvalidInputError(
    'no-timeframe',
    `CR26 ${rules.info.version}: ${what}, so svc cannot judge vulnerabilities; use a release that gives it (SVC_FEDRAMP_RULES)`,
  );
}

function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}
