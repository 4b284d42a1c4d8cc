import { BaseCommand } from '../../base-command';
import { GenerateHdf, type GenerateHdfResult } from '../../../../application/documents/generate-hdf';
import { officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { digest, withWrittenFile } from '../../json-output';

export default class GenerateHdfCommand extends BaseCommand {
  static summary = 'Write the run as a Heimdall Data Format (HDF) results document: one control per KSI result, opens in Heimdall.';
  static description = `Valid against the HDF schema (heimdall2 exec-json): one profile, svc's KSI catalog; each KSI result a control with its NIST SP 800-53 controls in tags.nist, its status and checks as results. svc adapter run hdf reads it back.
Exit codes: 0 written; 2 bad flag; 3 bad input (nothing written); 4 a bundle does not verify.`;
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/run.hdf.json',
    '<%= config.bin %> <%= command.id %> out/bundle --out out/run.hdf.json --json',
  ];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = { out: outFileFlag('HDF JSON file to write.', true), catalog: officialCatalogFlag };

  async run(): Promise<GenerateHdfResult> {
    const { args, flags } = await this.parse(GenerateHdfCommand);
    const result = await this.resolve(GenerateHdf).execute({ input: args.input, out: flags.out as string, catalog: flags.catalog });
    this.log(`HDF results written to ${result.out} (${digest(result.file.sha256)})`);
    this.log(`Controls: ${result.controls} (passed ${result.passed}, failed ${result.failed}, unmapped ${result.unmapped})`);
    return withWrittenFile(result);
  }
}
