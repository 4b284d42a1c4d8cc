import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { ExportPoam, POAM_FORMATS, type ExportPoamResult, type PoamFormat } from '../../../../application/poam/export-poam';
import {
  ExportVulnerabilityPoam,
  VULNERABILITY_POAM_FORMATS,
  type ExportVulnerabilityPoamResult,
  type VulnerabilityPoamFormat,
} from '../../../../application/poam/export-vulnerability-poam';
import { UsageError } from '../../../../domain/errors';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { outFileFlag } from '../../flags';
import { withWrittenFile } from '../../json-output';
import { registerLine } from '../../vuln-output';
import { helpText } from '../../help-text';

const POAM_SOURCES = ['results', 'vulnerabilities'] as const;

export default class IrPoamExport extends BaseCommand {
  static summary =
    "Write POA&M rows: a run's, or the run store's vulnerability groups; svc JSON, the FedRAMP POA&M template as CSV or .xlsx, or an OSCAL POA&M.";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --format xlsx --out out/poam.xlsx',
    '<%= config.bin %> <%= command.id %> out/bundle --format oscal --out out/poam.oscal.json',
    '<%= config.bin %> <%= command.id %> --source vulnerabilities --format csv --out out/vuln-poam.csv --class D --now 2026-12-20',
  ];
  static enableJsonFlag = true;
  static args = { input: Args.string({ description: 'Normalized report, evidence-bundle.json, or auditor bundle directory (--source results only)' }) };
  static flags = {
    source: Flags.string({
      summary: "Rows from a run's KSI results, or from the run store's vulnerability register.",
      options: [...POAM_SOURCES],
      default: 'results',
    }),
    format: Flags.string({ summary: 'File format (oscal with --source results only).', options: [...POAM_FORMATS], required: true }),
    out: outFileFlag('File to write.', true),
    class: { ...profileFlags.class, summary: "Certification Class, over the profile's fedramp.class (--source vulnerabilities)." },
    now: {
      ...profileFlags.now,
      summary: 'Judge the vulnerability groups at this time instead of now (--source vulnerabilities; ISO-8601 with a zone, or a date).',
    },
  };

  async run(): Promise<ExportPoamResult | ExportVulnerabilityPoamResult> {
    const { args, flags } = await this.parse(IrPoamExport);
    const out = flags.out as string;
    if (flags.source === 'vulnerabilities') {
      if (args.input !== undefined)
        throw new UsageError(
          'unexpected-argument',
          `--source vulnerabilities reads the run store's vulnerability register and takes no input (got ${args.input})`,
        );
      if (!(VULNERABILITY_POAM_FORMATS as readonly string[]).includes(flags.format)) {
        throw new UsageError('bad-flag-value', `--format ${flags.format}: not with --source vulnerabilities; write ${VULNERABILITY_POAM_FORMATS.join(', ')}`);
      }
      const r = await this.resolve(ExportVulnerabilityPoam).execute({ format: flags.format as VulnerabilityPoamFormat, out, ...parseProfileFlags(flags) });
      this.print(`${registerLine(r)}\nPOA&M (${r.format}) written to ${r.out}\nRows: ${r.rows}\nOverdue: ${r.overdue}`);
      return withWrittenFile(r);
    }
    if (args.input === undefined)
      throw new UsageError(
        'missing-arguments',
        'give the run: a normalized report, evidence-bundle.json or an auditor bundle directory (or --source vulnerabilities)',
      );
    if (flags.class !== undefined || flags.now !== undefined) {
      throw new UsageError(
        'bad-flag-value',
        `${flags.class === undefined ? '--now' : '--class'} goes with --source vulnerabilities; a run's POA&M is judged at the run's date`,
      );
    }
    const result = await this.resolve(ExportPoam).execute({ input: args.input, format: flags.format as PoamFormat, out });
    this.print(`POA&M (${result.format}) written to ${result.out}\nRows: ${result.rows}\nOverdue: ${result.overdue}`);
    return withWrittenFile(result);
  }
}
