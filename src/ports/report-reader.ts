import type { InjectionToken } from 'tsyringe';
import type { RunContext } from '../domain/artifacts/run-context';
import type { Preceded } from '../domain/artifacts/partition';
import type { CatalogData, KsiDefinition } from '../domain/catalog/ksi-catalog';
import type { GovernancePolicy } from '../domain/governance/governance-policy';
import type { Severity } from '../domain/governance/severity';
import type { KsiResult } from '../domain/ksi/ksi-result';
import type { StatusCounts } from '../domain/ksi/status';

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
 * A large report read in parts: the first parsed here, the others on worker threads, so parsing and
 * rendering a million results use every core. Parts are only ever a faster route to what reading the
 * whole report gives; whenever a part cannot vouch for itself, the caller reads the report whole.
 */
export interface PartitionedReport {
  file: Omit<LoadedDocument, 'document'>;
  /** The report without its results: the results array itself for a bare array, else the object with `results: []`. */
  header: unknown;
  /** Results of the first part, parsed but not checked. */
  local: unknown[];
  remote: RemotePart[];
}

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

/** What a part needs to check its results as the whole report would (DESIGN §3). */
export interface PartRules {
  /** JSON path of the results array in messages (`results`, or '' for a bare array). */
  arrayPath: string;
  /** Official ids accepted besides KSI-<AREA>-<NN> (`--catalog`). */
  acceptIds: string[];
  catalog: CatalogData;
  extra: KsiDefinition[];
}

export type PartCheck =
  | { ok: true; count: number; first?: string; last?: string; sorted: boolean; statuses: StatusCounts; mapped: KsiResult[] }
  | { ok: false; reason: string };

export interface PartJob {
  policy: GovernancePolicy;
  context: RunContext;
  preceded: Preceded;
  /** Directory for the part's fragments (inside the bundle's staging area). */
  scratch: string;
}

/** A piece of an artifact a worker wrote to a file, to be appended to the artifact in order. */
export interface Fragment {
  path: string;
  bytes: number;
}

export interface RenderedPart {
  counts: { results: number; pass: number; warn: number; fail: number; mapped: number; unmapped: number };
  unmapped: string[];
  poamRows: number;
  actions: { total: number; remediate: number };
  /** Content hashes of the part's entries in order, 32 raw bytes each (the Merkle leaves). */
  leaves: Uint8Array;
  fragments: { evidence: Fragment; poam: Fragment; lineage: Fragment; governance: Record<Severity, Fragment> };
}

/** A later part of a partitioned report, held by a worker thread. */
export interface RemotePart {
  check(rules: PartRules): Promise<PartCheck>;
  render(job: PartJob): Promise<RenderedPart>;
  close(): Promise<void>;
}

/**
 * Reads JSON inputs. read() throws NotFoundError for a missing file, InvalidInputError for a directory given
 * as a file and for invalid JSON (with line and column); a UTF-8 byte-order mark is accepted.
 */
export interface ReportReader {
  read(path: string, options?: { keepText?: boolean }): Promise<LoadedDocument>;
  /**
   * Reads a file of any kind (a Markdown artifact) as UTF-8 text: `path`, or `member` inside directory `path`.
   * Throws as read() does for a missing file.
   */
  readText(path: string, member?: string): Promise<LoadedText>;
  /** Reads a normalized report in parts when it is large and the machine has cores to spare; else in one. */
  readInParts(path: string): Promise<PartitionedReport>;
  /**
   * Reads a normalized report's results an item at a time (ItemizedReport); undefined when the file is not laid out as
   * one: the caller reads it whole. Throws as read() does for a missing file, a directory or a file too large.
   */
  readItems(path: string): Promise<ItemizedReport | undefined>;
  /** Reads `member` inside directory `dir` (a file of an auditor bundle). */
  readMember(dir: string, member: string): Promise<LoadedDocument>;
  kind(path: string): Promise<PathKind>;
}

export const REPORT_READER: InjectionToken<ReportReader> = Symbol('ReportReader');
