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
  /** The file's text (without a byte-order mark), when asked for with `keepText`. */
  text?: string;
}

/** Any file as read from disk: its text and the digest of its exact bytes. */
export type LoadedText = Omit<LoadedDocument, 'document' | 'text'> & { text: string };

export type PathKind = 'file' | 'directory' | 'missing';

/**
 * A normalized report whose results come one at a time, each as its JSON text, so a report of a million results is
 * never in memory at once, as bytes or parsed. The items are split on their structure, not validated: an item that
 * does not parse, or an error of the splitter (JsonSplitError), means the caller reads the report whole, which reports
 * the problem properly.
 */
export interface ItemizedReport {
  /** The report without its results: the object with `results: []` ([] for a bare array). */
  header: unknown;
  /** The texts of the results array's items, in order, read from the file as they are asked for; read once. */
  items: AsyncIterable<string>;
  /** The file's name, path, size and the SHA-256 of the bytes read: known once `items` has been read to its end. */
  file(): Omit<LoadedDocument, 'document'>;
}

/**
 * Reads JSON inputs. read() throws NotFoundError for a missing file, InvalidInputError for a directory given
 * as a file, for bytes that are not UTF-8 (`invalid-utf8`, with the byte offset and line) and for invalid JSON (with
 * line and column); a UTF-8 byte-order mark is accepted.
 */
export interface ReportReader {
  read(path: string, options?: { keepText?: boolean }): Promise<LoadedDocument>;
  /**
   * Reads a file of any kind (a Markdown artifact) as UTF-8 text: `path`, or `member` inside directory `path`.
   * Throws as read() does for a missing file, InvalidInputError `input-is-directory` for a directory and `invalid-utf8`
   * (naming the byte offset and line) for bytes that are not UTF-8, unless `anyBytes`: then each such byte reads as
   * U+FFFD, for a caller that checks the bytes' digest and the text's shape itself (verifying a bundle or package).
   */
  readText(path: string, member?: string, options?: { anyBytes?: boolean }): Promise<LoadedText>;
  /**
   * Reads a normalized report's results an item at a time (ItemizedReport); undefined when the file is not laid out as
   * one: the caller reads it whole. Throws as read() does for a missing file, a directory or a file too large.
   */
  readItems(path: string): Promise<ItemizedReport | undefined>;
  /** Reads `member` inside directory `dir` (a file of an auditor bundle). */
  readMember(dir: string, member: string): Promise<LoadedDocument>;
  kind(path: string): Promise<PathKind>;
  /** The names of the entries of directory `dir`, sorted; throws as read() does for a missing path, InvalidInputError for a file. */
  names(dir: string): Promise<string[]>;
}

export const REPORT_READER: InjectionToken<ReportReader> = Symbol('ReportReader');
