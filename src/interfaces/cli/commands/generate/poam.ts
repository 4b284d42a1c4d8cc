import { BaseCommand } from '../../base-command';
import { ExportPoam, type ExportPoamResult } from '../../../../application/poam/export-poam';
import { outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class GeneratePoam extends BaseCommand {
  static summary = 'Write the FedRAMP POA&M workbook (.xlsx) of a run (as `svc ir poam-export --format xlsx`).';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/poam.xlsx'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = { out: outFileFlag('Workbook to write.', true) };

  async run(): Promise<ExportPoamResult> {
    const { args, flags } = await this.parse(GeneratePoam);
    const result = await this.resolve(ExportPoam).execute({ input: args.input, format: 'xlsx', out: flags.out as string });
    this.print(`POA&M workbook written to ${result.out}`);
    return withWrittenFile(result);
  }
}
