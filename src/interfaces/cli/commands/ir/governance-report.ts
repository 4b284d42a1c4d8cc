import { BaseCommand } from '../../base-command';
import { WriteReport, type WriteReportResult } from '../../../../application/pipeline/write-report';
import { outFileFlag, reportArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class IrGovernanceReport extends BaseCommand {
  static summary = 'Print or write the governance report: one action per KSI with severity, owner and SLA.';
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json',
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/governance-report.md',
  ];
  static enableJsonFlag = true;
  static args = { input: reportArg };
  static flags = { out: outFileFlag('Write the Markdown here instead of printing it.') };

  async run(): Promise<WriteReportResult> {
    const { args, flags } = await this.parse(IrGovernanceReport);
    const result = await this.resolve(WriteReport).execute({ report: 'governance-report', input: args.input, out: flags.out });
    this.print('text' in result ? result.text : `Governance report written to ${result.out}`);
    return withWrittenFile(result);
  }
}
