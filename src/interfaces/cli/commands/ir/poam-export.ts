import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { ExportPoam, POAM_FORMATS, type ExportPoamResult, type PoamFormat } from '../../../../application/poam/export-poam';
import { outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class IrPoamExport extends BaseCommand {
  static summary = "Write the run's POA&M rows: svc JSON, the FedRAMP POA&M template as CSV or .xlsx, or an OSCAL POA&M.";
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --format xlsx --out out/poam.xlsx',
    '<%= config.bin %> <%= command.id %> out/bundle --format oscal --out out/poam.oscal.json',
  ];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    format: Flags.string({ summary: 'File format.', options: [...POAM_FORMATS], required: true }),
    out: outFileFlag('File to write.', true),
  };

  async run(): Promise<ExportPoamResult> {
    const { args, flags } = await this.parse(IrPoamExport);
    const result = await this.resolve(ExportPoam).execute({ input: args.input, format: flags.format as PoamFormat, out: flags.out as string });
    this.print(`POA&M (${result.format}) written to ${result.out}\nRows: ${result.rows}\nOverdue: ${result.overdue}`);
    return withWrittenFile(result);
  }
}
