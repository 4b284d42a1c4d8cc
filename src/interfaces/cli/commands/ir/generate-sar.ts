import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { GenerateSar, type GenerateSarResult } from '../../../../application/oscal/generate-sar';
import { declaredVersionFlag, officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';

export default class IrGenerateSar extends BaseCommand {
  static summary = 'Write a signed OSCAL Assessment Results document: the SAR in canonical JSON and <out>.dsse.json (DSSE, in-toto Statement v1).';
  static description =
    'Signs with --key, else SVC_SIGNING_KEY, else a development key created once under .svc/ (with a warning). ES256 (EC P-256), Ed25519 and RSA-PSS PEM keys are accepted.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/sar.json --key keys/assessor.pem'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    out: outFileFlag('File to write the SAR to; the envelope goes to <out>.dsse.json.', true),
    key: Flags.string({ summary: 'PEM private key to sign with (EC P-256, Ed25519 or RSA ≥ 2048 bits).', helpValue: '<pem>' }),
    'oscal-version': declaredVersionFlag,
    catalog: officialCatalogFlag,
  };

  async run(): Promise<GenerateSarResult> {
    const { args, flags } = await this.parse(IrGenerateSar);
    const result = await this.resolve(GenerateSar).execute({
      input: args.input,
      out: flags.out as string,
      key: flags.key,
      oscalVersion: flags['oscal-version'],
      catalog: flags.catalog,
    });
    if (result.key.kind === 'development') {
      this.warning(
        `no signing key given (--key or SVC_SIGNING_KEY): signed with the development key ${result.key.path}${result.key.created ? ', created now' : ''}; use your own key for a real assessment`,
      );
    }
    this.log(`SAR written to ${result.out} (${result.sha256})`);
    this.log(`Signature written to ${result.envelope} (${result.algorithm}, key ${result.keyid})`);
    return result;
  }
}
