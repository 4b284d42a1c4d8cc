import { BaseCommand } from '../../base-command';
import { WriteSdr, type WriteSdrResult } from '../../../../application/fedramp/write-sdr';
import { officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { helpText } from '../../help-text';

export default class FedrampSdr extends BaseCommand {
  static summary = "Write the Security Decision Record (SDR) of a run for the FedRAMP profile: JSON valid against FedRAMP's schema, and its Markdown twin.";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> results.json --out package/sdr.json',
    '<%= config.bin %> <%= command.id %> out/bundle --class C --now 2026-11-25',
    '<%= config.bin %> <%= command.id %> results.json --type rev5 --class B --json',
  ];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    out: outFileFlag('File to write the SDR to (default sdr.json); the Markdown twin goes beside it (sdr.md).'),
    ...profileFlags,
    catalog: officialCatalogFlag,
  };

  async run(): Promise<WriteSdrResult> {
    const { args, flags } = await this.parse(FedrampSdr);
    const r = await this.resolve(WriteSdr).execute({ input: args.input, out: flags.out, catalog: flags.catalog, ...parseProfileFlags(flags) });
    this.log(`SDR written to ${r.out} (${r.sha256})`);
    this.log(`Markdown twin written to ${r.markdown}`);
    this.log(`Profile: ${r.profile.type} Class ${r.profile.class} (CR26 ${r.rules})`);
    this.log(
      `FedRAMP rules: ${r.requirements.total} (provider's statement ${r.requirements.provider}, svc's ${r.requirements.svc}, no statement supplied ${r.requirements.none})`,
    );
    if (r.profile.type === '20x') {
      this.log(
        `KSIs: ${r.ksis.total} (Implemented ${r.ksis.implemented}, Partially Implemented ${r.ksis.partially}, Not Implemented ${r.ksis.not_implemented}, no evidence ${r.ksis.no_evidence})`,
      );
      this.log(`Evidence entries: ${r.evidence}`);
    }
    if (r.controls !== undefined) this.log(`Rev5 controls: ${r.controls.total} (${r.controls.with_status} with a status)`);
    return r;
  }
}
