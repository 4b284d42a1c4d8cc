import { dayAfter } from '../encoding/iso-time';
import { markdownText } from '../encoding/markdown';
import type { NRating } from '../vulnerabilities/lifecycle';
import type { DailyKsiStatus } from './ksi-evaluation';
import { monthsBefore } from './ksi-evaluation';
import type { OcrDocument, OcrIncident } from './ocr-document';
import type { IncidentRecord, ScnRecord } from './ongoing-records';
import { twinHeader, type TwinHeader } from './twin';

/** The months an OCR covers and the months its planning horizon reaches past the period (CCM-OCR-AVL, DESIGN §12.5). */
export const OCR_PERIOD_MONTHS = 3;

/** The accepted vulnerabilities an OCR summarizes (the full records are the AVI's, VER-RPT-AVI). */
export interface AcceptedSummary {
  count: number;
  /** How many at each current N-rating. */
  byN: Partial<Record<NRating, number>>;
  /** Where the AVI is published: beside the CPO. */
  aviUri: string;
  /** VER-RPT-AVI, where the rules release in use holds it: the text cites it then. */
  aviRule?: string;
}

export interface OcrInput {
  packageUri: string;
  /** YYYY-MM-DD, both days included. */
  period: { from: string; to: string };
  /** Per KSI, its daily statuses (the run store's history). */
  daily: ReadonlyMap<string, readonly DailyKsiStatus[]>;
  agencies: readonly string[];
  /** The recorded SCNs (the journal's, in order), each with when it was recorded where the journal says. */
  scns: readonly (ScnRecord & { recorded_at?: string })[];
  /** The recorded incident reports (the journal's, in order). */
  incidents: readonly IncidentRecord[];
  accepted?: AcceptedSummary;
  /** The profile's planned changes and updated recommendations (fedramp.planned_changes, fedramp.recommendations). */
  plannedChanges: readonly string[];
  recommendations: readonly string[];
}

/**
 * The Ongoing Certification Report (CCM-OCR-AVL, DESIGN §12.5) for a period, from what svc holds:
 * - certification data changes: every CR26 KSI status change the run store recorded in the period, and each adaptive
 *   change an SCN says finished in it;
 * - planned changes through a horizon 3 months past the period: the SCNs whose start or finish falls after the
 *   period and by the horizon, and the profile's planned changes;
 * - transformative changes: the transformative SCNs whose work overlaps the period (or, with no dates, that were
 *   recorded for it);
 * - accepted vulnerabilities as a summary string (counts, N-ratings, the AVI's URI);
 * - reportable incidents: each incident (tracking id) that occurred in the period or was still open at its start,
 *   with its resolution and lessons learned; `incidents` is written even when empty: the attestation that none
 *   occurred.
 */
export function buildOcr(input: OcrInput): OcrDocument {
  const { from, to } = input.period;
  const horizon = monthsBefore(to, -OCR_PERIOD_MONTHS);
  const inPeriod = (day: string | undefined) => day !== undefined && day >= from && day <= to;
  const adaptive = input.scns.filter((s) => s.type === 'adaptive' && inPeriod(s.finish)).map((s) => `Adaptive change finished ${s.finish}: ${s.summary}`);
  const planned = input.scns
    .filter((s) => [s.start, s.finish].some((day) => day !== undefined && day > to && day <= horizon))
    .map(
      (s) =>
        `${s.type === 'transformative' ? 'Transformative' : 'Adaptive'} change${s.start === undefined ? '' : ` starting ${s.start}`}${s.finish === undefined ? '' : `${s.start === undefined ? '' : ','} finishing ${s.finish}`}: ${s.summary}`,
    );
  const transformative = input.scns
    .filter(
      (s) =>
        s.type === 'transformative' &&
        (s.start === undefined && s.finish === undefined ? inPeriod(s.recorded_at?.slice(0, 10)) : (s.start ?? from) <= to && (s.finish ?? to) >= from),
    )
    .map((s) => {
      const dates = [
        s.start === undefined ? '' : `start ${s.start}`,
        s.finish === undefined ? '' : `finish ${s.finish}`,
        s.verified === undefined ? '' : `verified ${s.verified}`,
      ].filter(Boolean);
      return `${s.summary} (${dates.length > 0 ? dates.join(', ') : `recorded ${s.recorded_at?.slice(0, 10)}, no dates given`})`;
    });
  return {
    certificationPackageOverviewUri: input.packageUri,
    reportPeriod: { from, to },
    certificationDataChanges: [...statusChanges(input.daily, from, to), ...adaptive],
    plannedCertificationDataChanges: { planningHorizonThrough: horizon, changes: [...planned, ...input.plannedChanges] },
    acceptedVulnerabilities: acceptedText(input.accepted),
    transformativeChanges: transformative,
    updatedRecommendations: [...input.recommendations],
    activeAgencies: [...input.agencies],
    reportableIncidents: { incidents: incidentSummaries(input.incidents, from, to) },
  };
}

/** "3 accepted vulnerabilities (N4: 1, N3: 2); full records in the Accepted Vulnerability Info at <uri>". */
export function acceptedText(accepted: AcceptedSummary | undefined): string {
  if (accepted === undefined) return 'None recorded: svc has recorded no accepted vulnerability (Accepted Vulnerability Info) for this offering.';
  const avi = accepted.aviRule === undefined ? 'the Accepted Vulnerability Info' : `the Accepted Vulnerability Info (${accepted.aviRule})`;
  if (accepted.count === 0) return `No accepted vulnerabilities; ${avi} is at ${accepted.aviUri}.`;
  const ratings = ([5, 4, 3, 2, 1, 0] as const).filter((n) => (accepted.byN[n] ?? 0) > 0).map((n) => `N${n}: ${accepted.byN[n]}`);
  return `${accepted.count} accepted ${accepted.count === 1 ? 'vulnerability' : 'vulnerabilities'}${ratings.length === 0 ? '' : ` (${ratings.join(', ')})`}; full records in ${avi} at ${accepted.aviUri}.`;
}

/** The incidents of the period, one per tracking id: its first report's time and summary, its final's resolution, every lesson. */
export function incidentSummaries(records: readonly IncidentRecord[], from: string, to: string): OcrIncident[] {
  const byId = new Map<string, IncidentRecord[]>();
  for (const r of records) byId.set(r.tracking_id, [...(byId.get(r.tracking_id) ?? []), r]);
  const out: OcrIncident[] = [];
  for (const reports of byId.values()) {
    const first = reports[0];
    const resolved = reports.find((r) => r.resolved_at !== undefined)?.resolved_at;
    const occurred = first.occurred_at.slice(0, 10);
    // In the period: it occurred in it, or it occurred before and was not resolved before the period began.
    if (occurred > to || (occurred < from && resolved !== undefined && resolved.slice(0, 10) < from)) continue;
    const lessons = [...new Set(reports.flatMap((r) => r.lessons_learned))];
    out.push({
      summary: `${first.tracking_id}: ${reports.at(-1)!.summary}`,
      occurredAt: first.occurred_at,
      ...(resolved === undefined ? {} : { resolvedAt: resolved }),
      incidentLessonsLearned: lessons,
    });
  }
  return out.sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : a.occurredAt > b.occurredAt ? 1 : 0));
}

/** "KSI-IAM-APM: Not Implemented → Partially Implemented on 2026-10-02", for each change between days in the period. */
export function statusChanges(daily: ReadonlyMap<string, readonly DailyKsiStatus[]>, from: string, to: string): string[] {
  const changes: string[] = [];
  for (const [id, days] of [...daily].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let before: DailyKsiStatus | undefined;
    for (const day of days) {
      if (day.date > to) break;
      if (before !== undefined && day.date >= from && day.status !== before.status) {
        changes.push(`${id}: ${before.status ?? 'no evidence'} → ${day.status ?? 'no evidence'} on ${day.date}`);
      }
      before = day;
    }
  }
  return changes;
}

/** The period of the OCR that ends on `to`: the 3 months before it, both days included. */
export function ocrPeriodEnding(to: string): { from: string; to: string } {
  return { from: dayAfter(monthsBefore(to, OCR_PERIOD_MONTHS)), to };
}

/** CCM-OCR-NRD: the next report is due 3 months after this one's period ends. */
export function nextReportDate(to: string): string {
  return monthsBefore(to, -OCR_PERIOD_MONTHS);
}

/** The OCR's Markdown twin (`title` says whether it is a sample); `note` is written in bold under the header. */
export function ocrMarkdown(ocr: OcrDocument, header: TwinHeader, note?: string): string {
  const period = ocr.reportPeriod;
  const planned = ocr.plannedCertificationDataChanges;
  const incidents = ocr.reportableIncidents.incidents;
  const bullets = (items: readonly string[], none: string) => (items.length === 0 ? [none] : items.map((c) => `- ${markdownText(c)}`));
  const lines = [
    ...twinHeader(header),
    ...(note === undefined ? [] : [`**${markdownText(note)}**`, '']),
    `- Period: ${period.from} to ${period.to}`,
    `- Planning horizon through: ${planned.planningHorizonThrough}`,
    `- Active agencies: ${ocr.activeAgencies.map(markdownText).join(', ') || 'none listed (fedramp.agencies)'}`,
    `- Accepted vulnerabilities: ${markdownText(ocr.acceptedVulnerabilities)}`,
    '',
    '## Certification data changes',
    '',
    ...bullets(ocr.certificationDataChanges, 'No KSI status changed in the period.'),
    '',
    '## Planned changes',
    '',
    ...bullets(planned.changes, 'None planned.'),
    '',
    '## Transformative changes',
    '',
    ...bullets(ocr.transformativeChanges, 'None in the period.'),
    '',
    '## Updated recommendations',
    '',
    ...bullets(ocr.updatedRecommendations, 'None.'),
    '',
    '## Reportable incidents',
    '',
    ...(incidents.length === 0
      ? ['None occurred in the period.']
      : incidents.flatMap((i) => [
          `- ${markdownText(i.summary)}: occurred ${i.occurredAt}${i.resolvedAt === undefined ? ', not resolved' : `, resolved ${i.resolvedAt}`}`,
          ...i.incidentLessonsLearned.map((l) => `  - Lesson learned: ${markdownText(l)}`),
        ])),
  ];
  return `${lines.join('\n')}\n`;
}
