import { BaseCommand } from '../../base-command';
import { GenerateWordDocument, type GenerateWordDocumentResult } from '../../../../application/documents/generate-word-document';
import { officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class GenerateDocx extends BaseCommand {
  static summary =
    'Write the system security plan as a Word document: the implementation status of each control by family, governance actions and POA&M, with a table of contents.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/ssp.docx'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    out: outFileFlag('The .docx file to write.', true),
    catalog: officialCatalogFlag,
  };

  async run(): Promise<GenerateWordDocumentResult> {
    const { args, flags } = await this.parse(GenerateDocx);
    const result = await this.resolve(GenerateWordDocument).execute({ kind: 'ssp', input: args.input, out: flags.out as string, catalog: flags.catalog });
    this.log(`SSP written to ${result.out}`);
    return withWrittenFile(result);
  }
}
