import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { TraceEvidence } from '../../../../application/evidence/trace-evidence';
import type { EvidenceTrace } from '../../../../domain/evidence/evidence-trace';
import { traceDot, traceMermaid } from '../../../shared/trace-formats';

export default class EvidenceTraceCommand extends BaseCommand {
  static summary = 'Print the KSI → control → evidence → action graph; --control traces one control with inclusion proofs.';
  static examples = [
    '<%= config.bin %> <%= command.id %> out/bundle --control ac-2',
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --format mermaid',
  ];
  static enableJsonFlag = true;
  static args = { input: Args.string({ required: true, description: 'Normalized report, evidence-bundle.json or auditor bundle directory' }) };
  static flags = {
    control: Flags.string({ summary: 'Trace one control (ac-2, ia-2.1, AC-2(1)).', helpValue: '<control>' }),
    format: Flags.string({ summary: 'Output format.', options: ['json', 'dot', 'mermaid'], default: 'json' }),
  };

  async run(): Promise<EvidenceTrace> {
    const { args, flags } = await this.parse(EvidenceTraceCommand);
    const graph = await this.resolve(TraceEvidence).execute({ input: args.input, control: flags.control });
    this.print(flags.format === 'dot' ? traceDot(graph) : flags.format === 'mermaid' ? traceMermaid(graph) : JSON.stringify(graph, null, 2));
    return graph;
  }
}
