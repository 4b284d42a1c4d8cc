import { BaseCommand } from '../../base-command';
import { CheckFedrampReadiness, type CheckFedrampReadinessResult } from '../../../../application/fedramp/check-fedramp-readiness';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { renderReadiness } from '../../fedramp-output';
import { helpText } from '../../help-text';

export default class FedrampReadiness extends BaseCommand {
  static summary = 'Judge every CR26 rule and KSI that applies to the FedRAMP profile: met, not met, needs a provider statement, or not yet required.';
  static reads =
    "the run store's state, the latest run of every source (svc conmon process <report>... records them), the provider's statements (fedramp.statements) and the fedramp profile of svc.config.json";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --class C --now 2026-12-07',
    '<%= config.bin %> <%= command.id %> --type 20x --class A --json',
  ];
  static enableJsonFlag = true;
  static flags = { ...profileFlags };

  async run(): Promise<CheckFedrampReadinessResult> {
    const { flags } = await this.parse(FedrampReadiness);
    const result = await this.resolve(CheckFedrampReadiness).execute(parseProfileFlags(flags));
    for (const line of renderReadiness(result)) this.log(line);
    this.exitWithFindings(result.must_not_met.length > 0);
    return result;
  }
}
