import { BaseCommand } from '../../base-command';
import { CheckFreshness } from '../../../../application/freshness/check-freshness';
import type { FreshnessReport } from '../../../../domain/freshness/freshness';
import { nowFlag, parseNow, runInputArg } from '../../flags';

export default class IrFreshness extends BaseCommand {
  static summary = "List KSIs whose evidence is older than the KSI's validation frequency; exit 1 if any is stale.";
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json', '<%= config.bin %> <%= command.id %> out/bundle --now 2026-11-21T00:00:00Z'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = { now: nowFlag };

  async run(): Promise<FreshnessReport & { input: string }> {
    const { args, flags } = await this.parse(IrFreshness);
    const result = await this.resolve(CheckFreshness).execute({ input: args.input, now: parseNow(flags.now) });
    this.print(result.text);
    this.exitWithFindings(result.stale);
    return { input: result.input, ...result.report };
  }
}
