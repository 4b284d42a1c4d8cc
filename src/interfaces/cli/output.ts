import type { RunAdapterResult } from '../../application/adapters/run-adapter';
import { plural } from '../../domain/encoding/plural';

/** What `adapter run` and `adapter run-baseline` print: the report itself, or with --out a summary of it. */
export function adapterRunText(result: RunAdapterResult): string {
  if (result.out === undefined) return JSON.stringify(result.report, null, 2);
  const { summary } = result;
  const tool = [result.tool, result.version].filter(Boolean).join(' ');
  return [
    `Normalized ${result.input} (${tool}): ${plural(summary.checks, 'check')}, ${plural(summary.ksis, 'KSI')}`,
    `PASS: ${summary.statuses.PASS}`,
    `WARN: ${summary.statuses.WARN}`,
    `FAIL: ${summary.statuses.FAIL}`,
    `Checks: ${Object.entries(summary.outcomes)
      .map(([o, n]) => `${o} ${n}`)
      .join(', ')}`,
    `Unmapped checks: ${summary.unmapped_checks.length}${summary.unmapped_checks.length > 0 ? ` (${listed(summary.unmapped_checks)})` : ''}`,
    `Not assessed: ${summary.not_assessed.length}${summary.not_assessed.length > 0 ? ` (${listed(summary.not_assessed)})` : ''}`,
    `Report written to ${result.out}`,
  ].join('\n');
}

function listed(ids: readonly string[]): string {
  return ids.length > 20 ? `${ids.slice(0, 20).join(', ')}, ... ${ids.length - 20} more` : ids.join(', ');
}
