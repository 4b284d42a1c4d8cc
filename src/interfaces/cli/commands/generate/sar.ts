import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { GenerateWordDocument, type GenerateWordDocumentResult } from '../../../../application/documents/generate-word-document';
import { officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class GenerateSarReport extends BaseCommand {
  static summary = 'Write the security assessment report as a Word document, with the signed OSCAL SAR it describes beside it.';
  static description =
    'Writes <out>.docx, and beside it <out>.sar.json (the SAR in canonical JSON, as ir generate-sar writes it) and <out>.sar.json.dsse.json (its DSSE envelope). The report cites the SAR digest and key id; verify the pair with svc ir validate <out>.sar.json. Signs with --key, else SVC_SIGNING_KEY, else a development key (with a warning).';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/sar.docx --key keys/assessor.pem'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    out: outFileFlag('The .docx file to write; the SAR goes to <out without .docx>.sar.json.', true),
    key: Flags.string({ summary: 'PEM private key to sign the SAR with (EC P-256, Ed25519 or RSA ≥ 2048 bits).', helpValue: '<pem>' }),
    catalog: officialCatalogFlag,
  };

  async run(): Promise<GenerateWordDocumentResult> {
    const { args, flags } = await this.parse(GenerateSarReport);
    const result = await this.resolve(GenerateWordDocument).execute({
      kind: 'sar',
      input: args.input,
      out: flags.out as string,
      key: flags.key,
      catalog: flags.catalog,
    });
    const sar = result.sar;
    if (sar?.key.kind === 'development') {
      this.warning(
        `no signing key given (--key or SVC_SIGNING_KEY): signed with the development key ${sar.key.path}${sar.key.created ? ', created now' : ''}; use your own key for a real assessment`,
      );
    }
    this.log(`SAR written to ${result.out}`);
    if (sar) {
      this.log(`OSCAL SAR written to ${sar.file} (${sar.sha256})`);
      this.log(`Signature written to ${sar.envelope} (${sar.algorithm}, key ${sar.keyid})`);
    }
    return withWrittenFile(result);
  }
}
