import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { ListFedrampRules, type ListFedrampRulesResult } from '../../../../application/fedramp/list-fedramp-rules';
import { parseCr26Class, parseFedrampType } from '../../../../domain/fedramp/profile';
import { UsageError } from '../../../../domain/errors';
import { renderRules } from '../../fedramp-output';
import { nowFlag, parseNow } from '../../flags';

export default class FedrampRules extends BaseCommand {
  static summary = "List the CR26 rules and KSIs that apply to the offering's FedRAMP profile, with force, timeframe and effective date.";
  static description =
    'The profile is the fedramp section of svc.config.json (type, class, path, status, next_assessment); --type and --class override it, path and status default to program and applying. Rules for agencies, assessors, advisors and FedRAMP are listed apart, never judged; for Class A, the rules FRC-CLA-RFR recommends and FRC-CLA-OFR leaves optional are listed apart too (docs/fedramp.md).';
  static examples = [
    '<%= config.bin %> <%= command.id %> --type 20x --class B',
    '<%= config.bin %> <%= command.id %> --class A --now 2026-11-25',
    '<%= config.bin %> <%= command.id %> --family VDR --json',
    '<%= config.bin %> <%= command.id %> --type rev5 --class C --rules-file fedramp-consolidated-rules.json',
  ];
  static enableJsonFlag = true;
  static flags = {
    class: Flags.string({ summary: 'Certification Class, over the profile\'s fedramp.class.', helpValue: 'A|B|C|D' }),
    type: Flags.string({ summary: 'Certification type, over the profile\'s fedramp.type.', helpValue: '20x|rev5' }),
    family: Flags.string({ summary: 'Only the rules of this family (VDR, FRC, ...), or KSI for only the KSIs.', helpValue: '<id>' }),
    now: { ...nowFlag, summary: 'Judge the effective dates at this time instead of now (ISO-8601 with a zone, or a date).' },
    'rules-file': Flags.string({ summary: "FedRAMP's official consolidated rules file to read instead of the rules in use; its statements are shown under --json.", helpValue: '<rules.json>' }),
  };

  async run(): Promise<ListFedrampRulesResult> {
    const { flags } = await this.parse(FedrampRules);
    const cls = flags.class === undefined ? undefined : (parseCr26Class(flags.class) ?? refuse(`--class ${flags.class}: not a Certification Class; write A, B, C or D`));
    const type = flags.type === undefined ? undefined : (parseFedrampType(flags.type) ?? refuse(`--type ${flags.type}: not a certification type; write 20x or rev5`));
    const result = await this.resolve(ListFedrampRules).execute({ class: cls, type, family: flags.family, now: parseNow(flags.now), rulesFile: flags['rules-file'] });
    for (const line of renderRules(result)) this.log(line);
    return result;
  }
}

function refuse(message: string): never {
  throw new UsageError('bad-flag-value', message);
}
