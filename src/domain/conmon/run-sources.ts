import type { BundleFacts } from '../artifacts/evidence-bundle';
import { isoSeconds } from '../encoding/iso-time';
import { IntegrityError, InvalidInputError } from '../errors';
import { addCadence, cadenceText, type EvidenceCadence } from '../fedramp/evidence-cadence';
import { type ReportSource } from '../ksi/ksi-result';
import { isPlainObject } from '../encoding/json-values';
import { readDetections, type Detection } from '../vulnerabilities/detection';
import type { RunSummary } from './run-record';

/**
 * A run is one source's part of the store's state (docs/conmon.md, "Sources"): a scanner and the scope it scanned.
 * Its key is the name `--source` gave (kept as the report source's `name`), else the report's tool with its tenant (an
 * M365 tenant, an AWS account, a host group), else UNNAMED_SOURCE for a run that says nothing of where it came from.
 * Recording a source's report replaces that source's part and keeps every other's: the state is the latest run of
 * each source (latestOfEachSource).
 */
export const UNNAMED_SOURCE = '(unnamed)';

/** The longest `--source` name, in code points. */
const MAX_SOURCE_NAME = 128;

export function sourceKey(source: ReportSource | undefined): string {
  const name = source?.name;
  if (typeof name === 'string' && name !== '') return name;
  const tool = typeof source?.tool === 'string' ? source.tool.trim() : '';
  const tenant = typeof source?.tenant === 'string' ? source.tenant.trim() : '';
  if (tool === '') return UNNAMED_SOURCE;
  return tenant === '' ? tool : `${tool} (${tenant})`;
}

/**
 * What is wrong with a source name (`--source`, an orchestrator job's `source`), or undefined for a good one: 1 to 128
 * printable characters without surrounding spaces.
 */
export function sourceNameProblem(name: string): string | undefined {
  return name.trim() !== name || name === ''
    ? 'is empty or has spaces around it'
    : [...name].length > MAX_SOURCE_NAME
      ? `is longer than ${MAX_SOURCE_NAME} characters`
      : /\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}/u.test(name)
        ? 'holds a control or format character'
        : undefined;
}

/** Checks a `--source` name (sourceNameProblem). Throws InvalidInputError `invalid-source` with the fix. */
export function checkSourceName(name: string): string {
  const problem = sourceNameProblem(name);
  if (problem === undefined) return name;
  throw new InvalidInputError(
    'invalid-source',
    `--source ${JSON.stringify(name.slice(0, 40))} ${problem}; name the scanner and its scope, e.g. --source "nessus-prod-hosts"`,
  );
}

/** The report source a run is recorded under: the report's, named `name` when `--source` gave one. */
export function namedSource(source: ReportSource | undefined, name: string | undefined): ReportSource | undefined {
  return name === undefined ? source : { ...(source ?? {}), name };
}

/** The latest run of each source, in seq order (the state the store holds: every source's latest part). */
export function latestOfEachSource(summaries: readonly RunSummary[]): RunSummary[] {
  const latest = new Map<string, RunSummary>();
  for (const summary of summaries) {
    const key = sourceKey(summary.source);
    const seen = latest.get(key);
    if (seen === undefined || summary.seq > seen.seq) latest.set(key, summary);
  }
  return [...latest.values()].sort((a, b) => a.seq - b.seq);
}

/** A source that stopped reporting: the cadence it missed and when its next run was due (docs/conmon.md, "Sources"). */
export interface SourceStaleness {
  /** The rule that gives the cadence (VDR-TFR-MVX, VDR-TFR-MVF). */
  rule: string;
  /** The cadence as text: `7 days`. */
  every: string;
  /** The source's latest run's as_of plus the cadence, ISO-8601 UTC to the second. */
  due: string;
}

/**
 * Whether a source whose latest run is as of `asOf` is stale at `now`: its next run was due `cadence` after it (the
 * machine-based evidence cadence of the profile's type and class, evidenceCadence: scanners give machine-based
 * evidence), and `now` is past that, as a result's evidence is judged stale. Undefined while it is on time, and for an
 * `asOf` that is not a time. Staleness changes nothing in the state: the source's findings stay as it left them.
 */
export function sourceStaleness(asOf: string, cadence: Pick<EvidenceCadence, 'rule' | 'every'>, now: Date): SourceStaleness | undefined {
  const time = Date.parse(asOf);
  if (Number.isNaN(time)) return undefined;
  const due = addCadence(time, cadence.every);
  return now.getTime() > due ? { rule: cadence.rule, every: cadenceText(cadence.every), due: isoSeconds(new Date(due)) } : undefined;
}

/** The document a run's detections are stored as (canonical JSON), beside its vulnerability groups. */
export const DETECTIONS_DOCUMENT = 'detections.json';
export const DETECTIONS_SCHEMA = 'svc.detections/v1';

export interface StoredDetections {
  schema: typeof DETECTIONS_SCHEMA;
  detections: Detection[];
}

/** Reads a stored detections.json; anything else than what svc wrote is IntegrityError `run-store-tampered`. */
export function readStoredDetectionsDocument(document: unknown, where: string): Detection[] {
  const tampered = (problem: string): never => {
    throw new IntegrityError('run-store-tampered', `${where}: ${DETECTIONS_DOCUMENT}: ${problem}; the store was modified outside svc. Restore it from backup`);
  };
  if (!isPlainObject(document) || document.schema !== DETECTIONS_SCHEMA) return tampered(`expected schema "${DETECTIONS_SCHEMA}"`);
  try {
    return readDetections(document.detections, `${where} ${DETECTIONS_DOCUMENT}`);
  } catch (error) {
    return tampered((error as Error).message);
  }
}

/**
 * The detections of the store's state: every source's latest detections. `known` gives a source's latest run's
 * detections, or undefined where that run recorded detections svc did not keep (a run recorded before svc 0.6
 * stored them): the tools of such sources are `unknown`, and their groups are not remediated by their absence.
 */
export function stateDetections(parts: readonly { source: ReportSource | undefined; detections: readonly Detection[] | undefined }[]): {
  detections: Detection[];
  unknownTools: Set<string>;
} {
  const detections: Detection[] = [];
  const unknownTools = new Set<string>();
  for (const part of parts) {
    if (part.detections === undefined) {
      if (typeof part.source?.tool === 'string') unknownTools.add(part.source.tool);
    } else detections.push(...part.detections);
  }
  return { detections, unknownTools };
}

/**
 * What a bundle merged from several reports (`svc evidence build a.json b.json`) carries of them: the oldest report's
 * generated_at (when every report gives one), the schema_version they share, every detection
 * (one per id; the same scanner's same finding on the same resource is one detection), and the one source they
 * share, else a source named after all of theirs (`ScubaGear (contoso) + Nessus (2 hosts)`), which records the merged
 * bundle as one source of its own. Recording each report (`svc conmon process a.json b.json`) keeps each its source.
 */
export function mergedBundleFacts(
  reports: readonly { generated_at?: string; schema_version?: string; source?: ReportSource; vulnerabilities?: Detection[] }[],
): BundleFacts {
  const keys = [...new Set(reports.map((r) => sourceKey(r.source)))];
  const source = keys.length === 1 ? reports[0].source : { name: keys.join(' + ') };
  const byId = new Map<string, Detection>();
  for (const report of reports) for (const d of report.vulnerabilities ?? []) if (!byId.has(d.id)) byId.set(d.id, d);
  const found = reports.some((r) => r.vulnerabilities !== undefined);
  // The oldest report's time: merged results are no fresher than the oldest of them.
  const times = reports.map((r) => r.generated_at).filter((t): t is string => t !== undefined);
  const oldest = times.length === reports.length && times.length > 0 ? times.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a)) : undefined;
  const versions = [...new Set(reports.map((r) => r.schema_version))];
  const version = versions.length === 1 ? versions[0] : undefined;
  return {
    ...(oldest === undefined ? {} : { generated_at: oldest }),
    ...(version === undefined ? {} : { schema_version: version }),
    ...(source === undefined ? {} : { source }),
    ...(found ? { vulnerabilities: [...byId.values()] } : {}),
  };
}

/**
 * Whether a report or bundle lost its detections on the way: svc's adapters always write `vulnerabilities` (empty when
 * the scanner found none), so one that names an svc adapter as its source and has none was passed through something
 * that dropped them (a bundle of an svc before 0.6, a hand edit).
 */
export function lostDetections(source: ReportSource | undefined, detections: readonly Detection[] | undefined): boolean {
  return detections === undefined && typeof source?.adapter === 'string' && source.adapter.startsWith('svc-adapter-');
}
