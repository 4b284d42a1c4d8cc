import type { RunCounts } from '../assessment/assessment';
import type { InputRef } from '../artifacts/run-context';
import type { PoamRow } from '../artifacts/poam';
import type { DriftClass } from '../drift/drift-finding';
import type { ReportSource } from '../ksi/ksi-result';
import { jsonText } from '../encoding/json-chunks';
import type { ConmonEvent } from './conmon-event';

export const RUN_RECORD_SCHEMA = 'svc.run/v1';

/** The document a run's evidence bundle is stored as: the canonical evidence-bundle.json (svc.evidence-bundle/v1). */
export const EVIDENCE_BUNDLE_DOCUMENT = 'evidence-bundle.json';

/**
 * What the run store keeps of one run, immutable once recorded, besides its evidence bundle, which is stored as the
 * document EVIDENCE_BUNDLE_DOCUMENT. The run's id is the hex SHA-256 of the RFC 8785 canonical JSON of this record
 * with the bundle as its `bundle` member (recordFrame), so the same input recorded twice is the same run. The bundle
 * is never one value in memory: a run of a million results is read and hashed a chunk at a time.
 */
export interface RunRecord {
  schema: typeof RUN_RECORD_SCHEMA;
  /** Report-level facts of the normalized report; absent for a run read from a bundle, which does not keep them. */
  report?: { schema_version?: string; generated_at?: string; source?: ReportSource };
  /**
   * The report's detections (DESIGN §12.4): how many, and the hex SHA-256 of their canonical JSON, so the same results
   * with other detections are another run. Absent for a report without them (so earlier runs keep their ids).
   */
  vulnerabilities?: { detections: number; sha256: string };
}

/**
 * The canonical text of a run's full record around its bundle's canonical text: RFC 8785 orders `bundle` before
 * `report` and `schema`, so it is `prefix`, the bundle, then `suffix`. (svc 0.5.0 stored the full record as one value;
 * its canonical text is the same bytes, so its runs keep their ids.)
 */
export function recordFrame(record: RunRecord): { prefix: string; suffix: string } {
  const rest = jsonText(record, 'canonical').slice(1);
  return { prefix: '{"bundle":', suffix: rest === '}' ? '}' : `,${rest}` };
}

/** A POA&M item as the lifecycle tracks it across runs: the POA&M row plus its state. */
export interface TrackedPoamItem extends Omit<PoamRow, 'status'> {
  status: 'Open' | 'Closed';
  /** Open past scheduled_completion_date at the latest run. */
  overdue: boolean;
  /** YYYY-MM-DD the status last changed (opened, closed, became overdue). */
  status_date: string;
  /** YYYY-MM-DD the item was closed (a later run reported PASS); absent while open. */
  completion_date?: string;
  /** Status of the KSI at the last run that reported it. */
  last_status: 'PASS' | 'WARN' | 'FAIL';
  /** Id of the last run that reported the KSI. */
  last_run: string;
}

/** Per-area status counts of a run (area: the catalog family, or UNMAPPED). */
export type AreaCounts = Record<string, { pass: number; warn: number; fail: number }>;

/** The index line of one recorded run: what lists, trends and period reports need without the run itself. */
export interface RunSummary {
  /** 1, 2, …: the order runs were recorded in. */
  seq: number;
  id: string;
  /** When it was recorded (ISO-8601 UTC). */
  recorded_at: string;
  /** The time the run speaks for: the report's generated_at, else when it was recorded. */
  as_of: string;
  input: InputRef;
  source?: ReportSource;
  /** Hex RFC 6962 Merkle root of the run's evidence entries. */
  merkle_root: string;
  counts: RunCounts;
  areas: AreaCounts;
  poam: { open: number; overdue: number; closed: number; opened: number; closed_now: number };
  drift: Record<DriftClass, number>;
}

/**
 * A document stored with a run when it was recorded (the OSCAL documents, the SAR's DSSE envelope, the manifest):
 * what svc-api serves for the run, byte for byte.
 */
export interface RunDocument {
  /** A plain file name: `sar.json`, `sar.json.dsse.json`. */
  name: string;
  media_type: string;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
  bytes: number;
}

/**
 * A run as it is decided for recording: its POA&M state and events are read as they are produced (LazyArrays from
 * recordStep), so a large run's are never all in memory; written out, they are what StoredRun holds.
 */
export interface DecidedRun {
  summary: RunSummary;
  record: RunRecord;
  /** Every tracked POA&M item after this run, open and closed, in poam_id order. */
  poam: Iterable<TrackedPoamItem>;
  events: Iterable<ConmonEvent>;
  /** The documents stored with the run, in name order; absent for runs recorded before svc stored documents. */
  documents?: RunDocument[];
}

/** A recorded run with the lifecycle state it led to and the events it emitted, as read back from the store. */
export interface StoredRun extends DecidedRun {
  poam: TrackedPoamItem[];
  events: ConmonEvent[];
}
