import { InvalidInputError } from '../errors';

/** The CR26 machine-readable documents FedRAMP publishes a JSON Schema for (`svc fedramp validate --type`). */
export const CR26_DOCUMENT_TYPES = ['sdr', 'cpo', 'ocr', 'scn', 'vdr', 'avi', 'history', 'incident', 'assessor', 'advisor'] as const;
export type Cr26DocumentType = (typeof CR26_DOCUMENT_TYPES)[number];

export function isCr26DocumentType(value: string): value is Cr26DocumentType {
  return (CR26_DOCUMENT_TYPES as readonly string[]).includes(value);
}

/** What each is called, and the stem of its schema file: `fedramp-<stem>-schema-<date>.json` (its `$id` ends so). */
export const CR26_DOCUMENTS: Record<Cr26DocumentType, { title: string; stem: string }> = {
  sdr: { title: 'Security Decision Record', stem: 'security-decision-record' },
  cpo: { title: 'Certification Package Overview', stem: 'certification-package-overview' },
  ocr: { title: 'Ongoing Certification Report', stem: 'ongoing-certification-report' },
  scn: { title: 'Significant Change Notification', stem: 'significant-change-notifications' },
  vdr: { title: 'Vulnerability Detail Report', stem: 'vulnerability-detail-report' },
  avi: { title: 'Accepted Vulnerability Info', stem: 'accepted-vulnerability-info' },
  history: { title: 'Historical VER Activity', stem: 'historical-ver-activity' },
  incident: { title: 'Incident Report', stem: 'incident-report' },
  assessor: { title: 'Assessor Information', stem: 'assessor-information' },
  advisor: { title: 'Advisor Information', stem: 'advisor-information' },
};

/**
 * The date in the name of every schema file FedRAMP has published for CR26, so at the end of every `$id`
 * (`https://fedramp.gov/schemas/fedramp-<stem>-schema-2026-06-24.json`): FedRAMP keeps the name while it changes the
 * bytes, so the date names a schema and never tells its version ($schemaVersion and sha256 do). A test holds every
 * file svc carries (schemas/manifest.json) to it.
 */
export const CR26_SCHEMA_DATE = '2026-06-24';

/** The schema every other one `$ref`s into. */
export const CR26_DEFINITIONS_STEM = 'common-definitions';

/** The document type a schema file stem names (`security-decision-record` → `sdr`). */
export function cr26TypeOfStem(stem: string): Cr26DocumentType | undefined {
  return CR26_DOCUMENT_TYPES.find((t) => CR26_DOCUMENTS[t].stem === stem);
}

/**
 * Top-level keys that only one document type's schema declares (the 2026-06-24 schemas; a test holds this table to
 * them). The AVI declares none of its own (its keys are all in the OCR or the history too); advisor and assessor
 * information declare the same keys, so they are told apart only by `--type` or `$schema`.
 */
export const CR26_DISTINGUISHING_KEYS: Record<Exclude<Cr26DocumentType, 'avi' | 'assessor' | 'advisor'>, readonly string[]> = {
  sdr: ['fedRampRequirements', 'keySecurityIndicators', 'securityControls', 'portsAndProtocols'],
  cpo: ['serviceIdentification', 'serviceProperties', 'certifiedServices', 'thirdPartyInformationResources', 'assessor'],
  ocr: [
    'certificationDataChanges',
    'plannedCertificationDataChanges',
    'transformativeChanges',
    'updatedRecommendations',
    'activeAgencies',
    'reportableIncidents',
  ],
  scn: [
    'changeType',
    'changeDescription',
    'changeTypeExplanation',
    'assessorName',
    'relatedVulnerability',
    'reason',
    'customerImpact',
    'planAndTimeline',
    'impactedControls',
    'impactAnalysis',
  ],
  vdr: ['vulnerabilities'],
  history: ['activeVulnerabilities', 'generatedAt'],
  incident: [
    'reportType',
    'providerTrackingId',
    'federalIncidentCoordinator',
    'incidentDescription',
    'timeline',
    'potentialImpact',
    'functionalImpact',
    'recoveryPlan',
    'affectedAgencies',
    'observedActivity',
    'indicatorsOfCompromise',
    'relatedCveIds',
    'rootCause',
    'responseAndRecoveryActivities',
    'resolvedAt',
  ],
};
/** Keys advisor and assessor information (and no other document) declare. */
const MARKETPLACE_KEYS = ['serviceDescription', 'servicesOffered', 'customerReferences'];

export type Cr26Detection = { type: Cr26DocumentType; by: 'flag' | '$schema' | 'keys' };

const SCHEMA_URI = /(?:^|\/)fedramp-([a-z-]+)-schema-\d{4}-\d{2}-\d{2}\.json(?:#.*)?$/;

/**
 * Which CR26 document `document` is: `--type` when given; else a `$schema` naming a FedRAMP schema file
 * (`…/fedramp-security-decision-record-schema-2026-06-24.json`); else its top-level keys: the one type whose
 * distinguishing keys it has; with none of those but `acceptedVulnerabilities`, an AVI. Throws InvalidInputError
 * (exit 3) when that does not name exactly one type: the message says to pass --type.
 */
export function detectCr26Type(document: unknown, file: string, flag?: Cr26DocumentType): Cr26Detection {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new InvalidInputError(
      'not-cr26',
      `${file}: expected a CR26 document (a JSON object), got ${document === null ? 'null' : Array.isArray(document) ? 'an array' : typeof document}`,
    );
  }
  if (flag !== undefined) return { type: flag, by: 'flag' };
  const record = document as Record<string, unknown>;
  const declared = typeof record.$schema === 'string' ? SCHEMA_URI.exec(record.$schema) : null;
  const named = declared ? cr26TypeOfStem(declared[1]) : undefined;
  if (named !== undefined) return { type: named, by: '$schema' };
  const keys = new Set(Object.keys(record));
  const found = (Object.keys(CR26_DISTINGUISHING_KEYS) as (keyof typeof CR26_DISTINGUISHING_KEYS)[])
    .map((type) => ({ type, keys: CR26_DISTINGUISHING_KEYS[type].filter((k) => keys.has(k)) }))
    .filter((c) => c.keys.length > 0);
  const marketplace = MARKETPLACE_KEYS.filter((k) => keys.has(k));
  const pass = `pass --type ${CR26_DOCUMENT_TYPES.join('|')}`;
  if (found.length === 1 && marketplace.length === 0) return { type: found[0].type, by: 'keys' };
  if (found.length > 1 || (found.length === 1 && marketplace.length > 0)) {
    const parts = [
      ...found.map((c) => `${c.type} (${c.keys.join(', ')})`),
      ...(marketplace.length > 0 ? [`assessor/advisor (${marketplace.join(', ')})`] : []),
    ];
    throw new InvalidInputError('cr26-type-ambiguous', `${file}: has top-level keys of more than one CR26 document: ${parts.join(', ')}; ${pass}`);
  }
  if (marketplace.length > 0)
    throw new InvalidInputError(
      'cr26-type-ambiguous',
      `${file}: assessor and advisor information have the same keys; pass --type assessor or --type advisor (or name the schema in "$schema")`,
    );
  if (keys.has('acceptedVulnerabilities')) return { type: 'avi', by: 'keys' };
  throw new InvalidInputError(
    'cr26-type-unknown',
    `${file}: cannot tell which CR26 document this is (no "$schema" naming a FedRAMP schema, none of the top-level keys that identify one); ${pass}`,
  );
}
