import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { GenerateDocs, type GeneratePackageResult } from '../../../../application/documents/generate-docs';
import { officialCatalogFlag, runInputArg } from '../../flags';

export default class GenerateDocsCommand extends BaseCommand {
  static summary = 'Write the Markdown documentation package of a run: index, per-area pages, per-control narratives, POA&M.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/docs'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    out: Flags.string({ summary: 'Directory to write (created, or added to).', helpValue: '<dir>', required: true }),
    catalog: officialCatalogFlag,
  };

  async run(): Promise<GeneratePackageResult> {
    const { args, flags } = await this.parse(GenerateDocsCommand);
    const result = await this.resolve(GenerateDocs).execute({ input: args.input, out: flags.out, catalog: flags.catalog });
    this.print(`Documentation package written to ${result.out}`);
    return result;
  }
}
