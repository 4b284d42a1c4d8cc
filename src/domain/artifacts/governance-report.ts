import type { AssessedResult } from '../assessment/assessment';
import { formatDigest } from '../evidence/content-digest';
import { formatGovernanceLine } from '../governance/governance-policy';
import { SEVERITIES } from '../governance/severity';
import type { InputRef } from './run-context';

/**
 * `governance-report.md`: one line per action, descending severity, then ksi_id ascending. `items` are in
 * ksi_id order already, so taking them severity by severity gives that order without a sort.
 */
export function* governanceReportText(items: readonly AssessedResult[], input: InputRef): Generator<string> {
  const remediate = items.reduce((n, i) => n + (i.action.action === 'REMEDIATE' ? 1 : 0), 0);
  yield `# Governance report\n\nInput: ${input.name} (${formatDigest(input.sha256)})\n`;
  yield `Actions: ${items.length} (REMEDIATE: ${remediate}, MONITOR: ${items.length - remediate})\n\n`;
  for (const severity of SEVERITIES) {
    for (const item of items) if (item.action.severity === severity) yield `${formatGovernanceLine(item.action)}\n`;
  }
}
