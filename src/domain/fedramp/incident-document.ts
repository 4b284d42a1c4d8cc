import type { NRating } from '../vulnerabilities/lifecycle';

/**
 * An incident report as svc writes it: FedRAMP's incident report schema
 * (fedramp-incident-report-schema-2026-06-24.json), optional where the builder leaves a key out. svc writes no
 * `federalIncidentCoordinator`, `functionalImpact`, `indicatorsOfCompromise` or `rootCause` (the provider's to give).
 * `potentialImpact` takes the form of the generation in use: a string in the first ($schemaVersion 0.1.1), an object
 * from 0.2.0 on (cr26Shapes reads which from the schema in use).
 */
export interface IncidentDocument {
  certificationPackageOverviewUri: string;
  reportType: 'Initial' | 'Ongoing' | 'Final';
  /** The same across an incident's reports. */
  providerTrackingId: string;
  incidentDescription: string;
  /** Absent when svc knows none of its parts. */
  timeline?: IncidentTimeline;
  potentialImpact: string | IncidentPotentialImpact;
  recoveryPlan?: string;
  affectedAgencies?: string[];
  observedActivity?: string;
  /** CVE ids only; absent when there is none. */
  relatedCveIds?: string[];
  /** What was done, then the lessons learned. */
  responseAndRecoveryActivities?: string;
  /** ISO-8601 UTC; a Final report's (the schema requires it there). */
  resolvedAt?: string;
}

/** The report's `timeline`: each part where svc knows it. */
export interface IncidentTimeline {
  startedAt?: string;
  detectedAt?: string;
  detectionSource?: string;
  /** When the incident was identified as reportable (IEC-CSO-EFR). */
  evaluationCompletedAt?: string;
  /** Oldest first; absent when there is none. */
  milestones?: IncidentTimelineMilestone[];
}

/** One `timeline.milestones[]` entry (the schema's `$defs/milestone`). */
export interface IncidentTimelineMilestone {
  occurredAt: string;
  milestoneDescription: string;
}

/** `potentialImpact` as an object ($schemaVersion 0.2.0 on): only the N-ratings the schema's nRating carries. */
export interface IncidentPotentialImpact {
  historicalRating: NRating[];
  currentRating?: NRating;
  evaluationNotes?: string;
}
