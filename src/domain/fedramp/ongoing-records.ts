import type { IncidentDocument } from './incident-document';
import type { OcrDocument } from './ocr-document';
import type { ScnDocument } from './scn-document';

/**
 * What the ongoing-certification commands record in the run store's journal (DESIGN §12.5): each record holds the
 * document it wrote, as written, and what the other commands read of it (the OCR lists the period's SCNs and
 * incidents; readiness judges their dates; the trust center serves them). Appended, never changed: an incident's
 * ongoing and final reports are records of their own sharing its tracking id.
 */

/** Journal kinds. */
export const OCR_KIND = 'fedramp-ocr';
export const SCN_KIND = 'fedramp-scn';
export const INCIDENT_KIND = 'fedramp-incident';

/** A notice an SCN owes FedRAMP, by a rule's business-day timeframe (SCN-TRF-NIP, …, SCN-ADP-NTF). */
export interface ScnNotice {
  rule: string;
  /** What the notice is: `initial plans`, `final plans`, `after finishing`, `after verification`, `after finishing (adaptive)`. */
  notice: string;
  /** ISO-8601 UTC: the end of the last business day the notice may be sent (or the day it must precede). */
  due: string;
}

/** `fedramp scn`'s record. */
export interface ScnRecord {
  type: 'adaptive' | 'transformative';
  summary: string;
  /** YYYY-MM-DD, as given. */
  start?: string;
  finish?: string;
  verified?: string;
  notices: ScnNotice[];
  /** KSI ids and control ids the drift report named. */
  ksis: string[];
  controls: string[];
  /** The SCN as written (FedRAMP's schema). */
  document: ScnDocument;
}

/** `fedramp incident`'s record: one per report (initial, ongoing, final). */
export interface IncidentRecord {
  report_type: 'initial' | 'ongoing' | 'final';
  /** The same across an incident's reports. */
  tracking_id: string;
  /** The vulnerability group it was drafted from (`VG-…`), when it was. */
  group?: string;
  summary: string;
  /** ISO-8601 UTC: when the incident occurred (its detection), and when this report is due. */
  occurred_at: string;
  due_at: string;
  resolved_at?: string;
  /** Agency names the report lists as affected (the trust center shows it to them). */
  affected_agencies: string[];
  lessons_learned: string[];
  /** The report as written (FedRAMP's schema). */
  document: IncidentDocument;
  /** The PAIN N-rating (1–5) the report gave, which times the incident's next report when none is given. */
  n?: number;
}

/** `fedramp ocr`'s record: the OCR and what it froze (CDS-CSO-HAD). */
export interface OcrRecord {
  period: { from: string; to: string };
  /** YYYY-MM-DD: the next report date the CPO carries from now on (CCM-OCR-NRD). */
  next_report_date: string;
  /** The OCR as written (FedRAMP's schema). */
  document: OcrDocument;
  /**
   * The certification data as of the OCR: stored runs and journal entries never change, so the latest run and the
   * journal's length at the time rebuild every document as it was.
   */
  snapshot: { run_seq?: number; journal_seq: number };
}

/** The record each journal kind holds. */
export interface OngoingKinds {
  [OCR_KIND]: OcrRecord;
  [SCN_KIND]: ScnRecord;
  [INCIDENT_KIND]: IncidentRecord;
}
export type OngoingKind = keyof OngoingKinds;

/** A record with where it stands in the journal. */
export interface Recorded<T> {
  seq: number;
  /** ISO-8601 UTC. */
  recorded_at: string;
  record: T;
}
