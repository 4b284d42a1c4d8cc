import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { ListFedrampRules, type ListFedrampRulesResult } from '../../../../application/fedramp/list-fedramp-rules';
import { ShowFedrampSources, type FedrampSources } from '../../../../application/fedramp/show-fedramp-sources';
import { renderRules, renderSources } from '../../fedramp-output';
import { nowFlag } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { helpText } from '../../help-text';

export default class FedrampRules extends BaseCommand {
  static summary = "List the CR26 rules and KSIs that apply to the offering's FedRAMP profile, with force, timeframe and effective date.";
  static reads = 'the CR26 rules in use (bundled, or --rules-file) and the fedramp profile of svc.config.json';
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> --type 20x --class B',
    '<%= config.bin %> <%= command.id %> --class A --now 2026-11-25',
    '<%= config.bin %> <%= command.id %> --family VDR --json',
    '<%= config.bin %> <%= command.id %> --type rev5 --class C --rules-file fedramp-consolidated-rules.json',
    '<%= config.bin %> <%= command.id %> --sources',
    '<%= config.bin %> <%= command.id %> --sources --schemas fedramp-schemas --json',
  ];
  static enableJsonFlag = true;
  static flags = {
    class: profileFlags.class,
    type: profileFlags.type,
    family: Flags.string({ summary: 'Only the rules of this family (VDR, FRC, ...), or KSI for only the KSIs.', helpValue: '<id>' }),
    now: { ...nowFlag, summary: 'Judge the effective dates at this time instead of now (ISO-8601 with a zone, or a date).' },
    'rules-file': Flags.string({
      summary: "FedRAMP's official consolidated rules file to read instead of the rules in use; its statements are shown under --json.",
      helpValue: '<rules.json>',
    }),
    sources: Flags.boolean({
      summary:
        "Name the rules release and FedRAMP's schemas in use (each schema's type, $schemaVersion and SHA-256) instead of listing rules; no profile needed.",
      exclusive: ['class', 'type', 'family', 'now'],
    }),
    schemas: Flags.string({
      summary:
        "With --sources: the directory of FedRAMP's CR26 schemas to name; else SVC_FEDRAMP_SCHEMAS or fedramp_schemas in svc.config.json, else the newest set svc carries.",
      helpValue: '<dir>',
      dependsOn: ['sources'],
    }),
  };

  async run(): Promise<ListFedrampRulesResult | FedrampSources> {
    const { flags } = await this.parse(FedrampRules);
    if (flags.sources) {
      const sources = await this.resolve(ShowFedrampSources).execute({ schemas: flags.schemas, rulesFile: flags['rules-file'] });
      for (const line of renderSources(sources)) this.log(line);
      return sources;
    }
    const result = await this.resolve(ListFedrampRules).execute({ family: flags.family, rulesFile: flags['rules-file'], ...parseProfileFlags(flags) });
    for (const line of renderRules(result)) this.log(line);
    return result;
  }
}
