import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { CheckFreshness } from '../../../../application/freshness/check-freshness';
import { CheckCr26Freshness } from '../../../../application/freshness/check-cr26-freshness';
import { UsageError } from '../../../../domain/errors';
import { parseCr26Class, parseFedrampType } from '../../../../domain/fedramp/profile';
import type { Cr26FreshnessReport } from '../../../../domain/freshness/cr26-freshness';
import type { FreshnessReport } from '../../../../domain/freshness/freshness';
import { nowFlag, parseNow, runInputArg } from '../../flags';

export default class IrFreshness extends BaseCommand {
  static summary = "List KSIs whose evidence is older than the KSI's validation frequency; exit 1 if any is stale.";
  static description =
    'With --class or --type, judge the evidence by the FedRAMP CR26 cadence of the profile\'s type and class instead: machine-based evidence by VDR-TFR-MVX (20x) or VDR-TFR-MVF (Rev5), non-machine evidence ("evidence_kind": "non-machine") every 3 months (VDR-TFR-NMV); the profile in svc.config.json gives what the flags leave out (docs/ir.md).';
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json',
    '<%= config.bin %> <%= command.id %> out/bundle --now 2026-11-21T00:00:00Z',
    '<%= config.bin %> <%= command.id %> fixtures/freshness-cr26.json --class B --type 20x',
  ];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    now: nowFlag,
    class: Flags.string({ summary: "Judge by the CR26 cadence of this Certification Class, over the profile's fedramp.class.", helpValue: 'A|B|C|D' }),
    type: Flags.string({ summary: "Judge by the CR26 cadence of this certification type, over the profile's fedramp.type.", helpValue: '20x|rev5' }),
  };

  async run(): Promise<(FreshnessReport | Cr26FreshnessReport) & { input: string }> {
    const { args, flags } = await this.parse(IrFreshness);
    if (flags.class !== undefined || flags.type !== undefined) {
      const cls =
        flags.class === undefined
          ? undefined
          : (parseCr26Class(flags.class) ?? refuse(`--class ${flags.class}: not a Certification Class; write A, B, C or D`));
      const type =
        flags.type === undefined ? undefined : (parseFedrampType(flags.type) ?? refuse(`--type ${flags.type}: not a certification type; write 20x or rev5`));
      const cr26 = await this.resolve(CheckCr26Freshness).execute({ input: args.input, class: cls, type, now: parseNow(flags.now) });
      this.print(cr26.text);
      this.exitWithFindings(cr26.stale);
      return { input: cr26.input, ...cr26.report };
    }
    const result = await this.resolve(CheckFreshness).execute({ input: args.input, now: parseNow(flags.now) });
    this.print(result.text);
    this.exitWithFindings(result.stale);
    return { input: result.input, ...result.report };
  }
}

function refuse(message: string): never {
  throw new UsageError('bad-flag-value', message);
}
