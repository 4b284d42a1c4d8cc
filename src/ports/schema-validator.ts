import type { InjectionToken } from 'tsyringe';
import type { Cr26DocumentType } from '../domain/fedramp/cr26-documents';
import type { Cr26Shapes } from '../domain/fedramp/schema-shapes';
import type { OscalModel } from '../domain/oscal/oscal-model';
import type { OscalProblem } from '../domain/oscal/oscal-problem';

/** The OSCAL schema releases found in a schema directory. */
export interface SchemaSet {
  dir: string;
  /** Ascending, as `['1.1.3', '1.2.1']`. */
  versions: string[];
  /** Set when the directory is svc's own copy of NIST's release schemas (no `--schemas`, environment or config). */
  carried?: true;
}

/**
 * One schema file as it judges a document: FedRAMP keeps a file's name (and the date in it) when it changes the
 * schema, so a schema is identified by the `$schemaVersion` inside it and the SHA-256 of its bytes, never by its name.
 */
export interface SchemaIdentity {
  /** The document type it is FedRAMP's schema for, or `definitions` for the common definitions the others `$ref`. */
  type: Cr26DocumentType | 'definitions';
  /** The file, as found in the set's directory. */
  file: string;
  /** `$schemaVersion` as the file writes it; absent when it has none. */
  schemaVersion?: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
}

/** FedRAMP's CR26 JSON Schemas found in a directory. */
export interface FedrampSchemaSet {
  dir: string;
  /** The generation (`2026-10-08`) when the directory is svc's own copy of FedRAMP's schemas; absent for one given. */
  carried?: string;
  /** The schema file for each document type found (the highest `$schemaVersion`, when several are there). */
  files: Partial<Record<Cr26DocumentType, string>>;
  /** The schemas the others `$ref` into (fedramp-common-definitions-schema-<date>.json). */
  definitions: string[];
  /**
   * What each of those files is, read from its bytes when the set was located: the document types in
   * CR26_DOCUMENT_TYPES order, then the definitions. A file that no longer has that SHA-256 when it is compiled is
   * refused (ConfigError `fedramp-schema-changed`), so what a document records it was judged by is what judged it.
   */
  schemas: SchemaIdentity[];
  /** The document shapes these schemas declare (cr26Shapes): what every document svc writes against them follows. */
  shapes: Cr26Shapes;
}

/**
 * NIST's OSCAL JSON Schemas (draft-07), the first validation layer of DESIGN §7, and FedRAMP's CR26 JSON Schemas
 * (2020-12, DESIGN §12.3): one validator, a dialect per schema family.
 */
export interface SchemaValidator {
  /**
   * Finds the schema directory: `dir` when given, else the one configured, else NIST's release schemas svc carries.
   * Throws ConfigError when a directory given or configured holds no OSCAL schemas (or svc's own are missing); the
   * message says how to point at them.
   */
  locate(dir?: string): Promise<SchemaSet>;
  /**
   * Validates a whole parsed document (with its root key) against one release's schema for `model`; schema problems only
   * (layer 'schema'), in document order, [] when valid. Throws ConfigError when that release lacks the model's schema file
   * or the file is no usable schema.
   */
  validate(set: SchemaSet, version: string, model: OscalModel, document: unknown): Promise<OscalProblem[]>;
  /**
   * The schema file validate() judges `model` documents of release `version` by, and the hex SHA-256 of its bytes (read
   * now), for the document's record of what judged it. Throws as validate() does when the release lacks it.
   */
  oscalSchema(set: SchemaSet, version: string, model: OscalModel): Promise<{ file: string; sha256: string }>;
  /**
   * Finds FedRAMP's schema directory: `dir` when given, else the one configured, else the newest generation svc
   * carries. Throws ConfigError when a directory given or configured holds no FedRAMP schemas (or svc's own are
   * missing); the message says how to point at them.
   */
  locateFedramp(dir?: string): Promise<FedrampSchemaSet>;
  /**
   * Every generation of FedRAMP's schemas svc carries (schemas/fedramp/<date>/), newest first, each with `carried` set:
   * what a document written by any provider is judged against, to say which generation it is valid under. Throws
   * ConfigError `fedramp-schemas-missing` when svc's own schemas are missing, IntegrityError `carried-schema-changed`
   * when a file's bytes are not those its manifest records.
   */
  locateFedrampGenerations(): Promise<FedrampSchemaSet[]>;
  /**
   * Validates a parsed CR26 document against FedRAMP's schema for `type`; problems as validate(). Throws ConfigError
   * when the set lacks that schema or it is no usable schema.
   */
  validateFedramp(set: FedrampSchemaSet, type: Cr26DocumentType, document: unknown): Promise<OscalProblem[]>;
}

export const SCHEMA_VALIDATOR: InjectionToken<SchemaValidator> = Symbol('SchemaValidator');
