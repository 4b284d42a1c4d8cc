import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { REPORT_FORMATS, ReportVulnerabilities, type ReportFormat } from '../../../../application/vulnerabilities/vuln-use-cases';
import { outFileFlag, parseNow } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';

export default class VulnReport extends BaseCommand {
  static summary = "Write FedRAMP's Vulnerability Detail Report (VDR) or Accepted Vulnerability Info (AVI) for a period, from the vulnerability register.";
  static description = `The VDR lists every group detected by the period's end and not closed before it began, except the accepted ones, with detection, evaluation, IRV, LEV, N-rating, reductions, projected next reduction, overdue status and final disposition (VER-RPT-VDT); the AVI the accepted ones with their rationale (VER-RPT-AVI). --redact replaces resource names with stable hashes (VER-RPT-NID). The period defaults to the 30 days before --to (default now). The historical-activity, Markdown and HTML formats follow (docs/vulnerabilities.md).
Exit codes: 0 written; 2 bad flag or period; 3 bad profile or KEV catalog; 4 the run store does not verify; 5 the run store cannot be read.`;
  static examples = ['<%= config.bin %> <%= command.id %> --format vdr --out vdr.json', '<%= config.bin %> <%= command.id %> --format avi --from 2026-11-01 --to 2026-11-30 --redact --out avi.json'];
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

  async run(): Promise<Record<string, unknown>> {
    const { flags } = await this.parse(VulnReport);
    const from = parseNow(flags.from, '--from');
    const to = parseNow(flags.to, '--to');
    const r = await this.resolve(ReportVulnerabilities).execute({ format: flags.format as ReportFormat, redact: flags.redact, out: flags.out, ...(from ? { from } : {}), ...(to ? { to } : {}), ...parseProfileFlags(flags) });
    if (r.out === undefined) this.log(JSON.stringify(r.document, null, 2));
    else this.log(`${flags.format.toUpperCase()} written to ${r.out} (sha256:${r.sha256}): ${r.count} ${flags.format === 'vdr' ? 'vulnerabilities' : 'accepted vulnerabilities'}`);
    return r.out === undefined ? r.document : { out: r.out, sha256: `sha256:${r.sha256}`, count: r.count };
  }
}
