import { BaseCommand } from '../../base-command';
import { GenerateOscal, type GenerateOscalResult } from '../../../../application/oscal/generate-oscal';
import { declaredVersionFlag, officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class GenerateSsp extends BaseCommand {
  static summary = 'Write the OSCAL System Security Plan of a run (as `svc oscal generate --model ssp`).';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/ssp.json'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    out: outFileFlag('File to write.', true),
    'oscal-version': declaredVersionFlag,
    catalog: officialCatalogFlag,
  };

  async run(): Promise<Omit<GenerateOscalResult, 'text'>> {
    const { args, flags } = await this.parse(GenerateSsp);
    const { text, ...result } = await this.resolve(GenerateOscal).execute({
      input: args.input,
      model: 'ssp',
      out: flags.out as string,
      oscalVersion: flags['oscal-version'],
      catalog: flags.catalog,
    });
    this.print(`OSCAL SSP written to ${flags.out}`);
    return withWrittenFile(result);
  }
}
