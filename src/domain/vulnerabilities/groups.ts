import type { ContentDigest } from '../evidence/content-digest';
import { describe, isIsoTime, isPlainObject } from '../encoding/json-values';
import { IntegrityError } from '../errors';
import type { Detection } from './detection';
import type { NewGroup } from './evaluation-policy';
import type { Evaluation } from './lifecycle';
import { trackingId } from './vulnerability-reports';

/** The document every recorded run keeps its vulnerability groups in (DESIGN §12.4). */
export const VULNERABILITIES_DOCUMENT = 'vulnerabilities.json';
export const VULNERABILITIES_SCHEMA = 'svc.vulnerabilities/v1';

/** One group as the run store keeps it after a run: the detections sharing a finding id (VER-EVA-GRV) over time. */
export interface StoredGroup {
  finding_id: string;
  tracking_id: string;
  /** The finding's other ids the scanners gave (the advisory reported under the CVE it names), ever, sorted; absent when none. */
  aliases?: string[];
  title: string;
  /** The tools that detected it, in the last run that did, sorted. */
  sources: string[];
  /** The resources it was detected on, in the last run that did, sorted. */
  resources: string[];
  /** The scanners' severities, in the last run that detected it, sorted. */
  severities: string[];
  kind: 'vulnerability' | 'configuration';
  /** The earliest detected_at of any of its detections, ever. */
  first_detected: string;
  /** The as_of of the last run that detected it. */
  last_seen: string;
  /** The as_of of the first later run that no longer detected it (absent while detected). */
  remediated_at?: string;
  /** How many detections the last run that detected it had. */
  detections: number;
  /**
   * The evaluation policy's evaluation, made when a run first detected the group and recorded with that run (so it
   * is as tamper-evident as the run, and a later change of policy does not rewrite it).
   */
  policy?: Evaluation;
}

export interface VulnerabilityGroups {
  schema: typeof VULNERABILITIES_SCHEMA;
  as_of: string;
  groups: StoredGroup[];
}

/** What else the run's detections are part of: the store's state of several sources (docs/conmon.md, "Sources"). */
export interface GroupState {
  /** Detections of other sources' latest runs, carried into this run's state: they do not make a group seen now. */
  carried?: ReadonlySet<Detection>;
  /** Tools whose latest detections are not known (stateDetections): their groups are not remediated by absence. */
  unknownTools?: ReadonlySet<string>;
}

/**
 * The groups after a run (DESIGN §12.4): the run's detections grouped by finding id across sources; a group seen
 * before keeps its first detection, tracking id and policy evaluation, takes the run's sources, resources and
 * severities, and is open again if a run had stopped detecting it; a new group gets `evaluate`'s evaluation (the
 * evaluation policy's); a group the run does not detect is remediated as of this run (the first that no longer
 * detects it; a later one leaves that time). `detections` are the state's: this run's and those `state.carried` from
 * the other sources' latest runs, so a group only another source found stays as that source left it. Sorted by
 * finding id.
 */
export function nextGroups(
  previous: readonly StoredGroup[],
  detections: readonly Detection[],
  asOf: string,
  digest: Pick<ContentDigest, 'sha256'>,
  evaluate?: (group: NewGroup) => Evaluation,
  state: GroupState = {},
): StoredGroup[] {
  const carried = state.carried ?? new Set<Detection>();
  const unknownTools = state.unknownTools ?? new Set<string>();
  const byFinding = new Map<string, Detection[]>();
  for (const d of detections) {
    const list = byFinding.get(d.finding_id);
    if (list === undefined) byFinding.set(d.finding_id, [d]);
    else list.push(d);
  }
  const before = new Map(previous.map((g) => [g.finding_id, g]));
  const groups: StoredGroup[] = [];
  for (const [finding, found] of byFinding) {
    const seen = before.get(finding);
    const first = found.reduce((a, d) => (Date.parse(d.detected_at) < Date.parse(a) ? d.detected_at : a), found[0].detected_at);
    const resources = sorted(found.map((d) => d.resource));
    const severities = sorted(found.map((d) => d.scanner_severity));
    const policy =
      seen?.policy ?? (seen === undefined ? evaluate?.({ finding_id: finding, resources, severities, first_detected: first, recorded: asOf }) : undefined);
    const aliases = sorted([...(seen?.aliases ?? []), ...found.flatMap((d) => d.aliases ?? [])]).filter((a) => a !== finding);
    groups.push({
      finding_id: finding,
      tracking_id: seen?.tracking_id ?? trackingId(finding, digest),
      ...(aliases.length === 0 ? {} : { aliases }),
      title: found[0].title,
      sources: sorted(found.map((d) => d.source)),
      resources,
      severities,
      kind: found.some((d) => (d.kind ?? 'vulnerability') === 'vulnerability') ? 'vulnerability' : 'configuration',
      first_detected: seen === undefined || Date.parse(first) < Date.parse(seen.first_detected) ? first : seen.first_detected,
      last_seen: seen !== undefined && found.every((d) => carried.has(d)) ? seen.last_seen : asOf,
      detections: found.length,
      ...(policy === undefined ? {} : { policy }),
    });
  }
  for (const g of previous) {
    if (byFinding.has(g.finding_id)) continue;
    const unknown = g.sources.some((tool) => unknownTools.has(tool));
    groups.push(g.remediated_at === undefined && !unknown ? { ...g, remediated_at: asOf } : g);
  }
  return groups.sort((a, b) => (a.finding_id < b.finding_id ? -1 : a.finding_id > b.finding_id ? 1 : 0));
}

/** Reads a stored vulnerabilities.json; anything else than what svc wrote is IntegrityError `run-store-tampered`. */
export function readVulnerabilityGroups(document: unknown, where: string): VulnerabilityGroups {
  const bad = (problem: string): never => {
    throw new IntegrityError(
      'run-store-tampered',
      `${where}: ${VULNERABILITIES_DOCUMENT}: ${problem}; the store was modified outside svc. Restore it from backup`,
    );
  };
  if (!isPlainObject(document) || document.schema !== VULNERABILITIES_SCHEMA) return bad(`not svc's (${describe(document)})`);
  if (typeof document.as_of !== 'string' || !isIsoTime(document.as_of)) bad('as_of is not a time');
  if (!Array.isArray(document.groups)) return bad('groups is not a list');
  document.groups.forEach((g, i) => {
    if (
      !isPlainObject(g) ||
      typeof g.finding_id !== 'string' ||
      typeof g.tracking_id !== 'string' ||
      typeof g.first_detected !== 'string' ||
      typeof g.last_seen !== 'string'
    )
      bad(`groups[${i}] is not a group`);
  });
  return document as unknown as VulnerabilityGroups;
}

function sorted(values: string[]): string[] {
  return [...new Set(values)].sort();
}
