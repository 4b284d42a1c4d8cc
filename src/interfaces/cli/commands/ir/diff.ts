import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { DiffRuns } from '../../../../application/drift/diff-runs';
import type { RunDiff } from '../../../../domain/drift/run-diff';
import { digest, digested } from '../../json-output';

export default class IrDiff extends BaseCommand {
  static summary = 'Print the Markdown drift diff of two runs: KSI transitions, evidence hash deltas, status counts.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json fixtures/sample-baseline-b.json'];
  static enableJsonFlag = true;
  static args = {
    runA: Args.string({ name: 'run_a', required: true, description: 'Normalized report of the earlier run' }),
    runB: Args.string({ name: 'run_b', required: true, description: 'Normalized report of the later run' }),
  };

  async run(): Promise<{ run_a: { name: string; sha256: string }; run_b: { name: string; sha256: string } } & RunDiff> {
    const { args } = await this.parse(IrDiff);
    const result = await this.resolve(DiffRuns).execute({ runA: args.runA, runB: args.runB });
    this.print(result.markdown);
    const hashDeltas = result.diff.hash_deltas.map((d) => ({ ...d, from: d.from === null ? null : digest(d.from), to: d.to === null ? null : digest(d.to) }));
    return { run_a: digested(result.runA), run_b: digested(result.runB), ...result.diff, hash_deltas: hashDeltas };
  }
}
