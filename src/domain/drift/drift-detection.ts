import type { AssessedResult, HashedResult } from '../assessment/assessment';
import type { InputRef } from '../artifacts/run-context';
import { markdownText } from '../encoding/markdown';
import { formatDigest } from '../evidence/content-digest';
import { compareIds } from '../governance/governance-policy';
import type { Severity } from '../governance/severity';
import { COMPUTED_FIELDS, type ReportSource } from '../ksi/ksi-result';
import type { Status } from '../ksi/status';
import { DRIFT_CLASSES, DRIFT_SEVERITIES, type DriftClass, type DriftCounts, type DriftFinding, type DriftSeverity } from './drift-finding';

/** Report-level facts drift compares besides the results (absent for a run read back from a bundle). */
export interface RunMeta {
  schema_version?: string;
  source?: ReportSource;
}

/** One side of a comparison: its report facts and its results with their content hashes, in ksi_id order. */
export interface DriftSide {
  /** Undefined when the run does not say (a bundle keeps no report-level facts): nothing is compared then. */
  meta: RunMeta | undefined;
  results: readonly HashedResult[];
}

const RANK: Record<Status, number> = { PASS: 0, WARN: 1, FAIL: 2 };

/**
 * Classifies every change from run `a` to run `b` by DESIGN §5's table: one class and one severity each.
 * Walks both runs in ksi_id order (a merge join); run-level changes (schema_version, source tool or version,
 * the set of result fields) come first with ksi_id null. Ordered by severity, then ksi_id.
 */
export function detectDrift(a: DriftSide, b: DriftSide): DriftFinding[] {
  const findings: DriftFinding[] = [];
  // Each side is read once, front to back, and each result's item taken once (a result kept as its evidence entry is
  // made again each time it is asked for: EntryResult); its result fields are gathered on the way.
  const [fieldsA, fieldsB] = [new Set<string>(), new Set<string>()];
  const lefts = sideItems(a.results, fieldsA);
  const rights = sideItems(b.results, fieldsB);
  let left = lefts.next();
  let right = rights.next();
  while (!left.done || !right.done) {
    if (right.done || (!left.done && left.value.item.result.ksi_id < right.value.item.result.ksi_id)) {
      const { ksi_id, status } = (left.value as SideItem).item.result;
      findings.push({
        ksi_id,
        class: 'DRIFT-SCHEMA',
        severity: status === 'FAIL' ? 'P2' : 'P3',
        from: status,
        to: 'NONE',
        reason: `missing from the later run (was ${status})`,
      });
      left = lefts.next();
    } else if (left.done || right.value.item.result.ksi_id < left.value.item.result.ksi_id) {
      const { ksi_id, status } = right.value.item.result;
      findings.push({ ksi_id, class: 'DRIFT-SCHEMA', severity: 'P3', from: 'NONE', to: status, reason: `new in the later run (${status})` });
      right = rights.next();
    } else {
      const finding = resultFinding(left.value, right.value);
      if (finding) findings.push(finding);
      left = lefts.next();
      right = rights.next();
    }
  }
  return [...runLevelFindings(a, b, fieldsA, fieldsB), ...findings].sort(compareFindings);
}

/** A result with its item taken once. */
interface SideItem {
  item: AssessedResult;
  hash: string;
}

/** Each result with its item, its result fields added to `fields` (what svc computes itself is not a result field). */
function* sideItems(results: readonly HashedResult[], fields: Set<string>): Generator<SideItem> {
  for (const result of results) {
    const item = result.item;
    for (const key of Object.keys(item.result)) if (!COMPUTED_FIELDS.has(key)) fields.add(key);
    yield { item, hash: result.hash };
  }
}

function resultFinding(left: SideItem, right: SideItem): DriftFinding | undefined {
  const { ksi_id, status: from } = left.item.result;
  const to = right.item.result.status;
  const definition = right.item.definition ?? left.item.definition;
  if (RANK[to] > RANK[from]) {
    const severity = definition?.severity;
    const rated = severity === undefined ? 'unmapped KSI' : `FAIL severity ${severity}`;
    const controls = definition?.controls ?? [];
    const identity = controls.filter((c) => c.startsWith('ia-'));
    const authz = controls.filter((c) => c.startsWith('ac-'));
    if (identity.length > 0)
      return worsened(ksi_id, 'DRIFT-IDENTITY', severity === 'Critical' ? 'P1' : 'P2', from, to, `on identity controls ${listed(identity)} (${rated})`);
    if (authz.length > 0)
      return worsened(ksi_id, 'DRIFT-AUTHZ', severity === 'Critical' ? 'P1' : 'P2', from, to, `on access controls ${listed(authz)} (${rated})`);
    return worsened(ksi_id, 'DRIFT-SEMANTIC', semanticSeverity(severity), from, to, `(${rated})`);
  }
  if (RANK[to] < RANK[from]) return { ksi_id, class: 'DRIFT-SEMANTIC', severity: 'P4', from, to, reason: `status improved ${from} -> ${to}` };
  const [before, after] = [left.item.result.source, right.item.result.source];
  if (before !== after) return { ksi_id, class: 'DRIFT-PROVENANCE', severity: 'P3', from, to, reason: `source changed ${quoted(before)} -> ${quoted(after)}` };
  if (left.hash !== right.hash) {
    return {
      ksi_id,
      class: 'DRIFT-PROVENANCE',
      severity: 'P3',
      from,
      to,
      reason: `evidence changed: content hash ${left.hash.slice(0, 12)} -> ${right.hash.slice(0, 12)}`,
    };
  }
  return undefined;
}

function worsened(ksi_id: string, driftClass: DriftClass, severity: DriftSeverity, from: Status, to: Status, detail: string): DriftFinding {
  return { ksi_id, class: driftClass, severity, from, to, reason: `status worsened ${from} -> ${to} ${detail}` };
}

function semanticSeverity(severity: Severity | undefined): DriftSeverity {
  return severity === 'Critical' || severity === 'High' ? 'P2' : 'P3';
}

/** `fields`: the result fields each side's results use. */
function runLevelFindings(a: DriftSide, b: DriftSide, fieldsOfA: ReadonlySet<string>, fieldsOfB: ReadonlySet<string>): DriftFinding[] {
  const findings = a.meta && b.meta ? metaFindings(a.meta, b.meta) : [];
  const [fieldsA, fieldsB] = [sorted(fieldsOfA), sorted(fieldsOfB)];
  const added = [...fieldsB].filter((f) => !fieldsA.has(f));
  const removed = [...fieldsA].filter((f) => !fieldsB.has(f));
  if (a.results.length > 0 && b.results.length > 0 && added.length + removed.length > 0) {
    const parts = [added.length > 0 ? `added ${added.join(', ')}` : '', removed.length > 0 ? `removed ${removed.join(', ')}` : ''].filter(Boolean);
    findings.push({
      ksi_id: null,
      class: 'DRIFT-SCHEMA',
      severity: 'P3',
      from: [...fieldsA].join(','),
      to: [...fieldsB].join(','),
      reason: `result fields ${parts.join('; ')}`,
    });
  }
  return findings;
}

/** schema_version and the report's source tool/version, compared only when both runs state their report facts. */
function metaFindings(a: RunMeta, b: RunMeta): DriftFinding[] {
  const findings: DriftFinding[] = [];
  const [schemaA, schemaB] = [a.schema_version, b.schema_version];
  if (schemaA !== schemaB)
    findings.push({
      ksi_id: null,
      class: 'DRIFT-SCHEMA',
      severity: 'P3',
      from: schemaA ?? 'NONE',
      to: schemaB ?? 'NONE',
      reason: `schema_version changed ${quoted(schemaA)} -> ${quoted(schemaB)}`,
    });
  const [toolA, toolB] = [toolOf(a.source), toolOf(b.source)];
  if (toolA !== toolB)
    findings.push({
      ksi_id: null,
      class: 'DRIFT-PROVENANCE',
      severity: 'P3',
      from: toolA || 'NONE',
      to: toolB || 'NONE',
      reason: `source tool changed ${quoted(toolA || undefined)} -> ${quoted(toolB || undefined)}`,
    });
  return findings;
}

/** `ScubaGear 1.5.0`: the report-level tool and version a run names (empty when it names none). */
function toolOf(source: ReportSource | undefined): string {
  return [source?.tool, source?.version].filter((v) => typeof v === 'string' && v !== '').join(' ');
}

function sorted(fields: ReadonlySet<string>): Set<string> {
  return new Set([...fields].sort(compareIds));
}

function listed(controls: readonly string[]): string {
  return controls.length > 4 ? `${controls.slice(0, 4).join(', ')} and ${controls.length - 4} more` : controls.join(', ');
}

function quoted(value: string | undefined): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}

function compareFindings(x: DriftFinding, y: DriftFinding): number {
  if (x.severity !== y.severity) return x.severity < y.severity ? -1 : 1;
  if (x.ksi_id !== y.ksi_id) return x.ksi_id === null ? -1 : y.ksi_id === null ? 1 : compareIds(x.ksi_id, y.ksi_id);
  return DRIFT_CLASSES.indexOf(x.class) - DRIFT_CLASSES.indexOf(y.class);
}

export function countDrift(findings: readonly Pick<DriftFinding, 'class' | 'severity'>[]): DriftCounts {
  const counts: DriftCounts = {
    total: findings.length,
    severity: Object.fromEntries(DRIFT_SEVERITIES.map((s) => [s, 0])) as Record<DriftSeverity, number>,
    class: Object.fromEntries(DRIFT_CLASSES.map((c) => [c, 0])) as Record<DriftClass, number>,
  };
  for (const f of findings) {
    counts.severity[f.severity] += 1;
    counts.class[f.class] += 1;
  }
  return counts;
}

/** True when a finding is at or above `threshold` (P1 is above P2): the `--fail-on` gate. */
export function reachesSeverity(finding: DriftFinding, threshold: DriftSeverity): boolean {
  return finding.severity <= threshold;
}

/** `P1 1, P2 0, P3 2, P4 1`. */
export function severityTally(counts: DriftCounts): string {
  return DRIFT_SEVERITIES.map((s) => `${s} ${counts.severity[s]}`).join(', ');
}

/** The Markdown table `svc ir drift-detect` prints. */
export function driftMarkdown(findings: readonly DriftFinding[], a: InputRef, b: InputRef): string {
  const [nameA, nameB] = [markdownText(a.name), markdownText(b.name)];
  const lines = [
    `# Drift findings: ${nameA} -> ${nameB}`,
    '',
    `Run A: ${nameA} (${formatDigest(a.sha256)})`,
    `Run B: ${nameB} (${formatDigest(b.sha256)})`,
    '',
  ];
  if (findings.length === 0) lines.push('No drift: the runs report the same statuses and evidence.');
  else {
    lines.push('| Severity | Class | KSI | From | To | Reason |', '|---|---|---|---|---|---|');
    for (const f of findings)
      lines.push(
        `| ${f.severity} | ${f.class} | ${f.ksi_id === null ? '(run)' : markdownText(f.ksi_id)} | ${markdownText(f.from)} | ${markdownText(f.to)} | ${markdownText(f.reason)} |`,
      );
  }
  const counts = countDrift(findings);
  lines.push('', `Findings: ${counts.total} (${severityTally(counts)})`);
  return `${lines.join('\n')}\n`;
}
