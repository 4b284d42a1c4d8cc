import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import type { GeneratePackageResult } from '../../../../application/documents/generate-docs';
import { GenerateSite } from '../../../../application/documents/generate-site';
import { officialCatalogFlag, runInputArg } from '../../flags';

export default class GenerateSiteCommand extends BaseCommand {
  static summary = 'Write the static auditor portal of a run: evidence, findings, POA&M, a graph per control, hashes; works from file://.';
  static examples = ['<%= config.bin %> <%= command.id %> out/bundle --out out/portal'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    out: Flags.string({ summary: 'Directory to write (created, or added to).', helpValue: '<dir>', required: true }),
    catalog: officialCatalogFlag,
  };

  async run(): Promise<GeneratePackageResult> {
    const { args, flags } = await this.parse(GenerateSiteCommand);
    const result = await this.resolve(GenerateSite).execute({ input: args.input, out: flags.out, catalog: flags.catalog });
    this.print(`Auditor portal written to ${result.out}`);
    return result;
  }
}
