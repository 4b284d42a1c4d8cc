import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { CompareSnapshots, type CompareSnapshotsResult } from '../../../../application/substrate/compare-snapshots';
import { DRIFT_SEVERITIES, type DriftSeverity } from '../../../../domain/drift/drift-finding';
import { digest } from '../../json-output';

export default class SubstrateDrift extends BaseCommand {
  static summary = 'Classify every change between two configuration snapshots (or trees) by the drift classes at P1-P4.';
  static examples = [
    '<%= config.bin %> <%= command.id %> snapshots/monday.json snapshots/today.json',
    '<%= config.bin %> <%= command.id %> snapshots/monday.json ./config --fail-on P2',
  ];
  static enableJsonFlag = true;
  static args = {
    a: Args.string({ required: true, description: 'Earlier side: a snapshot from svc substrate walk --out, or a directory' }),
    b: Args.string({ required: true, description: 'Later side: a snapshot from svc substrate walk --out, or a directory' }),
  };
  static flags = {
    'fail-on': Flags.string({ summary: 'Exit 1 when a finding at or above this severity exists (a CI gate).', options: [...DRIFT_SEVERITIES] }),
  };

  async run(): Promise<Pick<CompareSnapshotsResult, 'a' | 'b' | 'findings' | 'counts'>> {
    const { args, flags } = await this.parse(SubstrateDrift);
    const result = await this.resolve(CompareSnapshots).execute({ a: args.a, b: args.b, failOn: flags['fail-on'] as DriftSeverity | undefined });
    this.print(result.markdown);
    this.exitWithFindings(result.gated);
    return {
      a: { ...result.a, merkle_root: digest(result.a.merkle_root) },
      b: { ...result.b, merkle_root: digest(result.b.merkle_root) },
      findings: result.findings,
      counts: result.counts,
    };
  }
}
