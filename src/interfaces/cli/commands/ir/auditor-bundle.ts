import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { BuildAuditorBundle, type BuildAuditorBundleResult } from '../../../../application/pipeline/build-auditor-bundle';
import { officialCatalogFlag, reportArg } from '../../flags';
import { digested } from '../../json-output';
import { plural } from '../../../../domain/encoding/plural';

type AuditorBundleJson = Pick<BuildAuditorBundleResult, 'input' | 'counts' | 'unmapped' | 'files'> & {
  out_dir: string;
  merkle_root: string;
  aggregate_hash: string;
};

export default class IrAuditorBundle extends BaseCommand {
  static summary = 'Write the six auditor artifacts: evidence bundle, governance report, lineage, POA&M, SSP narrative, manifest.';
  static description = 'The files appear in the output directory together once all six are complete; on any error none is written.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out-dir out/bundle'];
  static enableJsonFlag = true;
  static args = { input: reportArg };
  static flags = {
    'out-dir': Flags.directory({ summary: 'Directory to write the bundle into (created if missing).', required: true, helpValue: '<dir>' }),
    catalog: officialCatalogFlag,
  };

  async run(): Promise<AuditorBundleJson> {
    const { args, flags } = await this.parse(IrAuditorBundle);
    const result = await this.resolve(BuildAuditorBundle).execute({ input: args.input, outDir: flags['out-dir'], officialCatalog: flags.catalog });
    this.log(`Building auditor bundle from ${args.input} ...`); // after the run, so an input error prints nothing to stdout
    this.log(`Mapped ${plural(result.counts.mapped, 'KSI')} to controls and policies`);
    this.log(`Bundle written to ${result.outDir}`);
    this.log(`Evidence: ${result.counts.evidence}`);
    this.log(`Actions: ${result.counts.actions}`);
    this.log(`POA&M: ${result.counts.poam}`);
    const { input, outDir, counts, unmapped, files, merkleRoot, aggregateHash } = result;
    return { input, out_dir: outDir, counts, unmapped, files: files.map(digested), merkle_root: merkleRoot, aggregate_hash: aggregateHash };
  }
}
