import { BaseCommand } from '../../base-command';
import { CheckFedrampReadiness, type CheckFedrampReadinessResult } from '../../../../application/fedramp/check-fedramp-readiness';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { renderReadiness } from '../../fedramp-output';

export default class FedrampReadiness extends BaseCommand {
  static summary = 'Judge every CR26 rule and KSI that applies to the FedRAMP profile: met, not met, needs a provider statement, or not yet required.';
  static reads = "the run store's state, the latest run of every source (svc conmon process <report>... records them), the provider's statements (fedramp.statements) and the fedramp profile of svc.config.json";
  static description = `Reads the run store's state, the latest run of every source (svc conmon process records runs; docs/conmon.md), the provider's statements (fedramp.statements) and the profile (fedramp.type and fedramp.class; path and status default to program and applying). A rule svc can judge from the run (evidence cadence, automated methods, history, metrics, Rev5 controls) is met or not by that; any other rule is met by the provider's statement unless its ### Status says otherwise, else it needs a statement. A KSI is met when the run gives it Implemented with fresh evidence, enough automated methods (FRC-CSX-VVK) and enough history (FRC-CSX-MOT). A rule required only from a later date, or not yet defined for the class, is not yet required. Class A's recommended and optional rules are listed apart, never judged.
Exit codes: 0 ready (every MUST in force is met); 1 a MUST or MUST NOT in force is not met or needs a statement; 2 bad flag; 3 bad profile or statements file; 4 the run store does not verify; 5 the run store cannot be read.`;
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
