import { markdownText } from '../encoding/markdown';
import { formatDigest } from '../evidence/content-digest';
import { formatGovernanceLine, type GovernanceAction } from '../governance/governance-policy';
import { SEVERITIES, type Severity } from '../governance/severity';
import type { InputRef } from './run-context';
import type { TextSink } from './text-sink';

export interface ActionTotals {
  total: number;
  remediate: number;
}

/**
 * `governance-report.md`: one line per action, descending severity, then ksi_id ascending. Actions arrive
 * in ksi_id order; only each one's severity is kept (a byte), and the lines are written severity by
 * severity from the actions looked up again, so no line is held in memory.
 */
export class GovernanceLines {
  readonly totals: ActionTotals = { total: 0, remediate: 0 };
  private severities = new Uint8Array(1024);

  add(action: GovernanceAction): void {
    const { total } = this.totals;
    if (total === this.severities.length) {
      const grown = new Uint8Array(this.severities.length * 2);
      grown.set(this.severities);
      this.severities = grown;
    }
    this.severities[total] = SEVERITIES.indexOf(action.severity);
    if (action.action === 'REMEDIATE') this.totals.remediate += 1;
    this.totals.total += 1;
  }

  /** The lines of one severity; `actionAt(i)` gives the i-th action added again. */
  write(sink: TextSink, severity: Severity, actionAt: (index: number) => GovernanceAction): void {
    const code = SEVERITIES.indexOf(severity);
    for (let i = 0; i < this.totals.total; i++) if (this.severities[i] === code) sink.write(`${formatGovernanceLine(actionAt(i))}\n`);
  }
}

export function governanceReportHead(input: InputRef, totals: ActionTotals): string {
  return `# Governance report\n\nInput: ${markdownText(input.name)} (${formatDigest(input.sha256)})\nActions: ${totals.total} (REMEDIATE: ${totals.remediate}, MONITOR: ${totals.total - totals.remediate})\n\n`;
}
