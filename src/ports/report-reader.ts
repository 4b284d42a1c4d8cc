import type { InjectionToken } from 'tsyringe';

/** A JSON file as read from disk: parsed once, with the digest of its exact bytes. */
export interface LoadedDocument {
  /** Base name, as artifacts record it (the same bundle whatever directory the input sat in). */
  name: string;
  /** The path as the user gave it, for messages. */
  path: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
  bytes: number;
  document: unknown;
}

export type PathKind = 'file' | 'directory' | 'missing';

/**
 * Reads JSON inputs. read() throws NotFoundError for a missing file, InvalidInputError for a directory given
 * as a file and for invalid JSON (with line and column); a UTF-8 byte-order mark is accepted.
 */
export interface ReportReader {
  read(path: string): Promise<LoadedDocument>;
  /** Reads `member` inside directory `dir` (a file of an auditor bundle). */
  readMember(dir: string, member: string): Promise<LoadedDocument>;
  kind(path: string): Promise<PathKind>;
}

export const REPORT_READER: InjectionToken<ReportReader> = Symbol('ReportReader');
