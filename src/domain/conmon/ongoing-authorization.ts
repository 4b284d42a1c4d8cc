import type { RunCounts } from '../assessment/assessment';
import { markdownText } from '../encoding/markdown';
import { DRIFT_CLASSES, DRIFT_SEVERITIES, type DriftClass, type DriftSeverity } from '../drift/drift-finding';
import type { ConmonEvent } from './conmon-event';
import type { StoredRun } from './run-record';

export const OA_REPORT_SCHEMA = 'svc.ongoing-authorization-report/v1';

export interface OaRunRef {
  seq: number;
  id: string;
  as_of: string;
}

export interface OaAreaRow {
  area: string;
  title: string;
  pass: number;
  warn: number;
  fail: number;
  pass_rate: number;
}

export interface OaPoamEntry {
  poam_id: string;
  ksi_id: string;
  risk_rating: string;
  date: string;
  run: number;
  original_detection_date: string;
  scheduled_completion_date: string;
  reopened?: boolean;
}

export interface OaDriftEntry {
  run: number;
  as_of: string;
  ksi_id: string | null;
  class: DriftClass;
  severity: DriftSeverity;
  from: string;
  to: string;
  reason: string;
}

/** The FedRAMP 20x Ongoing Authorization Report of a period, as `svc conmon export-oa` writes it (JSON and Markdown). */
export interface OaReport {
  schema: typeof OA_REPORT_SCHEMA;
  period: { from: string; to: string };
  generated_at: string;
  tool: { name: string; version: string };
  store: string;
  system: string | null;
  runs: { count: number; first: OaRunRef | null; last: OaRunRef | null };
  /** KSI statuses at the last run of the period, and at its first for comparison; null without runs. */
  ksi_status: { last: RunCounts; first: RunCounts; pass_rate: { first: number; last: number }; areas: OaAreaRow[] } | null;
  /** Status changes between consecutive runs (drift findings that moved a status). */
  changes: OaDriftEntry[];
  poam: { opened: OaPoamEntry[]; closed: OaPoamEntry[]; overdue: OaPoamEntry[]; open_at_end: number; overdue_at_end: number };
  drift: { severity: Record<DriftSeverity, number>; class: Record<DriftClass, number>; findings: OaDriftEntry[] };
}

export interface OaFacts {
  from: string;
  to: string;
  generatedAt: string;
  tool: { name: string; version: string };
  store: string;
  /** The runs whose as_of is in the period, in seq order. */
  runs: readonly StoredRun[];
  areaTitle: (area: string) => string;
}

const STATUS = new Set(['PASS', 'WARN', 'FAIL']);

/** Builds the report from the runs of the period: their summaries, events and the lifecycle after the last one. */
export function ongoingAuthorizationReport(facts: OaFacts): OaReport {
  const { runs } = facts;
  const first = runs[0];
  const last = runs[runs.length - 1];
  const ref = (run: StoredRun | undefined): OaRunRef | null => (run ? { seq: run.summary.seq, id: run.summary.id, as_of: run.summary.as_of } : null);
  const events = runs.flatMap((run) => run.events.map((event) => ({ run, event })));
  const poamEntry = (run: StoredRun, event: ConmonEvent, date: unknown): OaPoamEntry => ({
    poam_id: event.poam_id ?? '',
    ksi_id: event.ksi_id ?? '',
    risk_rating: String(event.data.risk_rating),
    date: typeof date === 'string' ? date : run.summary.as_of.slice(0, 10),
    run: run.summary.seq,
    original_detection_date: String(event.data.original_detection_date),
    scheduled_completion_date: String(event.data.scheduled_completion_date),
    ...(event.data.reopened === true ? { reopened: true } : {}),
  });
  const ofKind = (kind: ConmonEvent['kind']) => events.filter(({ event }) => event.kind === kind);
  const findings: OaDriftEntry[] = ofKind('drift.detected').map(({ run, event }) => ({
    run: run.summary.seq,
    as_of: run.summary.as_of,
    ksi_id: event.ksi_id,
    class: event.data.class as DriftClass,
    severity: event.data.severity as DriftSeverity,
    from: String(event.data.from),
    to: String(event.data.to),
    reason: String(event.data.reason),
  }));
  const severity = Object.fromEntries(DRIFT_SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<DriftSeverity, number>;
  const driftClass = Object.fromEntries(DRIFT_CLASSES.map((c) => [c, findings.filter((f) => f.class === c).length])) as Record<DriftClass, number>;
  return {
    schema: OA_REPORT_SCHEMA,
    period: { from: facts.from, to: facts.to },
    generated_at: facts.generatedAt,
    tool: facts.tool,
    store: facts.store,
    system: last ? (last.summary.source?.tenant ?? last.summary.input.name) : null,
    runs: { count: runs.length, first: ref(first), last: ref(last) },
    ksi_status:
      first && last
        ? {
            last: last.summary.counts,
            first: first.summary.counts,
            pass_rate: {
              first: rate(first.summary.counts.pass, first.summary.counts.results),
              last: rate(last.summary.counts.pass, last.summary.counts.results),
            },
            areas: Object.entries(last.summary.areas).map(([area, c]) => ({
              area,
              title: facts.areaTitle(area),
              ...c,
              pass_rate: rate(c.pass, c.pass + c.warn + c.fail),
            })),
          }
        : null,
    changes: findings.filter((f) => STATUS.has(f.from) && STATUS.has(f.to) && f.from !== f.to),
    poam: {
      opened: ofKind('poam.opened').map(({ run, event }) => poamEntry(run, event, event.data.original_detection_date)),
      closed: ofKind('poam.closed').map(({ run, event }) => poamEntry(run, event, event.data.completion_date)),
      overdue: ofKind('poam.overdue').map(({ run, event }) => poamEntry(run, event, undefined)),
      open_at_end: last?.summary.poam.open ?? 0,
      overdue_at_end: last?.summary.poam.overdue ?? 0,
    },
    drift: { severity, class: driftClass, findings },
  };
}

function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

const percent = (r: number) => `${(r * 100).toFixed(1)} %`;

/** The report as Markdown, for the authorizing official and the agency's ConMon reviewers. */
export function ongoingAuthorizationMarkdown(report: OaReport): string {
  const { runs, ksi_status: status, poam, drift } = report;
  const out = [
    '# FedRAMP 20x Ongoing Authorization Report',
    '',
    `Period: ${report.period.from} to ${report.period.to}`,
    `System: ${report.system === null ? 'no runs recorded in the period' : markdownText(report.system)}`,
    `Runs: ${runs.count}${runs.first && runs.last ? ` (run ${runs.first.seq}, ${runs.first.as_of} to run ${runs.last.seq}, ${runs.last.as_of})` : ''}`,
    `Store: ${markdownText(report.store)}`,
    `Generated: ${report.generated_at} by ${report.tool.name} ${report.tool.version}`,
    '',
    '## KSI status summary',
    '',
  ];
  if (!status) out.push('No runs were recorded in the period: there is no evidence of continuous monitoring to report.');
  else {
    const c = status.last;
    out.push(
      `Last run: ${c.results} KSIs: PASS ${c.pass}, WARN ${c.warn}, FAIL ${c.fail}, unmapped ${c.unmapped}; pass rate ${percent(status.pass_rate.last)} (first run of the period: ${percent(status.pass_rate.first)}).`,
      '',
      '| Area | Title | PASS | WARN | FAIL | Pass rate |',
      '|---|---|---|---|---|---|',
      ...status.areas.map((a) => `| ${markdownText(a.area)} | ${markdownText(a.title)} | ${a.pass} | ${a.warn} | ${a.fail} | ${percent(a.pass_rate)} |`),
    );
  }
  out.push('', '## Changes', '');
  if (report.changes.length === 0) out.push('No KSI changed status in the period.');
  else {
    out.push('| As of | Run | KSI | From | To | Class | Severity |', '|---|---|---|---|---|---|---|');
    for (const f of report.changes)
      out.push(
        `| ${f.as_of} | ${f.run} | ${f.ksi_id === null ? '(run)' : markdownText(f.ksi_id)} | ${markdownText(f.from)} | ${markdownText(f.to)} | ${f.class} | ${f.severity} |`,
      );
  }
  out.push(
    '',
    '## POA&M',
    '',
    `Opened: ${poam.opened.length}; closed: ${poam.closed.length}; became overdue: ${poam.overdue.length}; open at the end of the period: ${poam.open_at_end} (${poam.overdue_at_end} overdue).`,
  );
  const table = (title: string, rows: OaPoamEntry[], dateLabel: string) => {
    if (rows.length === 0) return;
    out.push('', `### ${title}`, '', `| POA&M | KSI | Risk | ${dateLabel} | Detected | Due | Run |`, '|---|---|---|---|---|---|---|');
    for (const r of rows)
      out.push(
        `| ${markdownText(r.poam_id)}${r.reopened ? ' (reopened)' : ''} | ${markdownText(r.ksi_id)} | ${markdownText(r.risk_rating)} | ${markdownText(r.date)} | ${markdownText(r.original_detection_date)} | ${markdownText(r.scheduled_completion_date)} | ${r.run} |`,
      );
  };
  table('Opened', poam.opened, 'Opened');
  table('Closed', poam.closed, 'Closed');
  table('Became overdue', poam.overdue, 'As of');
  out.push(
    '',
    '## Drift findings',
    '',
    `By severity: ${DRIFT_SEVERITIES.map((s) => `${s} ${drift.severity[s]}`).join(', ')}.`,
    `By class: ${DRIFT_CLASSES.map((c) => `${c} ${drift.class[c]}`).join(', ')}.`,
  );
  if (drift.findings.length > 0) {
    out.push('', '| As of | Run | Severity | Class | KSI | Reason |', '|---|---|---|---|---|---|');
    for (const f of drift.findings)
      out.push(`| ${f.as_of} | ${f.run} | ${f.severity} | ${f.class} | ${f.ksi_id === null ? '(run)' : markdownText(f.ksi_id)} | ${markdownText(f.reason)} |`);
  }
  return `${out.join('\n')}\n`;
}
