import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { GenerateSbom, type GenerateSbomResult } from '../../../../application/documents/generate-sbom';
import { outFileFlag } from '../../flags';
import { withWrittenFile } from '../../json-output';
import { plural } from '../../../../domain/encoding/plural';

export default class GenerateSbomCommand extends BaseCommand {
  static summary = "Write a CycloneDX 1.6 JSON SBOM of a Node project from its package-lock.json (default: svc's own).";
  static examples = [
    '<%= config.bin %> <%= command.id %> --out out/svc.cdx.json',
    '<%= config.bin %> <%= command.id %> ../my-app --include-dev --out out/my-app.cdx.json',
  ];
  static enableJsonFlag = true;
  static args = { dir: Args.string({ description: "Project directory holding package.json and package-lock.json (default: svc's installation)" }) };
  static flags = {
    out: outFileFlag('JSON file to write.', true),
    'include-dev': Flags.boolean({ summary: 'Include development dependencies, with scope "optional".', default: false }),
  };

  async run(): Promise<GenerateSbomResult> {
    const { args, flags } = await this.parse(GenerateSbomCommand);
    const result = await this.resolve(GenerateSbom).execute({ dir: args.dir, out: flags.out as string, includeDev: flags['include-dev'] });
    this.print(`SBOM of ${plural(result.components, 'component')} written to ${result.out}`);
    return withWrittenFile(result);
  }
}
