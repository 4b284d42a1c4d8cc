import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { ListVulnerabilities, VULN_FILTERS, type VulnFilter } from '../../../../application/vulnerabilities/list-vulnerabilities';
import type { ListedVulnerability } from '../../../../application/vulnerabilities/listed-vulnerability';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { renderVulnerabilities } from '../../vuln-output';
import { helpText } from '../../help-text';

export default class VulnList extends BaseCommand {
  static summary = 'List the vulnerability groups of the latest recorded run, each judged at --now by the VER and VDR timeframes of the class.';
  static reads = "the vulnerability groups of the run store's latest run (svc conmon process <report> records one) and the evaluations in its journal";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --status overdue --class D --now 2026-12-20',
    '<%= config.bin %> <%= command.id %> --status incident --json',
  ];
  static enableJsonFlag = true;
  static flags = {
    status: Flags.string({ summary: 'Only groups in this state, or the overdue ones, or the reportable incidents.', options: [...VULN_FILTERS] }),
    class: profileFlags.class,
    now: profileFlags.now,
  };

  async run(): Promise<ListedVulnerability[]> {
    const { flags } = await this.parse(VulnList);
    const result = await this.resolve(ListVulnerabilities).execute({
      ...parseProfileFlags(flags),
      ...(flags.status ? { status: flags.status as VulnFilter } : {}),
    });
    for (const line of renderVulnerabilities(result)) this.log(line);
    return result.vulnerabilities;
  }
}
