import type { InjectionToken } from 'tsyringe';
import type { Cr26DocumentType } from '../domain/fedramp/cr26-documents';
import type { OscalModel } from '../domain/oscal/oscal-model';
import type { OscalProblem } from '../domain/oscal/oscal-problem';

/** The OSCAL schema releases found in a schema directory. */
export interface SchemaSet {
  dir: string;
  /** Ascending, as `['1.1.3', '1.2.1']`. */
  versions: string[];
}

/** FedRAMP's CR26 JSON Schemas found in a directory. */
export interface FedrampSchemaSet {
  dir: string;
  /** The schema file for each document type found (the newest, when several dates are there). */
  files: Partial<Record<Cr26DocumentType, string>>;
  /** The schemas the others `$ref` into (fedramp-common-definitions-schema-<date>.json). */
  definitions: string[];
}

/**
 * NIST's OSCAL JSON Schemas (draft-07), the first validation layer of DESIGN §7, and FedRAMP's CR26 JSON Schemas
 * (2020-12, DESIGN §12.3): one validator, a dialect per schema family.
 */
export interface SchemaValidator {
  /**
   * Finds the schema directory: `dir` when given, else the one configured. Throws ConfigError when there is none or it
   * holds no OSCAL schemas; the message says how to point at them.
   */
  locate(dir?: string): Promise<SchemaSet>;
  /**
   * Validates a whole parsed document (with its root key) against one release's schema for `model`; schema problems only
   * (layer 'schema'), in document order, [] when valid. Throws ConfigError when that release lacks the model's schema file
   * or the file is no usable schema.
   */
  validate(set: SchemaSet, version: string, model: OscalModel, document: unknown): Promise<OscalProblem[]>;
  /**
   * Finds FedRAMP's schema directory: `dir` when given, else the one configured. Throws ConfigError when there is none
   * or it holds no FedRAMP schemas; the message says how to point at them.
   */
  locateFedramp(dir?: string): Promise<FedrampSchemaSet>;
  /**
   * Validates a parsed CR26 document against FedRAMP's schema for `type`; problems as validate(). Throws ConfigError
   * when the set lacks that schema or it is no usable schema.
   */
  validateFedramp(set: FedrampSchemaSet, type: Cr26DocumentType, document: unknown): Promise<OscalProblem[]>;
}

export const SCHEMA_VALIDATOR: InjectionToken<SchemaValidator> = Symbol('SchemaValidator');
