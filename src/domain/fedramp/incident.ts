import { isoSeconds } from '../encoding/iso-time';
import type { ContentDigest } from '../evidence/content-digest';
import { markdownText } from '../encoding/markdown';
import { InvalidInputError } from '../errors';
import { evaluationWords } from '../vulnerabilities/activity-report';
import { judgeGroup, LIFECYCLE_RULES, type GroupHistory, type GroupJudgment, type NRating } from '../vulnerabilities/lifecycle';
import type { StoredGroup } from '../vulnerabilities/groups';
import { ratingRange, SCHEMA_RATINGS } from '../vulnerabilities/pain-ratings';
import type { VulnerabilityGroup } from '../vulnerabilities/vulnerability-reports';
import { painTimeframe, type Cr26Class, type Cr26Force, type Cr26Rules, type Cr26TimeUnit } from './cr26-rules';
import { addCadence, timeframeText, type HolidayTest } from './evidence-cadence';
import type { Cr26Shapes } from './schema-shapes';
import type { IncidentDocument, IncidentPotentialImpact, IncidentTimeline, IncidentTimelineMilestone } from './incident-document';
import { twinHeader, type TwinHeader } from './twin';

/** The three reports of an incident's life (IEC-CSO-IIR, IEC-CSO-OIR, IEC-CSO-FIR), as `--type` names them. */
export const INCIDENT_REPORT_TYPES = ['initial', 'ongoing', 'final'] as const;
export type IncidentReportType = (typeof INCIDENT_REPORT_TYPES)[number];

/** The rule each report answers, whose class's `pain_timeframes` time it. */
export const INCIDENT_RULES: Record<IncidentReportType, string> = { initial: 'IEC-CSO-IIR', ongoing: 'IEC-CSO-OIR', final: 'IEC-CSO-FIR' };

/** The category key of each rule's `pain_timeframes` cells in the rules file. */
const CELLS: Record<IncidentReportType, string> = { initial: 'iir', ongoing: 'oir', final: 'fir' };

/** The schema's `reportType`, and the rules' name of each report (the Markdown twin's title). */
const SCHEMA_TYPES: Record<IncidentReportType, IncidentDocument['reportType']> = { initial: 'Initial', ongoing: 'Ongoing', final: 'Final' };

/** IEC-CSO-DPR: an incident whose PAIN is not estimated is treated as N5. */
export const DEFAULT_PAIN: NRating = 5;

/** What the rules data gives one report for a class and N-rating. */
export interface IncidentTimeframe {
  rule: string;
  class: Cr26Class;
  n: NRating;
  force: Cr26Force;
  timeframe: { unit: Cr26TimeUnit; num: number };
}

/** When a report is due: the timeframe counted from an instant (ISO-8601 UTC, both). */
export interface IncidentDue extends IncidentTimeframe {
  from: string;
  at: string;
}

/**
 * The timeframe of a report for a Certification Class at an N-rating, from the rule's `varies_by_class`
 * `pain_timeframes` (IEC-CSO-IIR's `iir`, IEC-CSO-OIR's `oir`, IEC-CSO-FIR's `fir`): hours, fractional ones included
 * (Class D's 0.25 = 15 minutes), or business days. Throws InvalidInputError `no-timeframe` naming the rule when the
 * rules data lacks it.
 */
export function incidentTimeframe(rules: Pick<Cr26Rules, 'rules' | 'info'>, type: IncidentReportType, cls: Cr26Class, n: NRating): IncidentTimeframe {
  const id = INCIDENT_RULES[type];
  const rule = rules.rules.find((r) => r.id === id);
  if (rule === undefined) throw noTimeframe(rules, `no rule ${id}`, type);
  const variant = rule.varies_by_class?.[cls];
  if (variant?.pain_timeframes === undefined) throw noTimeframe(rules, `${id} gives no pain_timeframes for Class ${cls}`, type);
  const timeframe = painTimeframe(variant.pain_timeframes, n, CELLS[type]);
  if (timeframe === undefined) throw noTimeframe(rules, `${id} gives no ${CELLS[type]} timeframe for Class ${cls} at N${n}`, type);
  return { rule: id, class: cls, n, force: variant.force, timeframe };
}

/**
 * When a report is due: its timeframe counted from `from` (hours as fixed lengths; business days skipping weekends
 * and, given `holiday`, US federal holidays, keeping the time of day).
 */
export function incidentDue(
  rules: Pick<Cr26Rules, 'rules' | 'info'>,
  type: IncidentReportType,
  cls: Cr26Class,
  n: NRating,
  from: string,
  holiday?: HolidayTest,
): IncidentDue {
  const t = incidentTimeframe(rules, type, cls, n);
  return { ...t, from, at: isoSeconds(new Date(addCadence(Date.parse(from), t.timeframe, holiday))) };
}

/** `15 minutes` for a fractional hour the data gives (0.25), else as the rules say it: `6 hours`, `1 business day`. */
export function timeframeWords(t: { unit: Cr26TimeUnit; num: number }): string {
  const minutes = t.num * 60;
  if (t.unit === 'hours' && t.num < 1 && Number.isInteger(minutes)) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  return timeframeText(t);
}

/** `IEC-CSO-IIR, Class D, N5: 15 minutes`: the rule, class, rating and timeframe a due time comes from. */
export function dueBasis(d: IncidentTimeframe): string {
  return `${d.rule}, Class ${d.class}, N${d.n}: ${timeframeWords(d.timeframe)}`;
}

const CVE = /^CVE-\d{4}-\d{4,}$/i;

/** Only the CVE ids among `ids` (`relatedCveIds` holds nothing else), upper-cased, each once, in order. */
export function cveIds(ids: readonly string[]): string[] {
  return [
    ...new Set(
      ids
        .map((id) => id.trim())
        .filter((id) => CVE.test(id))
        .map((id) => id.toUpperCase()),
    ),
  ];
}

/**
 * The provider tracking id of an incident drafted from a vulnerability group: `INC-` and the first 16 hex digits of
 * the SHA-256 of the group's tracking id, so every report of it (initial, ongoing, final) carries the same one.
 */
export function groupIncidentId(groupTrackingId: string, digest: Pick<ContentDigest, 'sha256'>): string {
  return `INC-${digest.sha256(groupTrackingId).slice(0, 16)}`;
}

/** The tracking id of an incident reported from flags alone: stable for the same summary and start time. */
export function flagsIncidentId(summary: string, occurredAt: string, digest: Pick<ContentDigest, 'sha256' | 'canonicalize'>): string {
  return `INC-${digest.sha256(digest.canonicalize({ summary, occurred_at: occurredAt })).slice(0, 16)}`;
}

/** The rule that flags a judged group as a reportable incident, if one does. */
export function incidentFlag(j: Pick<GroupJudgment, 'incident'>): typeof LIFECYCLE_RULES.internetIncident | typeof LIFECYCLE_RULES.otherIncident | undefined {
  return j.incident.internet ? LIFECYCLE_RULES.internetIncident : j.incident.other ? LIFECYCLE_RULES.otherIncident : undefined;
}

/**
 * When the group became the reportable incident it is at `now`: the first evaluation from which VER-TFR-IRI or
 * VER-TFR-NRI has flagged it without a break (its FedRAMP reportable incident evaluation, IEC-CSO-EFR: the reporting
 * clock starts there). Undefined when it is not flagged at `now`.
 */
export function incidentFlaggedAt(group: GroupHistory, rules: Pick<Cr26Rules, 'rules' | 'info'>, cls: Cr26Class, now: Date): string | undefined {
  const known = group.evaluations.map((e) => e.at).filter((at) => Date.parse(at) <= now.getTime());
  const times = [...new Set(known)].sort((a, b) => Date.parse(a) - Date.parse(b));
  let since: string | undefined;
  for (const at of times) {
    if (incidentFlag(judgeGroup(group, rules, cls, new Date(at))) === undefined) since = undefined;
    else since ??= at;
  }
  return incidentFlag(judgeGroup(group, rules, cls, now)) === undefined ? undefined : since;
}

/** One major event of the incident (the schema's milestone). */
export interface IncidentMilestone {
  at: string;
  what: string;
}

/** The PAIN ratings: the one in force now, the ones before it in order, and how it was estimated. */
export interface IncidentRating {
  current: NRating;
  /** Earlier ratings, oldest first (the current one may end the list; consecutive repeats are dropped on output). */
  history: NRating[];
  notes?: string;
}

/** What an incident report says, built from a group or from flags, and written as JSON and its Markdown twin. */
export interface IncidentReportModel {
  type: IncidentReportType;
  packageUri: string;
  trackingId: string;
  description: string;
  timeline: { startedAt?: string; detectedAt?: string; detectionSource?: string; evaluationCompletedAt?: string; milestones: IncidentMilestone[] };
  rating: IncidentRating;
  recoveryPlan?: string;
  agencies: string[];
  observedActivity?: string;
  /** Candidate ids; only CVE ids are written (cveIds). */
  relatedCveIds: string[];
  responseAndRecovery?: string;
  resolvedAt?: string;
  lessons: string[];
}

/** What a vulnerability group tells about the incident it is (svc knows nothing of compromise, root cause or data types). */
export interface GroupIncidentFacts {
  description: string;
  detectedAt: string;
  detectionSource: string;
  evaluationCompletedAt?: string;
  milestones: IncidentMilestone[];
  /** The group's N-rating now, its changes (when each was set), and the evaluation that set it. */
  rating: { current?: NRating; history: { at: string; n: NRating }[]; notes?: string };
  recoveryPlan?: string;
  observedActivity: string;
  relatedCveIds: string[];
  responseAndRecovery?: string;
}

/**
 * The incident facts of a judged group: the description from its finding, title, resources and the flag; the
 * timeline from its detection and every evaluation known (`flaggedAt` is when it became reportable); observed
 * activity from its detections; the recovery plan from the mitigation due time (VDR-TFR-PVR) and the projected next
 * reduction; response and recovery from recorded mitigations and remediation.
 */
export function groupIncidentFacts(
  group: VulnerabilityGroup & Pick<StoredGroup, 'detections'>,
  judgment: GroupJudgment,
  flaggedAt?: string,
): GroupIncidentFacts {
  const on = group.resources.join(', ');
  const flag = incidentFlag(judgment);
  const why = flag === undefined ? '' : `; a FedRAMP reportable incident under ${flag} (${flagWords(judgment)})`;
  const milestones: IncidentMilestone[] = [{ at: group.first_detected, what: `${group.finding_id} first detected by ${group.sources.join(', ')} on ${on}` }];
  for (const e of group.evaluations) milestones.push({ at: e.at, what: capital(evaluationWords(e)) });
  if (flaggedAt !== undefined && flag !== undefined) milestones.push({ at: flaggedAt, what: `Identified as a FedRAMP reportable incident (${flag})` });
  if (judgment.remediated_at !== undefined) milestones.push({ at: judgment.remediated_at, what: `${group.finding_id} no longer detected (remediated)` });

  const plan: string[] = [];
  if (judgment.due.mitigation !== undefined && judgment.mitigation?.extent !== 'full' && judgment.remediated_at === undefined) {
    plan.push(`Mitigate or remediate ${group.finding_id} by ${judgment.due.mitigation.at} (${judgment.due.mitigation.rule}, N${judgment.n})`);
  }
  if (judgment.next_reduction !== undefined) plan.push(`projected reduction to N${judgment.next_reduction.n} by ${judgment.next_reduction.at}`);

  const done: string[] = [];
  for (const e of group.evaluations)
    if (e.mitigated !== undefined) done.push(`${e.at}: ${e.mitigated === 'full' ? 'fully' : 'partially'} mitigated (${e.by}): ${e.reason}`);
  if (judgment.remediated_at !== undefined) done.push(`${judgment.remediated_at}: remediated, no longer detected`);

  const setter = [...group.evaluations].reverse().find((e) => e.n !== undefined && e.n === judgment.n);
  const detections = `${group.detections} ${group.detections === 1 ? 'detection' : 'detections'}`;
  return {
    description: `${group.finding_id}: ${group.title} on ${on}${why}`,
    detectedAt: group.first_detected,
    detectionSource: group.sources.join(', '),
    ...(flaggedAt === undefined ? {} : { evaluationCompletedAt: flaggedAt }),
    milestones,
    rating: {
      ...(judgment.n === undefined ? {} : { current: judgment.n }),
      history: judgment.reductions.map((r) => ({ at: r.at, n: r.to })),
      ...(setter === undefined ? {} : { notes: `N${setter.n} by ${setter.by} at ${setter.at}: ${setter.reason}` }),
    },
    ...(plan.length === 0 ? {} : { recoveryPlan: sentence(plan.join('; ')) }),
    observedActivity: `${group.finding_id} (${group.title}) detected by ${group.sources.join(', ')} on ${group.resources.length === 1 ? '1 resource' : `${group.resources.length} resources`}: ${on}; first detected ${group.first_detected}, last seen ${group.last_seen} (${detections})${judgment.remediated_at === undefined ? '' : `; no longer detected from ${judgment.remediated_at}`}.`,
    relatedCveIds: cveIds([group.finding_id]),
    ...(done.length === 0 ? {} : { responseAndRecovery: sentence(done.join('; ')) }),
  };
}

/** Which form `potentialImpact` takes in the schema in use, as the schemas decide it (cr26Shapes, the one place that reads it). */
export type PotentialImpactForm = Cr26Shapes['potentialImpact'];

/**
 * The incident report in FedRAMP's schema (IEC-CSO-IIR/OIR/FIR): what svc holds, nothing it does not (no
 * coordinator contact, functional impact, indicators of compromise or root cause: the provider's to give).
 * `relatedCveIds` keeps only CVE ids; `potentialImpact` takes `form`; a Final report carries `resolvedAt`.
 */
export function buildIncidentReport(m: IncidentReportModel, form: PotentialImpactForm, ratings: readonly NRating[] = SCHEMA_RATINGS): IncidentDocument {
  const t = m.timeline;
  const milestones = sortedMilestones(t.milestones).map((x): IncidentTimelineMilestone => ({ occurredAt: x.at, milestoneDescription: x.what }));
  const timeline: IncidentTimeline = {
    ...(t.startedAt === undefined ? {} : { startedAt: t.startedAt }),
    ...(t.detectedAt === undefined ? {} : { detectedAt: t.detectedAt }),
    ...(t.detectionSource === undefined ? {} : { detectionSource: t.detectionSource }),
    ...(t.evaluationCompletedAt === undefined ? {} : { evaluationCompletedAt: t.evaluationCompletedAt }),
    ...(milestones.length === 0 ? {} : { milestones }),
  };
  const cves = cveIds(m.relatedCveIds);
  const response = [m.responseAndRecovery, m.lessons.length === 0 ? undefined : `Lessons learned: ${m.lessons.join('; ')}.`].filter(
    (s): s is string => s !== undefined,
  );
  return {
    certificationPackageOverviewUri: m.packageUri,
    reportType: SCHEMA_TYPES[m.type],
    providerTrackingId: m.trackingId,
    incidentDescription: m.description,
    ...(Object.keys(timeline).length === 0 ? {} : { timeline }),
    potentialImpact: form === 'object' ? ratingObject(m.rating, ratings) : ratingText(m.rating),
    ...(m.recoveryPlan === undefined ? {} : { recoveryPlan: m.recoveryPlan }),
    ...(m.agencies.length === 0 ? {} : { affectedAgencies: m.agencies }),
    ...(m.observedActivity === undefined ? {} : { observedActivity: m.observedActivity }),
    ...(cves.length === 0 ? {} : { relatedCveIds: cves }),
    ...(response.length === 0 ? {} : { responseAndRecoveryActivities: response.join(' ') }),
    ...(m.resolvedAt === undefined ? {} : { resolvedAt: m.resolvedAt }),
  };
}

/** The ratings oldest first, ending with the current one, without consecutive repeats. */
export function ratingHistory(r: IncidentRating): NRating[] {
  const all = [...r.history, r.current];
  return all.filter((n, i) => i === 0 || n !== all[i - 1]);
}

/**
 * The ratings as the schema's nRating carries them (`ratings`: 1 to 5 in every generation so far): a rating it cannot
 * carry (N0, VER-EVA-EPA from 2026.10.05.01) is left out of historicalRating and currentRating and said in
 * evaluationNotes instead.
 */
function ratingObject(r: IncidentRating, ratings: readonly NRating[]): IncidentPotentialImpact {
  const history = ratingHistory(r);
  const unwritable = [...new Set(history.filter((n) => !ratings.includes(n)))];
  const notes = [
    ...(r.notes === undefined ? [] : [sentence(r.notes)]),
    ...(unwritable.length === 0
      ? []
      : [
          `Rated ${ratingRange(unwritable)} ${unwritable.includes(r.current) ? 'now' : 'before'} (VER-EVA-EPA): the schema's N-ratings are ${ratingRange(ratings)}, so ${ratingRange(unwritable)} is not in historicalRating or currentRating.`,
        ]),
  ];
  return {
    historicalRating: history.filter((n) => ratings.includes(n)),
    ...(ratings.includes(r.current) ? { currentRating: r.current } : {}),
    ...(notes.length === 0 ? {} : { evaluationNotes: unwritable.length === 0 ? r.notes : notes.join(' ') }),
  };
}

/** `Potential Agency Impact N-rating (PAIN): N3 (historically N5, then N3). Evaluation: …`. */
export function ratingText(r: IncidentRating): string {
  const history = ratingHistory(r);
  const before = history.length > 1 ? ` (historically ${history.map((n) => `N${n}`).join(', then ')})` : '';
  return `Potential Agency Impact N-rating (PAIN): N${r.current}${before}.${r.notes === undefined ? '' : ` Evaluation: ${sentence(r.notes)}`}`;
}

/** The report's title as the rules name it: `Initial Incident Report`. */
export function incidentTitle(type: IncidentReportType): string {
  return `${SCHEMA_TYPES[type]} Incident Report`;
}

/** The Markdown twin of an incident report, from the same model, every provider or scanner text through markdownText. */
export function incidentMarkdown(m: IncidentReportModel, due: IncidentDue, header: Omit<TwinHeader, 'title'>): string {
  const cell = (text: string) => markdownText(text);
  const lines = [
    ...twinHeader({ ...header, title: incidentTitle(m.type) }),
    '## Report',
    '',
    '| Field | Value |',
    '| --- | --- |',
    `| Report type | ${SCHEMA_TYPES[m.type]} (${INCIDENT_RULES[m.type]}) |`,
    `| Provider tracking id | ${cell(m.trackingId)} |`,
    `| Due | ${due.at} (${dueBasis(due)}, from ${due.from}) |`,
    `| Potential Agency Impact N-rating | ${ratingHistory(m.rating)
      .map((n) => `N${n}`)
      .join(' → ')} |`,
    ...(m.timeline.startedAt === undefined ? [] : [`| Started | ${m.timeline.startedAt} |`]),
    ...(m.resolvedAt === undefined ? [] : [`| Resolved | ${m.resolvedAt} |`]),
    '',
    '## Description',
    '',
    cell(m.description),
    '',
  ];
  const milestones = sortedMilestones(m.timeline.milestones);
  const t = m.timeline;
  const facts = [
    t.detectedAt === undefined ? undefined : `- Detected: ${t.detectedAt}${t.detectionSource === undefined ? '' : ` by ${cell(t.detectionSource)}`}`,
    t.evaluationCompletedAt === undefined ? undefined : `- Reportable incident evaluation completed: ${t.evaluationCompletedAt}`,
  ].filter((s): s is string => s !== undefined);
  if (facts.length > 0 || milestones.length > 0) {
    lines.push('## Timeline', '');
    if (facts.length > 0) lines.push(...facts, '');
    if (milestones.length > 0) lines.push('| Time | Milestone |', '| --- | --- |', ...milestones.map((x) => `| ${x.at} | ${cell(x.what)} |`), '');
  }
  lines.push('## Potential impact', '', cell(ratingText(m.rating)), '');
  const section = (title: string, text: string | undefined) => {
    if (text !== undefined) lines.push(`## ${title}`, '', cell(text), '');
  };
  section('Recovery plan', m.recoveryPlan);
  if (m.agencies.length > 0) lines.push('## Likely affected agencies', '', ...m.agencies.map((a) => `- ${cell(a)}`), '');
  section('Observed activity', m.observedActivity);
  const cves = cveIds(m.relatedCveIds);
  if (cves.length > 0) lines.push('## Related CVE ids', '', ...cves.map((c) => `- ${markdownText(c)}`), '');
  section('Response and recovery activities', m.responseAndRecovery);
  if (m.lessons.length > 0) lines.push('## Lessons learned', '', ...m.lessons.map((l) => `- ${cell(l)}`), '');
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

function sortedMilestones(milestones: readonly IncidentMilestone[]): IncidentMilestone[] {
  return milestones
    .map((x, i) => ({ x, i }))
    .sort((a, b) => Date.parse(a.x.at) - Date.parse(b.x.at) || a.i - b.i)
    .map(({ x }) => x);
}

function flagWords(j: GroupJudgment): string {
  return j.incident.internet ? `internet-reachable, likely exploitable, N${j.n}` : `likely exploitable, not internet-reachable, N${j.n}`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A clause as a sentence: first letter upper-case, a full stop unless it ends with one. */
function sentence(text: string): string {
  const s = capital(text);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

function noTimeframe(rules: Pick<Cr26Rules, 'info'>, what: string, type: IncidentReportType): InvalidInputError {
  return new InvalidInputError(
    'no-timeframe',
    `CR26 ${rules.info.version}: ${what}, so svc cannot time the ${type} incident report; use a release that gives it (SVC_FEDRAMP_RULES)`,
  );
}
