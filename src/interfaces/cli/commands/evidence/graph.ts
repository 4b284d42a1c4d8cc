import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { TraceEvidenceGraph } from '../../../../application/evidence/trace-evidence-graph';
import type { EvidenceGraph } from '../../../../domain/evidence/evidence-graph';
import { graphDot, graphMermaid } from '../../../shared/graph-formats';

export default class EvidenceGraphCommand extends BaseCommand {
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

  async run(): Promise<EvidenceGraph> {
    const { args, flags } = await this.parse(EvidenceGraphCommand);
    const graph = await this.resolve(TraceEvidenceGraph).execute({ input: args.input, control: flags.control });
    this.print(flags.format === 'dot' ? graphDot(graph) : flags.format === 'mermaid' ? graphMermaid(graph) : JSON.stringify(graph, null, 2));
    return graph;
  }
}
