import { markdownText } from '../encoding/markdown';
import type { Cr26Class } from '../fedramp/cr26-rules';
import type { Evaluation, GroupJudgment, NRating, VulnerabilityState } from './lifecycle';
import { nextDue, VULNERABILITY_STATES } from './lifecycle';
import { acceptanceRationale, findingWords, inPeriod, nRatingChanges, type VulnerabilityGroup } from './vulnerability-reports';

/** One group as the monthly report shows it: where it stands at the report's time. */
export interface ActivityRow {
  id: string;
  finding_id: string;
  /** The finding's other ids (findingWords shows them beside it). */
  aliases?: string[];
  title: string;
  sources: string[];
  /** Redacted when the report is (VER-RPT-NID). */
  resources: string[];
  state: VulnerabilityState;
  n?: NRating;
  irv?: boolean;
  lev?: boolean;
  detected: string;
  evaluated?: string;
  /** The next due time that counts (lifecycle.ts `nextDue`); absent once closed. */
  due?: string;
  kev_due?: string;
  overdue: string[];
  /** The reportable-incident rule it meets (VER-TFR-IRI or VER-TFR-NRI). */
  incident?: string;
  /** Why it is accepted (VER-RPT-AVI). */
  accepted?: string;
}

/** Something that happened to a group during the period. */
export interface ActivityEvent {
  at: string;
  id: string;
  finding_id: string;
  what: string;
}

/** The period's figures: where the groups stand at the report's time and what happened during the period. */
export interface ActivityCounts {
  groups: number;
  states: Record<VulnerabilityState, number>;
  overdue: number;
  incidents: number;
  kev: number;
  detected: number;
  evaluations: number;
  reductions: number;
  remediated: number;
  accepted: number;
}

/**
 * The monthly human-readable report of vulnerability detection and response activity (VER-TFR-MHR): every group of
 * the period as it stands at the report's time, the overdue ones and the reportable incidents first, and the
 * period's events in time order. Markdown here; HTML by the renderer, from the same model.
 */
export interface VulnerabilityActivityReport {
  title: string;
  service?: string;
  fedrampId?: string;
  packageUri: string;
  class: Cr26Class;
  rulesVersion: string;
  period: { from: string; to: string };
  /** When the groups were judged (`--now`). */
  judgedAt: string;
  run?: { seq: number; as_of: string };
  generatedAt: string;
  tool: { name: string; version: string };
  redacted: boolean;
  /** Of REPORT_RULES, those the rules release in use holds: the report cites only these. */
  cites: readonly string[];
  counts: ActivityCounts;
  rows: ActivityRow[];
  events: ActivityEvent[];
}

export interface ActivityReportInput extends Omit<VulnerabilityActivityReport, 'title' | 'counts' | 'rows' | 'events' | 'redacted'> {
  groups: readonly { group: VulnerabilityGroup; judgment: GroupJudgment; kev?: { dueDate: string } }[];
  redact?: (resource: string) => string;
}

/** The rules the report's header cites where the release holds them: the monthly report itself and the redaction. */
export const REPORT_RULES = ['VER-TFR-MHR', 'VER-RPT-NID'] as const;

/** ` (id)` where the report cites `id`, else nothing. */
export const reportCitation = (r: Pick<VulnerabilityActivityReport, 'cites'>, id: (typeof REPORT_RULES)[number]): string =>
  r.cites.includes(id) ? ` (${id})` : '';

export const ACTIVITY_REPORT_TITLE = 'Vulnerability Detection and Response Activity';

/** The report's model from the judged register (DESIGN §12.4). */
export function buildActivityReport(input: ActivityReportInput): VulnerabilityActivityReport {
  const { groups, redact, ...header } = input;
  const from = Date.parse(input.period.from);
  const to = Date.parse(input.period.to);
  const during = (at: string) => Date.parse(at) >= from && Date.parse(at) <= to;
  const shown = inPeriod({ from: input.period.from, to: input.period.to, groups });
  const rows = shown.map(({ group, judgment, kev }) => activityRow(group, judgment, kev, redact));
  const events: ActivityEvent[] = [];
  const happened = { detected: 0, evaluations: 0, reductions: 0, remediated: 0, accepted: 0 };
  for (const { group, judgment } of shown) {
    const event = (at: string, kind: keyof typeof happened, what: string) => {
      happened[kind] += 1;
      events.push({ at, id: group.tracking_id, finding_id: group.finding_id, what });
    };
    if (during(group.first_detected)) event(group.first_detected, 'detected', `detected by ${group.sources.join(', ')}`);
    for (const e of group.evaluations) if (during(e.at)) event(e.at, 'evaluations', evaluationWords(e));
    const { reductions, raises } = nRatingChanges(judgment);
    for (const r of reductions) if (during(r.at)) event(r.at, 'reductions', `N-rating reduced from N${r.from} to N${r.to}`);
    for (const r of raises)
      if (during(r.at)) events.push({ at: r.at, id: group.tracking_id, finding_id: group.finding_id, what: `N-rating raised from N${r.from} to N${r.to}` });
    const { accepted, remediated_at: remediated } = judgment;
    if (accepted !== undefined && during(accepted.at))
      event(accepted.at, 'accepted', accepted.by === 'decision' ? 'accepted by decision' : 'accepted under VER-TFR-MAV');
    if (remediated !== undefined && during(remediated)) event(remediated, 'remediated', 'remediated: no longer detected');
  }
  events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const states = Object.fromEntries(VULNERABILITY_STATES.map((s) => [s, 0])) as Record<VulnerabilityState, number>;
  for (const r of rows) states[r.state] += 1;
  return {
    title: ACTIVITY_REPORT_TITLE,
    ...header,
    redacted: redact !== undefined,
    counts: {
      groups: rows.length,
      states,
      overdue: rows.filter((r) => r.overdue.length > 0).length,
      incidents: rows.filter((r) => r.incident !== undefined).length,
      kev: rows.filter((r) => r.kev_due !== undefined).length,
      ...happened,
    },
    rows,
    events,
  };
}

function activityRow(group: VulnerabilityGroup, j: GroupJudgment, kev: { dueDate: string } | undefined, redact?: (resource: string) => string): ActivityRow {
  const due = nextDue(j);
  return {
    id: group.tracking_id,
    finding_id: group.finding_id,
    ...(group.aliases === undefined ? {} : { aliases: group.aliases }),
    title: group.title,
    sources: group.sources,
    resources: group.resources.map((r) => (redact === undefined ? r : redact(r))),
    state: j.state,
    ...(j.n === undefined ? {} : { n: j.n }),
    ...(j.irv === undefined ? {} : { irv: j.irv }),
    ...(j.lev === undefined ? {} : { lev: j.lev }),
    detected: group.first_detected,
    ...(j.evaluated_at === undefined ? {} : { evaluated: j.evaluated_at }),
    ...(due === undefined ? {} : { due }),
    ...(kev === undefined ? {} : { kev_due: kev.dueDate }),
    overdue: j.overdue.reasons,
    ...(j.incident.internet ? { incident: 'VER-TFR-IRI' } : j.incident.other ? { incident: 'VER-TFR-NRI' } : {}),
    ...(j.accepted === undefined ? {} : { accepted: acceptanceRationale(j.accepted) }),
  };
}

/** An evaluation as a line of the period's events (and of an incident report's timeline): who, what it said, why. */
export function evaluationWords(e: Evaluation): string {
  const said = [
    e.irv === undefined ? '' : `internet-reachable ${e.irv ? 'yes' : 'no'}`,
    e.lev === undefined ? '' : `likely exploitable ${e.lev ? 'yes' : 'no'}`,
    e.n === undefined ? '' : `N${e.n}`,
    e.false_positive ? 'false positive' : '',
    e.mitigated === undefined ? '' : `${e.mitigated === 'full' ? 'fully' : 'partially'} mitigated`,
    e.next_reduction === undefined ? '' : `next reduction to N${e.next_reduction.n} by ${e.next_reduction.at}`,
    e.accept ? 'accepted' : '',
  ].filter(Boolean);
  const who = e.by.startsWith('policy:') ? `policy evaluation (${e.by})` : `evaluated by ${e.by}`;
  return `${who}: ${said.join(', ')}; ${e.reason}`;
}

/** The period's activity in one sentence, for both renderings. */
export function periodActivity(c: ActivityCounts): string {
  return `During the period: ${c.detected} newly detected, ${c.evaluations} ${c.evaluations === 1 ? 'evaluation' : 'evaluations'}, ${c.reductions} N-rating ${c.reductions === 1 ? 'reduction' : 'reductions'}, ${c.remediated} remediated, ${c.accepted} accepted.`;
}

const yesNo = (v: boolean | undefined) => (v === undefined ? '' : v ? 'yes' : 'no');

/** The report as Markdown: every cell of scanner or user text through markdownText. */
export function activityReportMarkdown(r: VulnerabilityActivityReport): string {
  const c = r.counts;
  const lines = [
    `# ${markdownText(r.title)}${r.service === undefined ? '' : `: ${markdownText(r.service)}`}`,
    '',
    `- Period: ${r.period.from} to ${r.period.to}`,
    `- FedRAMP ID: ${r.fedrampId === undefined ? 'not assigned (fedramp.fedramp_id)' : markdownText(r.fedrampId)}`,
    `- Certification Package Overview: ${markdownText(r.packageUri)}`,
    `- Class ${r.class}, FedRAMP Consolidated Rules ${markdownText(r.rulesVersion)}${reportCitation(r, 'VER-TFR-MHR')}`,
    `- Judged at ${r.judgedAt}${r.run === undefined ? ', no run recorded' : ` from run ${r.run.seq} (as of ${r.run.as_of})`}`,
    `- Generated: ${r.generatedAt} by ${markdownText(r.tool.name)} ${markdownText(r.tool.version)}`,
    ...(r.redacted ? [`- Resource names are replaced by stable hashes${reportCitation(r, 'VER-RPT-NID')}`] : []),
    '',
    '## Summary',
    '',
    '| Vulnerabilities | Detected | Evaluated | Mitigated | Remediated | Accepted | False positive | Overdue | Reportable incidents | In CISA KEV |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${c.groups} | ${c.states.detected} | ${c.states.evaluated} | ${c.states.mitigated} | ${c.states.remediated} | ${c.states.accepted} | ${c.states['false-positive']} | ${c.overdue} | ${c.incidents} | ${c.kev} |`,
    '',
    periodActivity(c),
    '',
  ];
  const overdue = r.rows.filter((row) => row.overdue.length > 0);
  lines.push('## Overdue', '');
  if (overdue.length === 0) lines.push('None.', '');
  else {
    lines.push('| ID | Finding | N | IRV | LEV | Why |', '| --- | --- | --- | --- | --- | --- |');
    for (const row of overdue)
      lines.push(
        `| ${row.id} | ${markdownText(row.finding_id)} | ${nCell(row.n)} | ${yesNo(row.irv)} | ${yesNo(row.lev)} | ${markdownText(row.overdue.join('; '))} |`,
      );
    lines.push('');
  }
  const incidents = r.rows.filter((row) => row.incident !== undefined);
  lines.push('## Reportable incidents', '');
  if (incidents.length === 0) lines.push('None.', '');
  else {
    lines.push('| ID | Finding | Rule | N | Resources |', '| --- | --- | --- | --- | --- |');
    for (const row of incidents)
      lines.push(`| ${row.id} | ${markdownText(row.finding_id)} | ${row.incident} | ${nCell(row.n)} | ${markdownText(row.resources.join(', '))} |`);
    lines.push('');
  }
  lines.push('## Vulnerabilities', '');
  if (r.rows.length === 0) lines.push('None detected during the period.', '');
  else {
    lines.push(
      '| ID | Finding | Title | State | N | IRV | LEV | Detected | Evaluated | Due | KEV due | Resources |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const row of r.rows) {
      lines.push(
        `| ${row.id} | ${markdownText(findingWords(row))} | ${markdownText(row.title)} | ${row.state} | ${nCell(row.n)} | ${yesNo(row.irv)} | ${yesNo(row.lev)} | ${row.detected} | ${row.evaluated ?? ''} | ${row.due ?? ''} | ${row.kev_due ?? ''} | ${markdownText(row.resources.join(', '))} |`,
      );
    }
    lines.push('');
  }
  const accepted = r.rows.filter((row) => row.accepted !== undefined);
  if (accepted.length > 0) {
    lines.push('## Accepted vulnerabilities', '', '| ID | Finding | Rationale |', '| --- | --- | --- |');
    for (const row of accepted) lines.push(`| ${row.id} | ${markdownText(row.finding_id)} | ${markdownText(row.accepted!)} |`);
    lines.push('');
  }
  lines.push('## Activity during the period', '');
  if (r.events.length === 0) lines.push('None.', '');
  else {
    lines.push('| Time | ID | Finding | What |', '| --- | --- | --- | --- |');
    for (const e of r.events) lines.push(`| ${e.at} | ${e.id} | ${markdownText(e.finding_id)} | ${markdownText(e.what)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

const nCell = (n: NRating | undefined) => (n === undefined ? '' : `N${n}`);
