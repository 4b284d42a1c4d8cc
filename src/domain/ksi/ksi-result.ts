import { InvalidInputError } from '../errors';
import { isStatus, type Status } from './status';
import { describe, isIsoTime, isPlainObject } from '../encoding/json-values';
import { readDetections, type Detection } from '../vulnerabilities/detection';

/**
 * `KSI-<AREA>-<NN>`: AREA 2-4 upper-case letters (a NIST family or an official FedRAMP theme), NN two digits; or a
 * FedRAMP mnemonic id `KSI-<THEME>-<XXX>` (`KSI-IAM-APM`, CR26 and 0.9.x; DESIGN §3).
 */
export const KSI_ID_PATTERN = /^KSI-[A-Z]{2,4}-(?:\d{2}|[A-Z]{3})$/;

/** How to write a KSI id, for the messages that refuse one. */
export const KSI_ID_HINT = 'write KSI-<AREA>-<NN> with 2-4 upper-case letters and two digits, e.g. "KSI-AC-02", or a FedRAMP mnemonic id such as "KSI-IAM-APM"';

/** ISO-8601 date or date-time, as written by scanners (`2026-11-01`, `2026-11-01T08:00:00Z`, offsets). */

/**
 * What kind of information resource a result's evidence is about (DESIGN §12.1): `machine` (the default when a result
 * says nothing) or `non-machine` (policies, procedures, training records). CR26 gives each its own cadence
 * (VDR-TFR-MVX / VDR-TFR-MVF and VDR-TFR-NMV; `svc ir freshness --class`).
 */
export type EvidenceKind = 'machine' | 'non-machine';
export const EVIDENCE_KINDS: readonly EvidenceKind[] = ['machine', 'non-machine'];

export interface Check {
  id: string;
  status: string;
  details?: string;
  [field: string]: unknown;
}

/** One KSI result of a normalized report. Fields beyond the known ones are preserved verbatim. */
export interface KsiResult {
  ksi_id: string;
  status: Status;
  title?: string;
  details?: string;
  observed_at?: string;
  source?: string;
  checks?: Check[];
  evidence?: Record<string, unknown>;
  /** Absent: machine-based. Kept in the evidence entry like any other reported field. */
  evidence_kind?: EvidenceKind;
  [field: string]: unknown;
}

export interface ReportSource {
  tool?: string;
  version?: string;
  tenant?: string;
  [field: string]: unknown;
}

export interface NormalizedReport {
  schema_version?: string;
  generated_at?: string;
  source?: ReportSource;
  results: KsiResult[];
  /** Weaknesses the scan found (DESIGN §12.4), checked by readDetections. */
  vulnerabilities?: Detection[];
}

/** Fields svc computes for every evidence entry; an input result may not carry them. */
export const COMPUTED_FIELDS: ReadonlySet<string> = new Set(['mapped', 'controls', 'policies', 'content_hash']);

/** An evidence entry without the fields svc computed (COMPUTED_FIELDS): the result as it was reported. */
export function reportedResult(entry: Record<string, unknown>): Record<string, unknown> {
  const { mapped: _m, controls: _c, policies: _p, content_hash: _h, ...result } = entry;
  return result;
}

export interface ReportShapeOptions {
  /** Ids outside KSI_ID_PATTERN that are still accepted (the official ids of a FedRAMP release given with --catalog). */
  acceptsId?: (id: string) => boolean;
  /** JSON path of the results array in messages when the document is a bare array (default: none). */
  arrayPath?: string;
}

/**
 * Checks that a parsed JSON document is a normalized report (DESIGN §3) and returns it without copying.
 * Throws InvalidInputError naming the file, the JSON path and the fix for the first problem found.
 */
export function readNormalizedReport(document: unknown, file: string, options: ReportShapeOptions = {}): NormalizedReport {
  const { report, checker } = readReportHeader(document, file, options);
  for (let i = 0; i < report.results.length; i++) checker.check(report.results[i]);
  return report;
}

/**
 * The report-level fields of a normalized report, checked, and a checker for its results, which may come one at a time
 * (a report read an item at a time: ItemizedReport).
 */
export function readReportHeader(document: unknown, file: string, options: ReportShapeOptions = {}): { report: NormalizedReport; checker: ResultChecker } {
  const fail = failIn(file);
  if (Array.isArray(document)) return { report: { results: document as KsiResult[] }, checker: new ResultChecker(file, options.arrayPath ?? '', options) };
  if (!isPlainObject(document)) {
    return fail(
      '$',
      `expected an array of KSI results or an object with "results", got ${describe(document)}`,
      'see docs/report-format.md for the report shape',
    );
  }
  const { results, schema_version, generated_at, source, vulnerabilities } = document;
  if (results === undefined) fail('results', 'missing', 'a report object needs "results": [ ... ] (docs/report-format.md)');
  if (!Array.isArray(results)) fail('results', `expected an array, got ${describe(results)}`, 'write "results": [ ... ]');
  if (schema_version !== undefined && schema_version !== '1') {
    fail('schema_version', `${describe(schema_version)} is not supported`, 'this svc reads schema_version "1"');
  }
  if (generated_at !== undefined && !(typeof generated_at === 'string' && isIsoTime(generated_at))) {
    fail('generated_at', `${describe(generated_at)} is not an ISO-8601 time`, 'write e.g. "2026-11-01T08:00:00Z"');
  }
  if (source !== undefined) checkSource(source, fail);
  if (vulnerabilities !== undefined) readDetections(vulnerabilities, file);
  return { report: document as unknown as NormalizedReport, checker: new ResultChecker(file, 'results', options) };
}

/**
 * Checks the results of one report in order, one at a time: each must be a KSI result, and no ksi_id may repeat.
 * Ids in strictly ascending order cannot repeat, so the set of seen ids is only built once the order breaks.
 */
export class ResultChecker {
  private readonly fail: Fail;
  /** The ksi_ids checked so far, in the order they came. */
  readonly ids: string[] = [];
  private seen: Set<string> | undefined;
  /** Whether every result so far came in strictly ascending ksi_id order. */
  sorted = true;

  constructor(
    file: string,
    private readonly prefix: string,
    private readonly options: ReportShapeOptions,
  ) {
    this.fail = failIn(file);
  }

  /** Checks the next result and returns it as a KsiResult; throws InvalidInputError naming its path. */
  check(result: unknown): KsiResult {
    const { fail, prefix, ids } = this;
    const i = ids.length;
    // The path is only spelled out when something is wrong; a valid million-result report builds none.
    const at = (suffix = '') => `${prefix}[${i}]${suffix}`;
    if (!isPlainObject(result)) fail(at(), `expected a KSI result object, got ${describe(result)}`, 'write {"ksi_id": "KSI-AC-02", "status": "PASS"}');
    const r = result as Record<string, unknown>;
    const id = r.ksi_id;
    if (id === undefined) fail(at('.ksi_id'), 'missing', 'every result needs a ksi_id such as "KSI-AC-02"');
    if (typeof id !== 'string' || !(KSI_ID_PATTERN.test(id) || this.options.acceptsId?.(id))) {
      fail(at('.ksi_id'), `${describe(id)} is not a KSI id`, KSI_ID_HINT);
    }
    const ksiId = id as string;
    if (this.seen === undefined && i > 0 && !(ids[i - 1] < ksiId)) {
      this.sorted = false;
      this.seen = new Set(ids);
    }
    if (this.seen?.has(ksiId)) {
      fail(
        at('.ksi_id'),
        `duplicate "${ksiId}" (first at ${prefix}[${ids.indexOf(ksiId)}])`,
        'keep one result per KSI, or merge several reports with "svc evidence build"',
      );
    }
    this.seen?.add(ksiId);
    ids.push(ksiId);
    const status = r.status;
    if (status === undefined) fail(at('.status'), 'missing', 'every result needs a status: PASS, WARN or FAIL');
    if (!isStatus(status)) fail(at('.status'), `${describe(status)} is not a status`, 'use exactly PASS, WARN or FAIL (upper case)');
    checkOptionalFields(r, at, fail);
    return r as KsiResult;
  }
}

function failIn(file: string): Fail {
  return (path, problem, fix) => {
    throw new InvalidInputError('invalid-report', `${file}: ${path}: ${problem}; ${fix}`);
  };
}

type Fail = (path: string, problem: string, fix: string) => never;

const TEXT_FIELDS = ['title', 'details', 'source'] as const;
const COMPUTED = [...COMPUTED_FIELDS];

function checkOptionalFields(r: Record<string, unknown>, at: (suffix?: string) => string, fail: Fail): void {
  for (const field of TEXT_FIELDS) {
    const value = r[field];
    if (value !== undefined && typeof value !== 'string')
      fail(at(`.${field}`), `expected a string, got ${describe(value)}`, `write "${field}" as a string or leave it out`);
  }
  const observed = r.observed_at;
  if (observed !== undefined && !(typeof observed === 'string' && isIsoTime(observed))) {
    fail(at('.observed_at'), `${describe(observed)} is not an ISO-8601 time`, 'write e.g. "2026-11-01T08:00:00Z" or leave it out');
  }
  const kind = r.evidence_kind;
  if (kind !== undefined && !EVIDENCE_KINDS.includes(kind as EvidenceKind)) {
    fail(
      at('.evidence_kind'),
      `${describe(kind)} is not an evidence kind`,
      'write "machine" or "non-machine" (policies, procedures, training records), or leave it out for machine-based evidence',
    );
  }
  const evidence = r.evidence;
  if (evidence !== undefined && !isPlainObject(evidence))
    fail(at('.evidence'), `expected an object, got ${describe(evidence)}`, 'wrap the raw evidence in an object');
  const checks = r.checks;
  if (checks !== undefined) {
    if (!Array.isArray(checks)) fail(at('.checks'), `expected an array, got ${describe(checks)}`, 'write "checks": [{"id": ..., "status": ...}]');
    for (let j = 0; j < (checks as unknown[]).length; j++) {
      const check: unknown = (checks as unknown[])[j];
      const cat = at(`.checks[${j}]`);
      if (!isPlainObject(check)) fail(cat, `expected an object, got ${describe(check)}`, 'write {"id": ..., "status": ...}');
      const c = check as Record<string, unknown>;
      if (typeof c.id !== 'string' || c.id === '')
        fail(`${cat}.id`, `expected a non-empty string, got ${describe(c.id)}`, 'name the check, e.g. "MS.AAD.1.1v1"');
      if (typeof c.status !== 'string' || c.status === '')
        fail(`${cat}.status`, `expected a non-empty string, got ${describe(c.status)}`, 'give the check its outcome, e.g. "PASS"');
      if (c.details !== undefined && typeof c.details !== 'string')
        fail(`${cat}.details`, `expected a string, got ${describe(c.details)}`, 'write details as a string or leave them out');
    }
  }
  for (const field of COMPUTED) {
    if (r[field] !== undefined) fail(at(`.${field}`), 'is computed by svc', `remove "${field}" from the input result`);
  }
}

function checkSource(source: unknown, fail: Fail): void {
  if (!isPlainObject(source)) fail('source', `expected an object, got ${describe(source)}`, 'write "source": {"tool": ..., "version": ...}');
  const s = source as Record<string, unknown>;
  for (const field of ['tool', 'version', 'tenant']) {
    if (s[field] !== undefined && typeof s[field] !== 'string')
      fail(`source.${field}`, `expected a string, got ${describe(s[field])}`, `write "${field}" as a string`);
  }
}
