import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { ListVendors } from '../../../../application/adapters/list-vendors';
import { RunAdapter, type RunAdapterResult } from '../../../../application/adapters/run-adapter';
import type { VendorInfo } from '../../../../ports/scan-reader';
import { UsageError } from '../../../../domain/errors';
import { adapterRunText } from '../../output';
import { outFileFlag } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class AdapterRun extends BaseCommand {
  static summary = "Normalize a scanner's native output into KSI results (every scanner --list names, or auto).";
  static examples = [
    '<%= config.bin %> <%= command.id %> --list',
    '<%= config.bin %> <%= command.id %> prowler prowler-output.ocsf.json --out report.json',
    '<%= config.bin %> <%= command.id %> nessus scan.nessus > report.json',
    '<%= config.bin %> <%= command.id %> auto results.json --out report.json',
  ];
  static enableJsonFlag = true;
  static args = {
    vendor: Args.string({ description: "Scanner the file comes from (svc adapter run --list), or auto to pick it from the file's content" }),
    raw: Args.string({ description: "The scanner's output file" }),
  };
  static flags = {
    out: outFileFlag('Write the normalized report here (without it the report goes to stdout).'),
    list: Flags.boolean({ summary: 'List the vendors and exit.' }),
  };

  async run(): Promise<RunAdapterResult | { vendors: VendorInfo[] }> {
    const { args, flags } = await this.parse(AdapterRun);
    if (flags.list) {
      const result = await this.resolve(ListVendors).execute();
      for (const v of result.vendors) this.log(`${v.vendor.padEnd(16)} ${v.tool}: ${v.formats}; controls from ${v.mapping}`);
      return result;
    }
    if (!args.vendor || !args.raw) throw new UsageError('missing-arguments', 'give a vendor and a file (svc adapter run <vendor> <raw>), or --list');
    const result = await this.resolve(RunAdapter).execute({ vendor: args.vendor, input: args.raw, out: flags.out });
    if (result.detected) this.note(`${args.raw} is ${result.detected.format} output: read as svc adapter run ${result.vendor}`);
    this.print(adapterRunText(result));
    return withWrittenFile(result);
  }
}
