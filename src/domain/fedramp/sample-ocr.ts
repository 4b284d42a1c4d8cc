import { markdownText } from '../encoding/markdown';
import type { DailyKsiStatus } from './ksi-evaluation';
import { monthsBefore } from './ksi-evaluation';
import { twinHeader, type TwinHeader } from './twin';

/** The months an OCR covers and the months its planning horizon reaches past the period (CCM-OCR-AVL, DESIGN §12.5). */
export const OCR_PERIOD_MONTHS = 3;

export const SAMPLE_OCR_NOTE =
  'SAMPLE: an example Ongoing Certification Report that svc built from its run store for the certification package (FRC-CSO-PKG asks for a real or example OCR); no OCR has been recorded for this period.';

export interface SampleOcrInput {
  packageUri: string;
  /** YYYY-MM-DD: the period's last day (the package's date). */
  to: string;
  /** Per KSI, its daily statuses (the run store's history). */
  daily: ReadonlyMap<string, readonly DailyKsiStatus[]>;
  agencies: readonly string[];
}

/**
 * A sample OCR (FRC-CSO-PKG) for the 3 months ending `to`: the certification data changes are the KSI status changes
 * the run store recorded in the period, the planning horizon is 3 months past it, nothing is claimed that svc does not
 * hold (no planned or transformative changes, no recommendations, no accepted vulnerabilities yet, `incidents: []`),
 * and the document says at its top that it is a sample (`sample`, `sampleNote`: members FedRAMP's open top level allows).
 */
export function sampleOcr(input: SampleOcrInput): Record<string, unknown> {
  const from = dayAfter(monthsBefore(input.to, OCR_PERIOD_MONTHS));
  return {
    sample: true,
    sampleNote: SAMPLE_OCR_NOTE,
    certificationPackageOverviewUri: input.packageUri,
    reportPeriod: { from, to: input.to },
    certificationDataChanges: statusChanges(input.daily, from, input.to),
    plannedCertificationDataChanges: { planningHorizonThrough: monthsBefore(input.to, -OCR_PERIOD_MONTHS), changes: [] },
    acceptedVulnerabilities: 'None recorded: svc has recorded no accepted vulnerability (Accepted Vulnerability Info) for this offering.',
    transformativeChanges: [],
    updatedRecommendations: [],
    activeAgencies: [...input.agencies],
    reportableIncidents: { incidents: [] },
  };
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

/** The sample OCR's Markdown twin. */
export function sampleOcrMarkdown(ocr: Record<string, unknown>, header: Omit<TwinHeader, 'title'>): string {
  const period = ocr.reportPeriod as { from: string; to: string };
  const changes = ocr.certificationDataChanges as string[];
  const horizon = (ocr.plannedCertificationDataChanges as { planningHorizonThrough: string }).planningHorizonThrough;
  const lines = [
    ...twinHeader({ title: 'Ongoing Certification Report (SAMPLE)', ...header }),
    `**${markdownText(SAMPLE_OCR_NOTE)}**`,
    '',
    `- Period: ${period.from} to ${period.to}`,
    `- Planning horizon through: ${horizon}`,
    `- Active agencies: ${(ocr.activeAgencies as string[]).map(markdownText).join(', ') || 'none listed (fedramp.agencies)'}`,
    `- Accepted vulnerabilities: ${markdownText(ocr.acceptedVulnerabilities as string)}`,
    '- Reportable incidents: none recorded',
    '',
    '## Certification data changes',
    '',
    ...(changes.length === 0 ? ['No KSI status changed in the period.'] : changes.map((c) => `- ${markdownText(c)}`)),
  ];
  return `${lines.join('\n')}\n`;
}

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
