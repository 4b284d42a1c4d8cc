import { formatDigest } from '../evidence/content-digest';
import { formatGovernanceLine, type GovernanceAction } from '../governance/governance-policy';
import { SEVERITIES } from '../governance/severity';
import type { InputRef } from './run-context';
import type { TextSink } from './text-sink';

/**
 * `governance-report.md`: one line per action, descending severity, then ksi_id ascending. Actions arrive
 * in ksi_id order; only each one's severity is kept (a byte), and at the end the lines are written
 * severity by severity from the actions looked up again, so no line is held in memory.
 */
export class GovernanceReportWriter {
  private severities = new Uint8Array(1024);
  private remediate = 0;
  private total = 0;

  add(action: GovernanceAction): void {
    if (this.total === this.severities.length) {
      const grown = new Uint8Array(this.severities.length * 2);
      grown.set(this.severities);
      this.severities = grown;
    }
    this.severities[this.total] = SEVERITIES.indexOf(action.severity);
    if (action.action === 'REMEDIATE') this.remediate += 1;
    this.total += 1;
  }

  /** `actionAt(i)` gives the i-th action added again. */
  finish(sink: TextSink, input: InputRef, actionAt: (index: number) => GovernanceAction): void {
    sink.write(`# Governance report\n\nInput: ${input.name} (${formatDigest(input.sha256)})\n`);
    sink.write(`Actions: ${this.total} (REMEDIATE: ${this.remediate}, MONITOR: ${this.total - this.remediate})\n\n`);
    for (let severity = 0; severity < SEVERITIES.length; severity++) {
      for (let i = 0; i < this.total; i++) if (this.severities[i] === severity) sink.write(`${formatGovernanceLine(actionAt(i))}\n`);
    }
  }
}
