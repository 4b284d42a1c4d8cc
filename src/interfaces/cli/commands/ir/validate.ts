import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { ValidateArtifacts } from '../../../../application/oscal/validate-artifacts';
import { schemasFlag } from '../../flags';
import { artifactValidationJson, artifactValidationText, type ArtifactValidationJson } from '../../oscal-output';

export default class IrValidate extends BaseCommand {
  static summary =
    'Recompute every hash, the manifest and the Merkle root of a bundle, the hashes and signature of a FedRAMP certification package, or the digest and signature of a signed SAR.';
  static description = 'Exit 0 verified, 4 on the first mismatch (named), 1 when a correctly signed SAR is not valid OSCAL.';
  static examples = ['<%= config.bin %> <%= command.id %> out/bundle', '<%= config.bin %> <%= command.id %> out/sar.json --keyid <thumbprint>'];
  static enableJsonFlag = true;
  static args = {
    target: Args.string({
      required: true,
      description: 'Auditor bundle directory, certification package directory (fedramp package), evidence-bundle.json, or SAR written by ir generate-sar',
    }),
  };
  static flags = {
    schemas: schemasFlag,
    keyid: Flags.string({ summary: 'Accept only a signature by this key (its RFC 7638 thumbprint).', helpValue: '<thumbprint>' }),
  };

  async run(): Promise<ArtifactValidationJson> {
    const { args, flags } = await this.parse(IrValidate);
    const result = await this.resolve(ValidateArtifacts).execute({ target: args.target, schemas: flags.schemas, keyid: flags.keyid });
    this.print(artifactValidationText(result));
    this.exitWithFindings(result.kind === 'sar' && 'valid' in result.oscal && !result.oscal.valid);
    return artifactValidationJson(result);
  }
}
