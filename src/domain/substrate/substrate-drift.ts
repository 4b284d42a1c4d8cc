import { countDrift, severityTally } from '../drift/drift-detection';
import { DRIFT_CLASSES, type DriftClass, type DriftCounts, type DriftSeverity } from '../drift/drift-finding';
import { markdownText } from '../encoding/markdown';
import { byCodeUnits, type ResourceCategory, type Snapshot, type SnapshotFile, type SnapshotResource } from './snapshot';
import { plural } from '../encoding/plural';

export type SubstrateChange = 'added' | 'removed' | 'changed' | 'moved';

/** One classified change between two snapshots. `subject` is a resource id, or `file:<path>` for a file. */
export interface SubstrateDriftFinding {
  severity: DriftSeverity;
  class: DriftClass;
  subject: string;
  change: SubstrateChange;
  reason: string;
}

/** A snapshot and the name it is shown by (the input's base name). */
export interface NamedSnapshot {
  name: string;
  snapshot: Snapshot;
}

/**
 * Classifies every change from snapshot `a` to snapshot `b` (docs/substrate.md, "Drift"):
 * - an identity resource added or changed → DRIFT-IDENTITY P2, removed → P1; the same for access → DRIFT-AUTHZ;
 * - any other resource added, removed or changed → DRIFT-SEMANTIC P3;
 * - a resource whose content is the same but that now sits in another file → DRIFT-PROVENANCE P4;
 * - a file added or removed, or whose format or set of top-level keys changed → DRIFT-SCHEMA P3;
 * - a file whose bytes changed while no resource in it changed → DRIFT-PROVENANCE P4.
 * Ordered by severity, then subject (code units), then class.
 */
export function compareSnapshots(a: Snapshot, b: Snapshot): SubstrateDriftFinding[] {
  const findings: SubstrateDriftFinding[] = [];
  const explained = new Set<string>();
  for (const [id, [before, after]] of pairs(a.resources, b.resources, (r) => r.id)) {
    const finding = resourceFinding(id, before, after);
    if (!finding) continue;
    findings.push(finding);
    if (before) explained.add(before.file);
    if (after) explained.add(after.file);
  }
  for (const [path, [before, after]] of pairs(a.files, b.files, (f) => f.path)) {
    const finding = fileFinding(path, before, after, explained.has(path), a, b);
    if (finding) findings.push(finding);
  }
  return findings.sort(compareFindings);
}

function resourceFinding(id: string, before: SnapshotResource | undefined, after: SnapshotResource | undefined): SubstrateDriftFinding | undefined {
  if (!after) {
    const r = before as SnapshotResource;
    return { ...classify([r.category], 'removed'), subject: id, change: 'removed', reason: `${r.category} resource removed (was in ${r.file})` };
  }
  if (!before) return { ...classify([after.category], 'added'), subject: id, change: 'added', reason: `${after.category} resource added in ${after.file}` };
  if (before.sha256 !== after.sha256) {
    const moved = before.file === after.file ? '' : ` (moved from ${before.file} to ${after.file})`;
    return {
      ...classify([before.category, after.category], 'changed'),
      subject: id,
      change: 'changed',
      reason: `${after.category} resource changed: content hash ${short(before.sha256)} -> ${short(after.sha256)}${moved}`,
    };
  }
  if (before.file !== after.file)
    return { severity: 'P4', class: 'DRIFT-PROVENANCE', subject: id, change: 'moved', reason: `moved from ${before.file} to ${after.file}, content unchanged` };
  return undefined;
}

/** Identity before access before anything else; removing an identity or access resource is P1, other changes to them P2. */
function classify(categories: readonly ResourceCategory[], change: SubstrateChange): Pick<SubstrateDriftFinding, 'class' | 'severity'> {
  const sensitive = change === 'removed' ? 'P1' : 'P2';
  if (categories.includes('identity')) return { class: 'DRIFT-IDENTITY', severity: sensitive };
  if (categories.includes('access')) return { class: 'DRIFT-AUTHZ', severity: sensitive };
  return { class: 'DRIFT-SEMANTIC', severity: 'P3' };
}

function fileFinding(
  path: string,
  before: SnapshotFile | undefined,
  after: SnapshotFile | undefined,
  explained: boolean,
  a: Snapshot,
  b: Snapshot,
): SubstrateDriftFinding | undefined {
  const subject = `file:${path}`;
  if (!after || !before) {
    const [file, side, change] = after ? [after, b, 'added' as const] : [before as SnapshotFile, a, 'removed' as const];
    const held = side.resources.filter((r) => r.file === path).length;
    return { severity: 'P3', class: 'DRIFT-SCHEMA', subject, change, reason: `file ${change} (${file.format}, ${plural(held, 'resource')})` };
  }
  if (before.sha256 === after.sha256) return undefined;
  const structure = structureChanges(before, after);
  if (structure.length > 0) return { severity: 'P3', class: 'DRIFT-SCHEMA', subject, change: 'changed', reason: structure.join('; ') };
  if (explained) return undefined;
  return {
    severity: 'P4',
    class: 'DRIFT-PROVENANCE',
    subject,
    change: 'changed',
    reason: `content changed (sha256 ${short(before.sha256)} -> ${short(after.sha256)}) but no resource in it did`,
  };
}

function structureChanges(before: SnapshotFile, after: SnapshotFile): string[] {
  const changes = before.format === after.format ? [] : [`format ${before.format} -> ${after.format}`];
  const [keysA, keysB] = [new Set(before.top_level_keys ?? []), new Set(after.top_level_keys ?? [])];
  const added = [...keysB].filter((k) => !keysA.has(k));
  const removed = [...keysA].filter((k) => !keysB.has(k));
  if (added.length > 0) changes.push(`top-level keys added: ${added.join(', ')}`);
  if (removed.length > 0) changes.push(`top-level keys removed: ${removed.join(', ')}`);
  return changes;
}

/** Both sides of every key (undefined where a side lacks it); the findings are sorted afterwards. */
function pairs<T>(left: readonly T[], right: readonly T[], key: (item: T) => string): Map<string, [T | undefined, T | undefined]> {
  const joined = new Map<string, [T | undefined, T | undefined]>();
  for (const item of left) joined.set(key(item), [item, undefined]);
  for (const item of right) joined.set(key(item), [joined.get(key(item))?.[0], item]);
  return joined;
}

function compareFindings(x: SubstrateDriftFinding, y: SubstrateDriftFinding): number {
  if (x.severity !== y.severity) return x.severity < y.severity ? -1 : 1;
  return byCodeUnits(x.subject, y.subject) || DRIFT_CLASSES.indexOf(x.class) - DRIFT_CLASSES.indexOf(y.class);
}

/** Totals by severity and class, as `ir drift-detect` counts them. */
export function countSubstrateDrift(findings: readonly SubstrateDriftFinding[]): DriftCounts {
  return countDrift(findings);
}

/** True when some finding is at or above `threshold` (the `--fail-on` gate). */
export function gatesOn(findings: readonly SubstrateDriftFinding[], threshold: DriftSeverity | undefined): boolean {
  return threshold !== undefined && findings.some((f) => f.severity <= threshold);
}

/** The Markdown `svc substrate drift` prints: the two snapshots, the findings table, the counts. */
export function substrateDriftMarkdown(findings: readonly SubstrateDriftFinding[], a: NamedSnapshot, b: NamedSnapshot): string {
  const [nameA, nameB] = [markdownText(a.name), markdownText(b.name)];
  const lines = [
    `# Substrate drift: ${nameA} -> ${nameB}`,
    '',
    `Snapshot A: ${nameA} (${a.snapshot.counts.files} files, merkle root ${a.snapshot.merkle_root})`,
    `Snapshot B: ${nameB} (${b.snapshot.counts.files} files, merkle root ${b.snapshot.merkle_root})`,
    '',
  ];
  if (findings.length === 0) lines.push('No drift: the snapshots hold the same files and resources.');
  else {
    lines.push('| Severity | Class | Subject | Change | Reason |', '|---|---|---|---|---|');
    for (const f of findings) lines.push(`| ${f.severity} | ${f.class} | ${markdownText(f.subject)} | ${f.change} | ${markdownText(f.reason)} |`);
  }
  lines.push('', `Findings: ${findings.length} (${severityTally(countSubstrateDrift(findings))})`);
  return `${lines.join('\n')}\n`;
}

function short(hex: string): string {
  return hex.slice(0, 12);
}
