import type { KsiCatalog, KsiDefinition } from '../catalog/ksi-catalog';
import { compareIds, decideAction, type GovernanceAction, type GovernancePolicy } from '../governance/governance-policy';
import type { KsiResult, NormalizedReport } from '../ksi/ksi-result';
import { worstStatus, type Status } from '../ksi/status';

/** A KSI result with what the catalog and the governance policy make of it. */
export interface AssessedResult {
  result: KsiResult;
  definition: KsiDefinition | undefined;
  action: GovernanceAction;
}

export interface RunCounts {
  results: number;
  pass: number;
  warn: number;
  fail: number;
  mapped: number;
  unmapped: number;
}

export interface Assessment {
  /** Sorted by ksi_id. */
  items: AssessedResult[];
  counts: RunCounts;
  /** Unmapped KSI ids, ascending. */
  unmapped: string[];
}

/** Maps each result to the catalog and decides its governance action (DESIGN §5). */
export function assess(results: readonly KsiResult[], catalog: KsiCatalog, policy: GovernancePolicy): Assessment {
  const sorted = sortedById(results);
  const counts: RunCounts = { results: sorted.length, pass: 0, warn: 0, fail: 0, mapped: 0, unmapped: 0 };
  const unmapped: string[] = [];
  const items: AssessedResult[] = new Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    const result = sorted[i];
    const definition = catalog.get(result.ksi_id);
    if (definition) counts.mapped += 1;
    else unmapped.push(result.ksi_id);
    counts[STATUS_KEY[result.status]] += 1;
    items[i] = { result, definition, action: decideAction(result.ksi_id, result.status, definition, policy) };
  }
  counts.unmapped = unmapped.length;
  return { items, counts, unmapped };
}

const STATUS_KEY: Record<Status, 'pass' | 'warn' | 'fail'> = { PASS: 'pass', WARN: 'warn', FAIL: 'fail' };

/** Results in ksi_id order; most tools already write them so, and then no copy is made. */
export function sortedById(results: readonly KsiResult[]): readonly KsiResult[] {
  for (let i = 1; i < results.length; i++) {
    if (results[i - 1].ksi_id > results[i].ksi_id) return [...results].sort((a, b) => compareIds(a.ksi_id, b.ksi_id));
  }
  return results;
}

/**
 * One result per KSI from several reports: the worst status wins (FAIL over WARN over PASS); on a tie the
 * result from the earlier report is kept.
 */
export function mergeResults(reports: readonly NormalizedReport[]): KsiResult[] {
  const merged = new Map<string, KsiResult>();
  for (const report of reports) {
    for (const result of report.results) {
      const kept = merged.get(result.ksi_id);
      if (!kept || worstStatus(kept.status, result.status) !== kept.status) merged.set(result.ksi_id, result);
    }
  }
  return [...merged.values()];
}
