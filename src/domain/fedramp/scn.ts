import { endOfDay } from '../encoding/iso-time';
import { markdownLiteral, markdownText } from '../encoding/markdown';
import { isIsoTime } from '../encoding/json-values';
import { InvalidInputError, UsageError } from '../errors';
import type { Cr26Class, Cr26Rules, Cr26TimeUnit } from './cr26-rules';
import { addCadence, timeframeText, type HolidayTest } from './evidence-cadence';
import type { Recorded, ScnNotice, ScnRecord } from './ongoing-records';
import type { ReadinessItem } from './readiness';
import type { ScnDocument, ScnMilestone } from './scn-document';
import { fedrampControlId } from './sdr';
import { quotedMarkdown, twinHeader, type TwinHeader } from './twin';

/** A significant change that is notified (SCN-CSO-EVA): routine recurring changes are not (SCN-RTR-NNR). */
export type ScnType = ScnRecord['type'];
export const SCN_TYPES: readonly ScnType[] = ['adaptive', 'transformative'];

/** The rule that exempts routine recurring changes from notification. */
export const ROUTINE_RULE = 'SCN-RTR-NNR';

/** The day a notice counts from: the change's start, its finish, or the end of its verification. */
export type ScnAnchor = 'start' | 'finish' | 'verified';

/** One notice a change type owes: the rule that sets it, what it is, the day it counts from and which way. */
export interface ScnNoticeRule {
  rule: string;
  notice: string;
  from: ScnAnchor;
  direction: 'before' | 'after';
}

/**
 * The notices each type owes (DESIGN §12.5). Only which rule and which day are written here: every number comes from
 * the rule's timeframe in the rules data (scnTimeframe).
 */
export const SCN_NOTICES: Record<ScnType, readonly ScnNoticeRule[]> = {
  transformative: [
    { rule: 'SCN-TRF-NIP', notice: 'initial plans', from: 'start', direction: 'before' },
    { rule: 'SCN-TRF-NFP', notice: 'final plans', from: 'start', direction: 'before' },
    { rule: 'SCN-TRF-NAF', notice: 'after finishing', from: 'finish', direction: 'after' },
    { rule: 'SCN-TRF-NAV', notice: 'after verification', from: 'verified', direction: 'after' },
  ],
  adaptive: [{ rule: 'SCN-ADP-NTF', notice: 'after finishing', from: 'finish', direction: 'after' }],
};

/** The flag that gives each day, and how a notice names it. */
export const SCN_ANCHORS: Record<ScnAnchor, { flag: string; words: string }> = {
  start: { flag: '--start', words: 'the start' },
  finish: { flag: '--finish', words: 'the finish' },
  verified: { flag: '--verified', words: 'the verification' },
};

/** The days a change gives, `YYYY-MM-DD`. */
export type ScnDates = Partial<Record<ScnAnchor, string>>;

/** A notice with its last day, and how that day was counted. */
export interface DatedScnNotice extends ScnNotice {
  /** YYYY-MM-DD: the last day the notice may be sent (`due` is its end). */
  date: string;
  timeframe: { unit: Cr26TimeUnit; num: number };
  from: ScnAnchor;
  direction: 'before' | 'after';
  /** YYYY-MM-DD: the day counted from. */
  on: string;
}

/** A notice that cannot be dated yet: the day it counts from was not given. */
export interface UndatedScnNotice {
  rule: string;
  notice: string;
  from: ScnAnchor;
  flag: string;
}

/**
 * `--type` as a significant change type. Routine recurring changes are exempt from notification (SCN-RTR-NNR), so
 * `routine` is a usage error that says so, with the rule's force as the rules data gives it; nothing else is a type.
 */
export function scnChangeType(value: string, rules: Pick<Cr26Rules, 'rules'>): ScnType {
  const given = value.trim().toLowerCase();
  const type = SCN_TYPES.find((t) => t === given);
  if (type !== undefined) return type;
  if (given === 'routine' || given === 'routine-recurring') {
    const force = rules.rules.find((r) => r.id === ROUTINE_RULE)?.force;
    const why =
      force === undefined
        ? `routine recurring changes are not notified (${ROUTINE_RULE})`
        : `routine recurring changes are not notified: providers ${force} make formal Significant Change Notifications for them (${ROUTINE_RULE})`;
    throw new UsageError('routine-change', `--type ${value}: ${why}; nothing written or recorded`);
  }
  throw new UsageError(
    'bad-flag-value',
    `--type ${value}: not a significant change type; write adaptive or transformative (routine recurring changes are not notified, ${ROUTINE_RULE})`,
  );
}

/**
 * The days as the SCN records them: `YYYY-MM-DD` as written (of a time with a zone, the day in that zone, the day the
 * provider means). A day that is not in the calendar, a finish before the start or a verification before either is a
 * usage error naming both flags.
 */
export function scnDates(given: ScnDates): ScnDates {
  const dates: ScnDates = {};
  for (const anchor of ['start', 'finish', 'verified'] as const) {
    const value = given[anchor];
    if (value === undefined) continue;
    const day = value.slice(0, 10);
    if (!isIsoTime(day)) throw new UsageError('bad-time', `${SCN_ANCHORS[anchor].flag} ${value}: not a day of the calendar; write a date such as 2027-01-14`);
    dates[anchor] = day;
  }
  const order = (later: ScnAnchor, earlier: ScnAnchor, what: string) => {
    const [a, b] = [dates[later], dates[earlier]];
    if (a !== undefined && b !== undefined && a < b) {
      throw new UsageError(
        'bad-period',
        `${SCN_ANCHORS[later].flag} ${a} is before ${SCN_ANCHORS[earlier].flag} ${b}; give ${what}, on or after ${SCN_ANCHORS[earlier].words}`,
      );
    }
  };
  order('finish', 'start', 'the day the change finishes');
  order('verified', 'start', 'the day its verification, assessment and/or validation completed');
  order('verified', 'finish', 'the day its verification, assessment and/or validation completed');
  return dates;
}

/**
 * A notice rule's timeframe as the rules data gives it: the rule's own, or the class's where the rule varies by
 * class. Where a release gives a range, the end that comes first is used (the longest before the start, the shortest
 * after the finish): a notice sent by then meets the rule whatever the range means. Throws InvalidInputError naming
 * the rule when the data lacks it or its timeframe.
 */
export function scnTimeframe(
  rules: Pick<Cr26Rules, 'rules' | 'info'>,
  notice: Pick<ScnNoticeRule, 'rule' | 'direction'>,
  cls?: Cr26Class,
): { unit: Cr26TimeUnit; num: number } {
  const found = timeframeOf(rules, notice, cls);
  if ('unit' in found) return found;
  if (found.problem === 'no-class') {
    throw new InvalidInputError(
      'invalid-config',
      `${notice.rule} gives its timeframe per Certification Class: give --class or write fedramp.class (A, B, C or D) in svc.config.json`,
    );
  }
  throw new InvalidInputError(
    'no-timeframe',
    `CR26 ${rules.info.version}: ${found.problem}, so svc cannot date the notices of a Significant Change Notification; use a release that gives it (SVC_FEDRAMP_RULES)`,
  );
}

/** scnTimeframe's reading, with what is missing as data: `no-class`, or what the rules data lacks. */
function timeframeOf(
  rules: Pick<Cr26Rules, 'rules'>,
  notice: Pick<ScnNoticeRule, 'rule' | 'direction'>,
  cls?: Cr26Class,
): { unit: Cr26TimeUnit; num: number } | { problem: string } {
  const id = notice.rule;
  const rule = rules.rules.find((r) => r.id === id);
  if (rule === undefined) return { problem: `no rule ${id}` };
  let t = rule.timeframe;
  if (rule.varies_by_class !== undefined) {
    if (cls === undefined) return { problem: 'no-class' };
    t = rule.varies_by_class[cls]?.timeframe;
    if (t === undefined) return { problem: `${id} gives no timeframe for Class ${cls}` };
  }
  const range = notice.direction === 'before' ? (t?.max ?? t?.min) : (t?.min ?? t?.max);
  const num = t?.num ?? range;
  if (t === undefined || num === undefined) return { problem: `${id} gives no timeframe` };
  return { unit: t.unit, num };
}

/**
 * The notices a change of `type` owes, each dated from the day it counts from by its rule's timeframe (business days
 * skip weekends and, by `holiday`, US federal holidays on their observed dates; "before the start" counts backwards),
 * in the order of SCN_NOTICES; the notices whose day was not given are listed apart with the flag that would date them.
 */
export function scnNotices(
  rules: Pick<Cr26Rules, 'rules' | 'info'>,
  type: ScnType,
  dates: ScnDates,
  holiday: HolidayTest,
  cls?: Cr26Class,
): { dated: DatedScnNotice[]; undated: UndatedScnNotice[] } {
  const dated: DatedScnNotice[] = [];
  const undated: UndatedScnNotice[] = [];
  for (const spec of SCN_NOTICES[type]) {
    const timeframe = scnTimeframe(rules, spec, cls);
    const on = dates[spec.from];
    if (on === undefined) {
      undated.push({ rule: spec.rule, notice: spec.notice, from: spec.from, flag: SCN_ANCHORS[spec.from].flag });
      continue;
    }
    const num = spec.direction === 'before' ? -timeframe.num : timeframe.num;
    const date = new Date(addCadence(Date.parse(`${on}T00:00:00Z`), { unit: timeframe.unit, num }, holiday)).toISOString().slice(0, 10);
    dated.push({ rule: spec.rule, notice: spec.notice, due: endOfDay(date), date, timeframe, from: spec.from, direction: spec.direction, on });
  }
  return { dated, undated };
}

/** `30 business days before the start 2027-01-04`. */
export function noticeCounting(n: Pick<DatedScnNotice, 'timeframe' | 'direction' | 'from' | 'on'>): string {
  return `${timeframeText(n.timeframe)} ${n.direction} ${SCN_ANCHORS[n.from].words} ${n.on}`;
}

/** What a drift report says the change touches (scn-drift.ts), as the SCN names it. */
export interface ScnImpact {
  /** KSI ids, then control ids (`ac-2.1`), each sorted. */
  ksis: readonly string[];
  controls: readonly string[];
  /** One paragraph for the impact analysis. */
  analysis: string;
}

/** What the provider says of the change besides its description (SCN-CSO-INF), each optional. */
export interface ScnStatements {
  explanation?: string;
  reason?: string;
  customerImpact?: string;
  impactAnalysis?: string;
  assessor?: string;
  vulnerability?: string;
}

export interface ScnInput {
  packageUri: string;
  type: ScnType;
  summary: string;
  dates: ScnDates;
  notices: { dated: readonly DatedScnNotice[]; undated: readonly UndatedScnNotice[] };
  impact?: ScnImpact;
  statements: ScnStatements;
}

const TYPE_WORDS: Record<ScnType, ScnDocument['changeType']> = { adaptive: 'Adaptive', transformative: 'Transformative' };
const ANCHOR_MILESTONES: Record<ScnAnchor, string> = {
  start: 'The change starts',
  finish: 'The change is finished',
  verified: 'Verification, assessment and/or validation of the change is complete',
};

/**
 * A Significant Change Notification in FedRAMP's schema (SCN-CSO-INF): the package URI, the type as the schema's enum
 * writes it, the description, what the provider stated, the plan and timeline (the days given, each notice as a
 * milestone with its rule, and a summary saying how the days were counted), and, from a drift report, the KSIs and
 * controls to verify (`impactedControls`, controls as FedRAMP writes them) and the drift in the impact analysis.
 */
export function buildScn(input: ScnInput): ScnDocument {
  const { dates, statements: s } = input;
  const milestones = [
    ...input.notices.dated.map((n): ScnMilestone => ({
      milestoneDescription: `Notify all necessary parties: ${n.notice} (${n.rule}), ${noticeCounting(n)}`,
      targetDate: n.date,
    })),
    ...(['start', 'finish', 'verified'] as const).flatMap((a) =>
      dates[a] === undefined ? [] : [{ milestoneDescription: ANCHOR_MILESTONES[a], targetDate: dates[a]! }],
    ),
  ].sort((a, b) => (a.targetDate < b.targetDate ? -1 : a.targetDate > b.targetDate ? 1 : 0));
  const impacted = input.impact === undefined ? [] : [...input.impact.ksis, ...input.impact.controls.map(fedrampControlId)];
  const analysis = [s.impactAnalysis, input.impact?.analysis].filter((t): t is string => t !== undefined && t.trim() !== '');
  return {
    certificationPackageOverviewUri: input.packageUri,
    ...(s.assessor === undefined ? {} : { assessorName: s.assessor }),
    ...(s.vulnerability === undefined ? {} : { relatedVulnerability: s.vulnerability }),
    changeType: TYPE_WORDS[input.type],
    ...(s.explanation === undefined ? {} : { changeTypeExplanation: s.explanation }),
    changeDescription: input.summary,
    ...(s.reason === undefined ? {} : { reason: s.reason }),
    ...(s.customerImpact === undefined ? {} : { customerImpact: s.customerImpact }),
    planAndTimeline: {
      summary: planSummary(input, impacted),
      ...(dates.start === undefined ? {} : { plannedStart: dates.start }),
      ...(dates.finish === undefined ? {} : { plannedCompletion: dates.finish }),
      ...(milestones.length === 0 ? {} : { milestones }),
    },
    ...(impacted.length === 0 ? {} : { impactedControls: impacted }),
    ...(analysis.length === 0 ? {} : { impactAnalysis: analysis.join('\n\n') }),
  };
}

/** The plan's summary in Markdown: the days, the notices and how they were counted, what is to be verified. */
function planSummary(input: ScnInput, impacted: readonly string[]): string {
  const { dates } = input;
  const days = [
    dates.start === undefined ? 'start not yet dated' : `planned start ${dates.start}`,
    dates.finish === undefined ? 'completion not yet dated' : `planned completion ${dates.finish}`,
    ...(dates.verified === undefined ? [] : [`verification, assessment and/or validation complete ${dates.verified}`]),
  ];
  const lines = [`${TYPE_WORDS[input.type]} change: ${days.join('; ')}.`];
  if (input.notices.dated.length > 0) {
    lines.push('', 'Notices to all necessary parties (business days: Monday to Friday except US federal holidays, on their observed dates):', '');
    for (const n of input.notices.dated) lines.push(`- ${n.notice} (${n.rule}): by ${n.date}, ${noticeCounting(n)}`);
  }
  if (input.notices.undated.length > 0) {
    lines.push('', `Not yet dated: ${input.notices.undated.map((n) => `${n.notice} (${n.rule}), counted from ${SCN_ANCHORS[n.from].words}`).join('; ')}.`);
  }
  // The ids come from the drift report, a file: escaped, so they read as ids whatever they hold (in the JSON too).
  if (impacted.length > 0) lines.push('', `To verify: ${impacted.map(markdownLiteral).join(', ')}.`);
  return lines.join('\n');
}

/** The SCN's Markdown twin, from the document written (SCN-CSO-HRM: human-readable and JSON from one model). */
export function scnMarkdown(scn: ScnDocument, header: TwinHeader): string {
  const plan = scn.planAndTimeline;
  const facts: [string, string | undefined][] = [
    ['Change type', scn.changeType],
    ['Description', scn.changeDescription],
    ['Why this type', scn.changeTypeExplanation],
    ['Reason', scn.reason],
    ['Customer impact', scn.customerImpact],
    ['Assessor', scn.assessorName],
    ['Related vulnerability', scn.relatedVulnerability],
    ['Planned start', plan.plannedStart],
    ['Planned completion', plan.plannedCompletion],
  ];
  const impacted = scn.impactedControls ?? [];
  const analysis = scn.impactAnalysis;
  const lines = [
    ...twinHeader(header),
    ...facts.filter(([, v]) => v !== undefined).map(([k, v]) => `- ${k}: ${markdownText(v!)}`),
    '',
    '## Plan and timeline',
    '',
    // svc writes the summary itself, in Markdown, from the days and the rules: it is not provider text.
    plan.summary,
    '',
    ...(plan.milestones === undefined
      ? []
      : ['| Target date | Milestone |', '|---|---|', ...plan.milestones.map((m) => `| ${m.targetDate} | ${markdownText(m.milestoneDescription)} |`), '']),
    '## Impacted KSIs and controls',
    '',
    impacted.length === 0 ? 'None named (no drift report given).' : impacted.map(markdownText).join(', '),
    '',
    '## Impact analysis',
    '',
    ...(analysis === undefined ? ['None given.'] : quotedMarkdown(analysis)),
  ];
  return `${lines.join('\n')}\n`;
}

/** An SCN the journal recorded, with its entry's seq and time. */
export type RecordedScn = Recorded<ScnRecord>;

const DUE_WORDS: Record<string, string> = {
  'initial plans': 'initial plans were due',
  'final plans': 'final plans were due',
};

/**
 * Reminders for readiness, by rule: each notice of an SCN recorded by `now` whose last day has passed at `now` (a past
 * day reads as it was). svc cannot know whether the provider sent it, so each says only when it was due and how that
 * was counted (the timeframe as the rules data gives it now; without it, the day it counts from alone).
 */
export function scnWarnings(recorded: readonly RecordedScn[], rules: Pick<Cr26Rules, 'rules'>, now: Date, cls?: Cr26Class): Map<string, string[]> {
  const warnings = new Map<string, string[]>();
  for (const { seq, recorded_at, record } of recorded) {
    if (Date.parse(recorded_at) > now.getTime()) continue;
    for (const notice of record.notices) {
      if (Date.parse(notice.due) >= now.getTime()) continue;
      const spec = SCN_NOTICES[record.type]?.find((n) => n.rule === notice.rule);
      const on = spec === undefined ? undefined : record[spec.from];
      let counting = '';
      if (spec !== undefined && on !== undefined) {
        const timeframe = timeframeOf(rules, spec, cls);
        counting =
          'unit' in timeframe
            ? ` (${noticeCounting({ timeframe, direction: spec.direction, from: spec.from, on })})`
            : ` (${spec.direction} ${SCN_ANCHORS[spec.from].words} ${on})`;
      }
      const due = DUE_WORDS[notice.notice] ?? `the notice ${notice.notice} was due`;
      const line = `SCN ${JSON.stringify(record.summary)} (journal ${seq}): ${due} by ${notice.due.slice(0, 10)}${counting}`;
      warnings.set(notice.rule, [...(warnings.get(notice.rule) ?? []), line]);
    }
  }
  return warnings;
}

/** Readiness items with the SCN reminders of their rule added to their warnings (the status stays as judged). */
export function withScnWarnings(items: readonly ReadinessItem[], warnings: ReadonlyMap<string, readonly string[]>): ReadinessItem[] {
  return items.map((item) => {
    const more = warnings.get(item.id);
    return more === undefined ? item : { ...item, warnings: [...(item.warnings ?? []), ...more] };
  });
}
