/**
 * The OCR as svc writes it: FedRAMP's OCR schema (fedramp-ongoing-certification-report-schema-2026-06-24.json), all of
 * whose keys are required and written.
 */
export interface OcrDocument {
  certificationPackageOverviewUri: string;
  /** YYYY-MM-DD, both days included (the common definitions' reportPeriodDate). */
  reportPeriod: { from: string; to: string };
  certificationDataChanges: string[];
  plannedCertificationDataChanges: { planningHorizonThrough: string; changes: string[] };
  /** A summary in words; the full records are the AVI's (VER-RPT-AVI). */
  acceptedVulnerabilities: string;
  transformativeChanges: string[];
  updatedRecommendations: string[];
  activeAgencies: string[];
  /** `incidents` is written even when empty: the attestation that none occurred. */
  reportableIncidents: { incidents: OcrIncident[] };
}

/** One incident as the OCR summarizes it (the schema's incidentSummary, whose fields svc always writes but `resolvedAt`). */
export interface OcrIncident {
  summary: string;
  occurredAt: string;
  resolvedAt?: string;
  incidentLessonsLearned: string[];
}
