import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { WriteOcr, type WriteOcrResult } from '../../../../application/fedramp/write-ocr';
import { parseDay } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { helpText } from '../../help-text';

export default class FedrampOcr extends BaseCommand {
  static summary = 'Write the Ongoing Certification Report of a period from the run store and the profile, and record it (CCM-OCR-AVL).';
  static reads = "the run store's runs and journal and the fedramp profile of svc.config.json";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> --from 2026-09-01 --to 2026-11-30',
    '<%= config.bin %> <%= command.id %> --draft --out drafts/ocr.json',
    '<%= config.bin %> <%= command.id %> --to 2026-11-30 --now 2026-12-01 --json',
  ];
  static enableJsonFlag = true;
  static flags = {
    from: Flags.string({ summary: "The period's first day (default: the day after the last recorded OCR's period).", helpValue: '<date>' }),
    to: Flags.string({ summary: "The period's last day (default: the day of --now).", helpValue: '<date>' }),
    draft: Flags.boolean({ summary: 'Write the OCR without recording it.' }),
    out: Flags.string({ summary: 'The JSON file (default ocr-<to>.json); the Markdown twin is written beside it.', helpValue: '<file>' }),
    schemas: Flags.string({
      summary: "Directory of FedRAMP's CR26 schemas; else SVC_FEDRAMP_SCHEMAS or fedramp_schemas in svc.config.json, else the newest set svc carries.",
      helpValue: '<dir>',
    }),
    ...profileFlags,
  };

  async run(): Promise<WriteOcrResult> {
    const { flags } = await this.parse(FedrampOcr);
    const r = await this.resolve(WriteOcr).execute({
      ...(flags.from === undefined ? {} : { from: parseDay(flags.from, '--from') }),
      ...(flags.to === undefined ? {} : { to: parseDay(flags.to, '--to') }),
      draft: flags.draft,
      out: flags.out,
      schemas: flags.schemas,
      ...parseProfileFlags(flags),
    });
    const c = r.counts;
    this.log(`OCR written to ${r.out} (${r.sha256})`);
    this.log(`Markdown twin written to ${r.markdown}`);
    this.log(`Period: ${r.period.from} to ${r.period.to}`);
    this.log(
      `Certification data changes ${c.certification_data_changes}; planned changes ${c.planned_changes}; transformative changes ${c.transformative_changes}; reportable incidents ${c.incidents}${c.incidents === 0 ? ' (attests none occurred)' : ''}; accepted vulnerabilities ${c.accepted_vulnerabilities}`,
    );
    this.log(
      r.recorded === undefined
        ? `Draft: not recorded; the next report date stays as it was`
        : `Recorded as journal entry ${r.recorded.seq}: the next report is due ${r.next_report_date} (CCM-OCR-NRD, in the CPO from now on)`,
    );
    this.log(r.validated.schema === undefined ? `Note: ${r.validated.note}` : `Validated against FedRAMP's schemas in ${r.validated.schema}`);
    return r;
  }
}
