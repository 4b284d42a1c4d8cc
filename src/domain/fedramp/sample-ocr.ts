import type { Cr26Rules } from './cr26-rules';
import type { DailyKsiStatus } from './ksi-evaluation';
import { holdsRule } from './relied-rules';
import { buildOcr, ocrMarkdown, ocrPeriodEnding, type AcceptedSummary } from './ocr';
import type { OcrDocument } from './ocr-document';
import type { IncidentRecord, ScnRecord } from './ongoing-records';
import type { TwinHeader } from './twin';

/** Why a package carries a sample OCR, where the rules release in use holds the rule that asks it (FRC-CSO-PKG). */
export function samplePackageRule(rules: Pick<Cr26Rules, 'rules'>): string | undefined {
  return holdsRule(rules, 'FRC-CSO-PKG') ? 'FRC-CSO-PKG asks for a real or example OCR' : undefined;
}

/** The note a sample OCR carries, citing FRC-CSO-PKG where the rules release in use holds it. */
export function sampleOcrNote(rules: Pick<Cr26Rules, 'rules'>): string {
  return `SAMPLE: an example Ongoing Certification Report that svc built from its run store for the certification package (${samplePackageRule(rules) ?? 'an example in place of a recorded one'}); no OCR has been recorded for this period.`;
}

/** A sample OCR: an OCR, with `sample` and `sampleNote` ahead of its keys (FedRAMP's open top level allows them). */
export type SampleOcrDocument = { sample: true; sampleNote: string } & OcrDocument;

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
  /** The rules release in use: the note cites what it holds. */
  rules: Pick<Cr26Rules, 'rules'>;
}

/**
 * A sample OCR (FRC-CSO-PKG) for the 3 months ending `to`, built as a real one is (buildOcr) from what the store
 * holds, and saying at its top that it is a sample (`sample`, `sampleNote`: members FedRAMP's open top level allows,
 * for machines). FedRAMP's viewer shows only what the schema declares, and the OCR schema declares no summary of the
 * report as a whole: the note is also the first entry of `certificationDataChanges`, the first text list the viewer
 * shows (docs/decisions.md, "The sample OCR says so where FedRAMP's viewer shows it").
 */
export function sampleOcr(input: SampleOcrInput): SampleOcrDocument {
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
  const note = sampleOcrNote(input.rules);
  return { sample: true, sampleNote: note, ...ocr, certificationDataChanges: [note, ...ocr.certificationDataChanges] };
}

/** The sample OCR's Markdown twin: the note in bold under the header (not again among the changes). */
export function sampleOcrMarkdown(ocr: SampleOcrDocument, header: Omit<TwinHeader, 'title'>): string {
  const note = ocr.sampleNote;
  const changes = ocr.certificationDataChanges.filter((c) => c !== note);
  return ocrMarkdown({ ...ocr, certificationDataChanges: changes }, { title: 'Ongoing Certification Report (SAMPLE)', ...header }, note);
}
