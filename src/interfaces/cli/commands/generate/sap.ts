import { BaseCommand } from '../../base-command';
import { GenerateWordDocument, type GenerateWordDocumentResult } from '../../../../application/documents/generate-word-document';
import { officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class GenerateSap extends BaseCommand {
  static summary =
    'Write the security assessment plan as a Word document: scope, KSIs and their controls, method, and the re-validation schedule from evidence freshness.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/sap.docx'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    out: outFileFlag('The .docx file to write.', true),
    catalog: officialCatalogFlag,
  };

  async run(): Promise<GenerateWordDocumentResult> {
    const { args, flags } = await this.parse(GenerateSap);
    const result = await this.resolve(GenerateWordDocument).execute({ kind: 'sap', input: args.input, out: flags.out as string, catalog: flags.catalog });
    this.log(`SAP written to ${result.out}`);
    return withWrittenFile(result);
  }
}
