import { InvalidInputError } from '../errors';
import { describe, isPlainObject } from '../encoding/json-values';

/** OSCAL models by root key, with the file name of each one's schema in NIST's release assets. */
export const OSCAL_SCHEMA_FILES = {
  catalog: 'oscal_catalog_schema.json',
  profile: 'oscal_profile_schema.json',
  'component-definition': 'oscal_component_schema.json',
  'system-security-plan': 'oscal_ssp_schema.json',
  'assessment-plan': 'oscal_assessment-plan_schema.json',
  'assessment-results': 'oscal_assessment-results_schema.json',
  'plan-of-action-and-milestones': 'oscal_poam_schema.json',
  'mapping-collection': 'oscal_mapping_schema.json',
} as const;

export type OscalModel = keyof typeof OSCAL_SCHEMA_FILES;
const OSCAL_MODELS = Object.keys(OSCAL_SCHEMA_FILES) as OscalModel[];

export function isOscalModel(value: unknown): value is OscalModel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(OSCAL_SCHEMA_FILES, value);
}

/** An OSCAL document as read: its model (the root key), the body under it and its declared `oscal-version`. */
export interface OscalDocument {
  model: OscalModel;
  body: Record<string, unknown>;
  /** `metadata.oscal-version` as written, when it is a string. */
  oscalVersion?: string;
}

/** Recognises an OSCAL document by its one root key (a `$schema` key may stand beside it). */
export function readOscalDocument(document: unknown, file: string): OscalDocument {
  if (!isPlainObject(document)) {
    throw new InvalidInputError(
      'not-oscal',
      `${file}: expected an OSCAL document (a JSON object with one root key such as "system-security-plan"), got ${describe(document)}`,
    );
  }
  const keys = Object.keys(document).filter((k) => k !== '$schema');
  const model = keys.find(isOscalModel);
  if (model === undefined || keys.length !== 1) {
    throw new InvalidInputError(
      'not-oscal',
      `${file}: not an OSCAL document: root keys ${keys.length === 0 ? '(none)' : keys.map((k) => JSON.stringify(k)).join(', ')}; expected exactly one of ${OSCAL_MODELS.join(', ')}`,
    );
  }
  const body = document[model];
  if (!isPlainObject(body)) throw new InvalidInputError('not-oscal', `${file}: ${model}: expected an object, got ${describe(body)}`);
  const metadata = body.metadata;
  const version = isPlainObject(metadata) ? metadata['oscal-version'] : undefined;
  return { model, body, oscalVersion: typeof version === 'string' ? version : undefined };
}

/** The document, when it is of `model`; else an input error saying what it is and `fix`. */
export function expectModel(oscal: OscalDocument, model: OscalModel, file: string, fix: string): OscalDocument {
  if (oscal.model !== model)
    throw new InvalidInputError(
      model === 'system-security-plan' ? 'not-an-ssp' : 'wrong-oscal-model',
      `${file}: is an OSCAL ${oscal.model}, not a ${model}; ${fix}`,
    );
  return oscal;
}

/**
 * The schema release that judges a document (DESIGN §7): 1.0.x and 1.1.x documents against the newest 1.1 release
 * available, 1.2.x against the newest 1.2; any other version against the newest release of its own major.minor.
 * A document without a readable version is judged by the newest release (its schema then reports the missing field).
 */
export function schemaVersionFor(oscalVersion: string | undefined, available: readonly string[]): string | undefined {
  const sorted = [...available].sort(compareVersions);
  if (oscalVersion === undefined) return sorted.at(-1);
  const match = /^v?(\d+)\.(\d+)(?:\.\d+)?/.exec(oscalVersion.replace(/^oscal-/, ''));
  if (!match) return sorted.at(-1);
  const line = match[1] === '1' && match[2] === '0' ? '1.1' : `${match[1]}.${match[2]}`;
  return sorted.filter((v) => v.startsWith(`${line}.`) || v === line).at(-1);
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
