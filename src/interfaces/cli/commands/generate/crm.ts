import { BaseCommand } from '../../base-command';
import { GenerateCrm, type GenerateCrmResult } from '../../../../application/documents/generate-crm';
import { officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class GenerateCrmCommand extends BaseCommand {
  static summary = 'Write the customer responsibility matrix (.xlsx) of a run: responsibility per control, with its KSI evidence.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/crm.xlsx'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = { out: outFileFlag('Workbook to write.', true), catalog: officialCatalogFlag };

  async run(): Promise<GenerateCrmResult> {
    const { args, flags } = await this.parse(GenerateCrmCommand);
    const result = await this.resolve(GenerateCrm).execute({ input: args.input, out: flags.out as string, catalog: flags.catalog });
    this.print(`Customer responsibility matrix written to ${result.out}`);
    return withWrittenFile(result);
  }
}
