import { BaseCommand } from '../../base-command';
import { WriteReport, type WriteReportResult } from '../../../../application/pipeline/write-report';
import { outFileFlag, reportArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class IrSspReport extends BaseCommand {
  static summary = 'Print or write the SSP implementation narrative: one section per control the run touches.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/ssp-narrative.md'];
  static enableJsonFlag = true;
  static args = { input: reportArg };
  static flags = { out: outFileFlag('Write the Markdown here instead of printing it.') };

  async run(): Promise<WriteReportResult> {
    const { args, flags } = await this.parse(IrSspReport);
    const result = await this.resolve(WriteReport).execute({ report: 'ssp-narrative', input: args.input, out: flags.out });
    this.print('text' in result ? result.text : `SSP narrative written to ${result.out}`);
    return withWrittenFile(result);
  }
}
