import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { DetectDrift, type DetectDriftResult } from '../../../../application/drift/detect-drift';
import { DRIFT_SEVERITIES, type DriftSeverity } from '../../../../domain/drift/drift-finding';
import { digested } from '../../json-output';

export default class IrDriftDetect extends BaseCommand {
  static summary = 'Classify every change between two runs: DRIFT-IDENTITY, -AUTHZ, -SEMANTIC, -PROVENANCE or -SCHEMA at P1-P4.';
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json fixtures/sample-baseline-b.json',
    '<%= config.bin %> <%= command.id %> last-week.json today.json --fail-on P2',
  ];
  static enableJsonFlag = true;
  static args = {
    runA: Args.string({ name: 'run_a', required: true, description: 'Earlier run: normalized report, evidence-bundle.json or bundle directory' }),
    runB: Args.string({ name: 'run_b', required: true, description: 'Later run: normalized report, evidence-bundle.json or bundle directory' }),
  };
  static flags = {
    'fail-on': Flags.string({ summary: 'Exit 1 when a finding at or above this severity exists (a CI gate).', options: [...DRIFT_SEVERITIES] }),
  };

  async run(): Promise<Pick<DetectDriftResult, 'findings' | 'counts'> & { run_a: DetectDriftResult['runA']; run_b: DetectDriftResult['runB'] }> {
    const { args, flags } = await this.parse(IrDriftDetect);
    const result = await this.resolve(DetectDrift).execute({ runA: args.runA, runB: args.runB, failOn: flags['fail-on'] as DriftSeverity | undefined });
    this.print(result.markdown);
    this.exitWithFindings(result.gated);
    return { run_a: digested(result.runA), run_b: digested(result.runB), findings: result.findings, counts: result.counts };
  }
}
