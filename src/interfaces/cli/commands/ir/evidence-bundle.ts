import { BaseCommand } from '../../base-command';
import { BuildEvidenceBundle } from '../../../../application/evidence/build-evidence-bundle';
import { evidenceBundleJson, type EvidenceBundleJson } from '../../json-output';
import { outFileFlag, reportArg } from '../../flags';

export default class IrEvidenceBundle extends BaseCommand {
  static summary = 'Write evidence-bundle.json alone: canonical entries, content hashes and the Merkle root.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/evidence-bundle.json'];
  static enableJsonFlag = true;
  static args = { input: reportArg };
  static flags = { out: outFileFlag('File to write the evidence bundle to.', true) };

  async run(): Promise<EvidenceBundleJson> {
    const { args, flags } = await this.parse(IrEvidenceBundle);
    const result = await this.resolve(BuildEvidenceBundle).execute({ inputs: [args.input], out: flags.out as string });
    this.log(`Evidence bundle written to ${result.out}`);
    this.log(`Entries: ${result.entries}`);
    if (result.detections > 0) this.log(`Detections: ${result.detections}`);
    this.log(`Merkle root: ${result.merkleRoot}`);
    return evidenceBundleJson(result);
  }
}
