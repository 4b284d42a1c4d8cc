import type { DailyKsiStatus } from './ksi-evaluation';
import { buildOcr, ocrMarkdown, ocrPeriodEnding, type AcceptedSummary } from './ocr';
import type { IncidentRecord, ScnRecord } from './ongoing-records';
import type { TwinHeader } from './twin';

export const SAMPLE_OCR_NOTE =
  'SAMPLE: an example Ongoing Certification Report that svc built from its run store for the certification package (FRC-CSO-PKG asks for a real or example OCR); no OCR has been recorded for this period.';

export interface SampleOcrInput {
  packageUri: string;
  /** YYYY-MM-DD: the period's last day (the package's date). */
  to: string;
  /** Per KSI, its daily statuses (the run store's history). */
  daily: ReadonlyMap<string, readonly DailyKsiStatus[]>;
  agencies: readonly string[];
  scns?: readonly ScnRecord[];
  incidents?: readonly IncidentRecord[];
  accepted?: AcceptedSummary;
}

/**
 * A sample OCR (FRC-CSO-PKG) for the 3 months ending `to`, built as a real one is (buildOcr) from what the store
 * holds, and saying at its top that it is a sample (`sample`, `sampleNote`: members FedRAMP's open top level allows,
 * for machines). FedRAMP's viewer shows only what the schema declares, and the OCR schema declares no summary of the
 * report as a whole: the note is also the first entry of `certificationDataChanges`, the first text list the viewer
 * shows (docs/decisions.md, "The sample OCR says so where FedRAMP's viewer shows it").
 */
export function sampleOcr(input: SampleOcrInput): Record<string, unknown> {
  const ocr = buildOcr({
    packageUri: input.packageUri,
    period: ocrPeriodEnding(input.to),
    daily: input.daily,
    agencies: input.agencies,
    scns: input.scns ?? [],
    incidents: input.incidents ?? [],
    ...(input.accepted === undefined ? {} : { accepted: input.accepted }),
    plannedChanges: [],
    recommendations: [],
  });
  return { sample: true, sampleNote: SAMPLE_OCR_NOTE, ...ocr, certificationDataChanges: [SAMPLE_OCR_NOTE, ...(ocr.certificationDataChanges as string[])] };
}

/** The sample OCR's Markdown twin: the note in bold under the header (not again among the changes). */
export function sampleOcrMarkdown(ocr: Record<string, unknown>, header: Omit<TwinHeader, 'title'>): string {
  const changes = (ocr.certificationDataChanges as string[]).filter((c) => c !== SAMPLE_OCR_NOTE);
  return ocrMarkdown({ ...ocr, certificationDataChanges: changes }, { title: 'Ongoing Certification Report (SAMPLE)', ...header }, SAMPLE_OCR_NOTE);
}
