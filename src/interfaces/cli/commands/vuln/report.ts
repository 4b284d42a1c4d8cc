import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { REPORT_FORMATS, ReportVulnerabilities, type ReportFormat } from '../../../../application/vulnerabilities/report-vulnerabilities';
import { outFileFlag, parseNow } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { helpText } from '../../help-text';
import type { VulnerabilityReportDocument } from '../../../../domain/vulnerabilities/vulnerability-report-documents';

/** What each format's summary line calls the document and what it counts. */
const WRITTEN: Record<ReportFormat, [document: string, counted: string]> = {
  vdr: ['VDR', 'vulnerabilities'],
  avi: ['AVI', 'accepted vulnerabilities'],
  history: ['Historical activity', 'vulnerabilities (active and accepted)'],
  md: ['Monthly report (Markdown)', 'vulnerabilities'],
  html: ['Monthly report (HTML)', 'vulnerabilities'],
};

export default class VulnReport extends BaseCommand {
  static summary = "Write FedRAMP's vulnerability reports from the register: VDR, AVI, historical activity, or the monthly report in Markdown or HTML.";
  static reads = 'the vulnerability register of the run store (svc conmon process <report> records runs)';
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> --format vdr --out vdr.json',
    '<%= config.bin %> <%= command.id %> --format avi --from 2026-11-01 --to 2026-11-30 --redact --out avi.json',
    '<%= config.bin %> <%= command.id %> --format history --out history.json',
    '<%= config.bin %> <%= command.id %> --format html --from 2026-11-01 --to 2026-11-30T23:59:59Z --out vulnerabilities-2026-11.html',
  ];
  static enableJsonFlag = true;
  static flags = {
    format: Flags.string({ summary: 'Which document.', options: [...REPORT_FORMATS], required: true }),
    from: Flags.string({ summary: "The period's start (default: 30 days before --to).", helpValue: '<time>' }),
    to: Flags.string({ summary: "The period's end (default: --now).", helpValue: '<time>' }),
    redact: Flags.boolean({ summary: 'Replace resource names with stable hashes (VER-RPT-NID).' }),
    out: outFileFlag('File to write the document to; without it, it is printed.'),
    class: profileFlags.class,
    now: profileFlags.now,
  };

  async run(): Promise<Record<string, unknown> | VulnerabilityReportDocument> {
    const { flags } = await this.parse(VulnReport);
    const from = parseNow(flags.from, '--from');
    const to = parseNow(flags.to, '--to');
    const format = flags.format as ReportFormat;
    const r = await this.resolve(ReportVulnerabilities).execute({
      format,
      redact: flags.redact,
      out: flags.out,
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...parseProfileFlags(flags),
    });
    for (const warning of r.warnings ?? []) this.warning(warning);
    const [document, counted] = WRITTEN[format];
    if (r.out !== undefined) {
      this.log(`${document} written to ${r.out} (sha256:${r.sha256}): ${r.count} ${counted}`);
      return { format, out: r.out, sha256: `sha256:${r.sha256}`, count: r.count };
    }
    if (r.text !== undefined) {
      this.print(r.text);
      return { format, text: r.text, count: r.count };
    }
    this.log(JSON.stringify(r.document, null, 2));
    return r.document!;
  }
}
