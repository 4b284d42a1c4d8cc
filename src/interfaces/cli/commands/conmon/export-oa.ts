import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { ExportOngoingAuthorization } from '../../../../application/conmon/export-ongoing-authorization';
import type { OaReport } from '../../../../domain/conmon/ongoing-authorization';
import { outFileFlag } from '../../flags';
import { plural } from '../../../../domain/encoding/plural';

export default class ConmonExportOa extends BaseCommand {
  static summary = 'Write the FedRAMP 20x Ongoing Authorization Report of a period from the run store: KSI status, changes, POA&M, drift.';
  static reads = 'the runs of the run store from --from to --to (svc conmon process <report> records one; SVC_STORE picks the store)';
  static examples = [
    '<%= config.bin %> <%= command.id %> --from 2026-10-01 --to 2026-10-31',
    '<%= config.bin %> <%= command.id %> --from 2026-10-01 --to 2026-12-31 --out out/oa-2026-q4.md',
  ];
  static enableJsonFlag = true;
  static flags = {
    from: Flags.string({ summary: 'Start of the period: a date (UTC) or a date-time with a zone.', helpValue: '<date>', required: true }),
    to: Flags.string({ summary: 'End of the period, inclusive: a date (UTC) or a date-time with a zone.', helpValue: '<date>', required: true }),
    out: outFileFlag('Write the Markdown here and the JSON beside it (same name, .json); without it the Markdown is printed.'),
  };

  async run(): Promise<OaReport> {
    const { flags } = await this.parse(ConmonExportOa);
    const result = await this.resolve(ExportOngoingAuthorization).execute({ from: flags.from, to: flags.to, out: flags.out });
    this.print(
      flags.out === undefined
        ? result.markdown
        : `Ongoing Authorization Report written to ${result.written.map((w) => w.path).join(' and ')} (${plural(result.report.runs.count, 'run')})`,
    );
    return result.report;
  }
}
