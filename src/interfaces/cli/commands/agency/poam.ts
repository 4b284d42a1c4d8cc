import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { AGENCY_POAM_FORMATS, AgencyPoam, type AgencyPoamFormat, type AgencyPoamResult } from '../../../../application/agency/agency-poam';
import { plural } from '../../../../domain/encoding/plural';
import { nowFlag, outFileFlag, parseNow } from '../../flags';
import { helpText } from '../../help-text';

export default class AgencyPoamCommand extends BaseCommand {
  static summary = "Write the agency's POA&M items from a provider's vulnerability reports (VER-AGM-MAP), due dates and overdue recomputed.";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> acme --format xlsx --out acme-poam.xlsx',
    '<%= config.bin %> <%= command.id %> acme --format csv --out acme-poam.csv --now 2026-12-01',
  ];
  static enableJsonFlag = true;
  static args = { provider: Args.string({ required: true, description: 'The provider, by its name in agency.providers[] of svc.config.json' }) };
  static flags = {
    format: Flags.string({
      summary: 'The FedRAMP POA&M template as .xlsx or CSV, or JSON (svc.agency-poam/v1).',
      options: [...AGENCY_POAM_FORMATS],
      required: true,
    }),
    out: outFileFlag('File to write the POA&M to.', true),
    now: { ...nowFlag, summary: 'Recompute due dates and overdue at this time instead of now (ISO-8601 with a zone, or a date).' },
  };

  async run(): Promise<AgencyPoamResult> {
    const { args, flags } = await this.parse(AgencyPoamCommand);
    const now = parseNow(flags.now);
    const r = await this.resolve(AgencyPoam).execute({
      provider: args.provider,
      format: flags.format as AgencyPoamFormat,
      out: flags.out!,
      ...(now === undefined ? {} : { now }),
    });
    const from = [r.vdr === undefined ? undefined : `VDR ${r.vdr.sha256}`, r.avi === undefined ? undefined : `AVI ${r.avi.sha256}`]
      .filter((x) => x !== undefined)
      .join(', ');
    this.log(
      `POA&M of ${r.provider} written to ${r.out} (${r.format}): ${plural(r.rows, 'item')}, ${r.open} open, ${r.overdue} overdue at ${r.now} (Class ${r.class}; from ${from})`,
    );
    return r;
  }
}
