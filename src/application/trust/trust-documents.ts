import { CR26_DOCUMENTS, type Cr26DocumentType } from '../../domain/fedramp/cr26-documents';
import type { Cr26Rules } from '../../domain/fedramp/cr26-rules';
import { citedTitle, reliedRule } from '../../domain/fedramp/relied-rules';
import type { IncidentAudience } from '../../domain/trust/audience';
import { PUBLIC_RULE, type TrustCenterListing } from '../../domain/trust/public-information';
import { METRICS_RULE } from '../fedramp/cr26-assessment';

/** The rule the snapshots answer (cited only where the release in use holds it). */
export const SNAPSHOTS_RULE = reliedRule('CDS-CSO-HAD');

/** The documents of the trust center (DESIGN §12.7), by the name of their route (`/fedramp/<name>`). */
export const TRUST_DOCUMENTS = ['public', 'cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history', 'scn', 'metrics', 'incidents', 'snapshots'] as const;
export type TrustDocumentName = (typeof TRUST_DOCUMENTS)[number];

/** The documents `?snapshot=` serves as they were at an OCR (CDS-CSO-HAD): all but the public information and the list of snapshots. */
export const SNAPSHOT_DOCUMENTS = TRUST_DOCUMENTS.filter((d) => d !== 'public' && d !== 'snapshots');

/**
 * Each document's title, FedRAMP's schema it (or, for a list, each item) is valid against, and what a list's items are
 * called on its page. The metrics are the SDR's `ksiMetrics`; the snapshots are svc's own list.
 */
export const TRUST_DOCUMENT_INFO: Record<TrustDocumentName, { title: string; rules?: readonly string[]; schema?: Cr26DocumentType; item?: string }> = {
  public: { title: 'Public Information', rules: [PUBLIC_RULE], schema: 'cpo' },
  cpo: { title: CR26_DOCUMENTS.cpo.title, schema: 'cpo' },
  sdr: { title: CR26_DOCUMENTS.sdr.title, schema: 'sdr' },
  ocr: { title: CR26_DOCUMENTS.ocr.title, schema: 'ocr' },
  vdr: { title: CR26_DOCUMENTS.vdr.title, schema: 'vdr' },
  avi: { title: CR26_DOCUMENTS.avi.title, schema: 'avi' },
  history: { title: CR26_DOCUMENTS.history.title, schema: 'history' },
  scn: { title: 'Significant Change Notifications', schema: 'scn', item: 'Notification' },
  metrics: { title: 'Key Security Indicator Metrics', rules: [METRICS_RULE] },
  incidents: { title: 'Incident Reports', schema: 'incident', item: 'Incident report' },
  snapshots: { title: 'Snapshots of the Certification Data', rules: [SNAPSHOTS_RULE] },
};

/** A document's title, citing its rules the release in use holds: `Public Information (CDS-CSO-PUB)`. */
export function trustDocumentTitle(name: TrustDocumentName, rules: Pick<Cr26Rules, 'rules'>): string {
  const info = TRUST_DOCUMENT_INFO[name];
  return citedTitle(rules, info.title, info.rules ?? []);
}

/** One OCR's snapshot, as /fedramp/snapshots lists it. */
export interface TrustSnapshot {
  /** YYYY-MM-DD: the OCR's period end, what `?snapshot=` names. */
  snapshot: string;
  period: { from: string; to: string };
  recordedAt: string;
  nextReportDate: string;
  /** The latest run then (absent when none was recorded) and the OCR's journal entry: where the snapshot stops. */
  runSeq?: number;
  journalSeq: number;
  /** The routes that serve the snapshot. */
  documents: string[];
}

export type TrustFormat = 'json' | 'html';

export interface BuildTrustDocumentInput {
  document: TrustDocumentName;
  format: TrustFormat;
  /** The routes and authentication methods /fedramp/public lists: the same for the life of the process. */
  listing: TrustCenterListing;
  /** For `incidents` and `ocr` (AUDIENCE_DOCUMENTS, domain/trust/audience.ts): whose incidents they show (default: none). */
  audience?: IncidentAudience;
  /** The OCR period end a snapshot's page names (this instance then reads a SnapshotStore). */
  snapshot?: string;
}
