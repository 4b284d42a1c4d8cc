import type { InjectionToken } from 'tsyringe';
import type { OscalModel } from '../domain/oscal/oscal-model';
import type { OscalProblem } from '../domain/oscal/oscal-problem';

/** The OSCAL schema releases found in a schema directory. */
export interface SchemaSet {
  dir: string;
  /** Ascending, as `['1.1.3', '1.2.1']`. */
  versions: string[];
}

/** NIST's OSCAL JSON Schemas (draft-07), the first validation layer of DESIGN §7. */
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
}

export const SCHEMA_VALIDATOR: InjectionToken<SchemaValidator> = Symbol('SchemaValidator');
