/**
 * The SCN as svc writes it: FedRAMP's SCN schema (fedramp-significant-change-notifications-schema-2026-06-24.json,
 * the same keys in every generation svc carries, $schemaVersion 0.1.1 to 0.1.3), optional where the builder leaves a
 * key out: a statement the provider did not give, a day not given, no drift report. `planAndTimeline`, which the
 * schema leaves optional, is always written.
 */
export interface ScnDocument {
  certificationPackageOverviewUri: string;
  assessorName?: string;
  relatedVulnerability?: string;
  /** SCN-CSO-EVA, as the schema's enum writes it. */
  changeType: 'Adaptive' | 'Transformative';
  changeTypeExplanation?: string;
  changeDescription: string;
  reason?: string;
  customerImpact?: string;
  planAndTimeline: ScnPlanAndTimeline;
  /** KSI ids, then controls as FedRAMP writes them; absent when no drift report named any. */
  impactedControls?: string[];
  /** The provider's analysis, then the drift report's, as paragraphs; absent when neither was given. */
  impactAnalysis?: string;
}

/** The SCN's `planAndTimeline`. */
export interface ScnPlanAndTimeline {
  /** Markdown that svc writes from the days and the rules. */
  summary: string;
  /** YYYY-MM-DD: --start. */
  plannedStart?: string;
  /** YYYY-MM-DD: --finish. */
  plannedCompletion?: string;
  /** Each notice and each day given, by target date; absent when there is none. */
  milestones?: ScnMilestone[];
}

/** One milestone: svc always writes its target date (the schema leaves it optional). */
export interface ScnMilestone {
  milestoneDescription: string;
  /** YYYY-MM-DD. */
  targetDate: string;
}
