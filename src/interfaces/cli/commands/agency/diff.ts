import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { DIFF_FORMATS, DiffProvider, type DiffFormat } from '../../../../application/agency/diff-provider';
import { providerDiffMarkdown, type ProviderDiff } from '../../../../domain/agency/provider-diff';
import { jsonText, sortedCopy } from '../../../../domain/encoding/json-chunks';
import { helpText } from '../../help-text';

export default class AgencyDiff extends BaseCommand {
  static summary = 'Show what changed at a provider between two pulls: KSIs, requirements, vulnerabilities, incidents, SCNs and CPO fields.';
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> acme',
    '<%= config.bin %> <%= command.id %> acme --from 2026-06-30 --to 2026-09-30',
    '<%= config.bin %> <%= command.id %> acme --from 3 --format json',
  ];
  static enableJsonFlag = true;
  static args = { provider: Args.string({ required: true, description: 'The provider, by its name in agency.providers[] of svc.config.json' }) };
  static flags = {
    from: Flags.string({
      summary: "The older pull: its number, or an OCR's reporting period end (the pull that got that OCR); default the pull before --to.",
      helpValue: '<pull|date>',
    }),
    to: Flags.string({ summary: "The newer pull: its number, or an OCR's reporting period end; default the newest pull.", helpValue: '<pull|date>' }),
    format: Flags.string({ summary: 'Markdown, or JSON (svc.agency-diff/v1, keys in code-unit order).', options: [...DIFF_FORMATS], default: 'md' }),
  };

  async run(): Promise<ProviderDiff> {
    const { args, flags } = await this.parse(AgencyDiff);
    const diff = await this.resolve(DiffProvider).execute({
      provider: args.provider,
      ...(flags.from === undefined ? {} : { from: flags.from }),
      ...(flags.to === undefined ? {} : { to: flags.to }),
    });
    this.print((flags.format as DiffFormat) === 'json' ? jsonText(sortedCopy(diff), 'pretty') : providerDiffMarkdown(diff));
    return diff;
  }
}
