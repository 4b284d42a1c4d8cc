import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { RunAdapter, type RunAdapterResult } from '../../../../application/adapters/run-adapter';
import { adapterRunText } from '../../output';
import { outFileFlag } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class AdapterRunBaseline extends BaseCommand {
  static summary = 'Normalize CISA ScubaGear results (ScubaResults_*.json or TestResults.json) into KSI results.';
  static examples = ['<%= config.bin %> <%= command.id %> ScubaResults_fa5589b7.json --out report.json && svc ir auditor-bundle report.json --out-dir bundle'];
  static enableJsonFlag = true;
  static args = { raw: Args.string({ required: true, description: 'ScubaGear results file' }) };
  static flags = { out: outFileFlag('Write the normalized report here (without it the report goes to stdout).') };

  async run(): Promise<RunAdapterResult> {
    const { args, flags } = await this.parse(AdapterRunBaseline);
    const result = await this.resolve(RunAdapter).execute({ vendor: 'scubagear', input: args.raw, out: flags.out });
    this.print(adapterRunText(result));
    return withWrittenFile(result);
  }
}
