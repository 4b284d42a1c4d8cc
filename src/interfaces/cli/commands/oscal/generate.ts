import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { GenerateOscal, OSCAL_KINDS, type GenerateOscalResult, type OscalKind } from '../../../../application/oscal/generate-oscal';
import { declaredVersionFlag, officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class OscalGenerate extends BaseCommand {
  static summary = 'Write an OSCAL SSP, SAR, SAP or POA&M of a run: valid against OSCAL 1.1.3 and 1.2.1, UUIDv5 ids, hashed evidence in back-matter.';
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --model sar --out out/assessment-results.json',
    '<%= config.bin %> <%= command.id %> out/bundle --model ssp > ssp.json',
  ];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    model: Flags.string({ summary: 'Which document.', options: [...OSCAL_KINDS], required: true }),
    out: outFileFlag('Write the document here (without it, it goes to stdout).'),
    'oscal-version': declaredVersionFlag,
    catalog: officialCatalogFlag,
  };

  async run(): Promise<Omit<GenerateOscalResult, 'text'>> {
    const { args, flags } = await this.parse(OscalGenerate);
    const { text, ...result } = await this.resolve(GenerateOscal).execute({
      input: args.input,
      model: flags.model as OscalKind,
      out: flags.out,
      oscalVersion: flags['oscal-version'],
      catalog: flags.catalog,
    });
    this.print(text ?? `OSCAL ${flags.model.toUpperCase()} written to ${result.out} (uuid ${result.uuid})`);
    return withWrittenFile(result);
  }
}
