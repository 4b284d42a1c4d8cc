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

/** An assessed result with its evidence entry's hex content hash. */
export interface HashedResult {
  item: AssessedResult;
  hash: string;
}

/** Maps each result to the catalog and decides its governance action (DESIGN §5), in ksi_id order. */
export function assess(results: readonly KsiResult[], catalog: KsiCatalog, policy: GovernancePolicy): Assessment {
  const tally = new RunTally();
  const items: AssessedResult[] = [];
  for (const item of assessEach(sortedById(results), catalog, policy)) {
    tally.add(item);
    items.push(item);
  }
  return { items, counts: tally.counts, unmapped: tally.unmapped };
}

/** The same, one result at a time, for runs too large to hold every assessed result at once. */
export function* assessEach(sorted: readonly KsiResult[], catalog: KsiCatalog, policy: GovernancePolicy): Generator<AssessedResult> {
  const assessed = assessor(catalog, policy);
  for (let i = 0; i < sorted.length; i++) yield assessed(sorted[i]);
}

/** Assesses one result against a catalog and a governance policy, as `assess` does for each. */
export type Assessor = (result: KsiResult) => AssessedResult;

export function assessor(catalog: KsiCatalog, policy: GovernancePolicy): Assessor {
  return (result) => {
    const definition = catalog.get(result.ksi_id);
    return { result, definition, action: decideAction(result.ksi_id, result.status, definition, policy) };
  };
}

/** Counts of a run and its unmapped ids (ascending, as the results arrive in ksi_id order). */
export class RunTally {
  readonly counts: RunCounts = { results: 0, pass: 0, warn: 0, fail: 0, mapped: 0, unmapped: 0 };
  readonly unmapped: string[] = [];

  /** Takes in the counts and unmapped ids of a later part of the same run. */
  merge(counts: RunCounts, unmapped: readonly string[]): void {
    for (const key of Object.keys(counts) as (keyof RunCounts)[]) this.counts[key] += counts[key];
    for (const id of unmapped) this.unmapped.push(id);
  }

  add({ result, definition }: AssessedResult): void {
    this.counts.results += 1;
    this.counts[STATUS_KEY[result.status]] += 1;
    if (definition) this.counts.mapped += 1;
    else {
      this.counts.unmapped += 1;
      this.unmapped.push(result.ksi_id);
    }
  }
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
