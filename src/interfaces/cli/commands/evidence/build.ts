import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { BuildEvidenceBundle } from '../../../../application/evidence/build-evidence-bundle';
import { evidenceBundleJson, type EvidenceBundleJson } from '../../json-output';
import { outFileFlag } from '../../flags';
import { plural } from '../../../../domain/encoding/plural';

export default class EvidenceBuild extends BaseCommand {
  static summary = 'Merge one or more normalized reports into one canonical evidence bundle (worst status wins per KSI).';
  static examples = ['<%= config.bin %> <%= command.id %> scuba.json prowler.json --out out/evidence-bundle.json'];
  static enableJsonFlag = true;
  static strict = false;
  static args = { input: Args.string({ required: true, description: 'Normalized reports (one or more)' }) };
  static flags = { out: outFileFlag('File to write the evidence bundle to.', true) };

  async run(): Promise<EvidenceBundleJson> {
    const { argv, flags } = await this.parse(EvidenceBuild);
    const inputs = argv as string[];
    const result = await this.resolve(BuildEvidenceBundle).execute({ inputs, out: flags.out as string });
    this.log(`Merged ${plural(inputs.length, 'report')} into ${plural(result.entries, 'entry', 'entries')}`);
    if (result.detections > 0) this.log(`Detections: ${result.detections} (every report's vulnerabilities[], one per id)`);
    this.log(`Evidence bundle written to ${result.out}`);
    this.log(`Merkle root: ${result.merkleRoot}`);
    return evidenceBundleJson(result);
  }
}
