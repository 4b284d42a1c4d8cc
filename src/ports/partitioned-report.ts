import type { InjectionToken } from 'tsyringe';
import type { PartCheck, PartJob, PartRules, RenderedPart } from '../domain/artifacts/partition';
import type { LoadedDocument } from './report-reader';

/**
 * A large report read in parts: the first parsed here, the others held elsewhere (worker threads), so parsing and
 * rendering a million results use every core. Parts are only ever a faster route to what reading the whole report
 * gives; whenever a part cannot vouch for itself, the caller reads the report whole (REPORT_READER).
 */
export interface PartitionedReport {
  file: Omit<LoadedDocument, 'document'>;
  /** The report without its results: the results array itself for a bare array, else the object with `results: []`. */
  header: unknown;
  /** Results of the first part, parsed but not checked. */
  local: unknown[];
  remote: RemotePart[];
}

/** A later part of a partitioned report, held elsewhere: it answers with what the domain's PartWork decides. */
export interface RemotePart {
  check(rules: PartRules): Promise<PartCheck>;
  render(job: PartJob): Promise<RenderedPart>;
  close(): Promise<void>;
}

/**
 * Reads a normalized report in parts when it is large and the machine has cores to spare; else in one piece (no
 * remote parts). Throws as ReportReader.read() does for a missing file, a directory, a file too large or invalid JSON.
 */
export interface PartitionedReportReader {
  readInParts(path: string): Promise<PartitionedReport>;
}

export const PARTITIONED_REPORT_READER: InjectionToken<PartitionedReportReader> = Symbol('PartitionedReportReader');
