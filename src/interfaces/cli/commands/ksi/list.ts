import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { ListKsis, type ListKsisResult } from '../../../../application/catalog/list-ksis';
import { ListCr26Ksis, type ListCr26KsisResult } from '../../../../application/fedramp/list-cr26-ksis';
import { renderCr26Ksis } from '../../fedramp-output';

export default class KsiList extends BaseCommand {
  static summary = 'Browse the built-in catalog of 163 KSIs: id, title, severity, validation frequency, owner, controls.';
  static reads = 'the built-in KSI catalog, or with --catalog cr26 the KSIs of the CR26 rules in use';
  static description =
    'With --catalog cr26, browse the 46 KSIs of the FedRAMP Consolidated Rules 2026 in use instead (id, theme, name, controls), grouped by theme; --area then names a theme (IAM, CNA, ...). Elsewhere --catalog names an FRMR file; here it takes only the words 163 and cr26 (docs/ksi.md).';
  static examples = [
    '<%= config.bin %> <%= command.id %> --area AC',
    '<%= config.bin %> <%= command.id %> --control ia-2.1 --json',
    '<%= config.bin %> <%= command.id %> --catalog cr26 --area IAM',
  ];
  static enableJsonFlag = true;
  static flags = {
    area: Flags.string({ summary: 'Only this NIST family (AC, IA, SC, ...); with --catalog cr26, this theme (IAM, CNA, ...).', helpValue: '<family>' }),
    control: Flags.string({ summary: 'Only the KSI covering this control or enhancement (with --catalog cr26: the KSIs listing it).', helpValue: '<control>' }),
    catalog: Flags.string({ summary: 'Which KSIs: the built-in 163 (the default) or the CR26 KSIs of the rules in use.', options: ['163', 'cr26'] }),
  };

  async run(): Promise<ListKsisResult | ListCr26KsisResult> {
    const { flags } = await this.parse(KsiList);
    if (flags.catalog === 'cr26') {
      const cr26 = await this.resolve(ListCr26Ksis).execute({ area: flags.area, control: flags.control });
      for (const line of renderCr26Ksis(cr26)) this.log(line);
      return cr26;
    }
    const result = await this.resolve(ListKsis).execute({ area: flags.area, control: flags.control });
    if (result.ksis.length === 0) this.log('No KSI matches.');
    for (const k of result.ksis) {
      this.log(
        `${k.id.padEnd(10)}  ${k.severity.padEnd(8)}  ${`${k.frequency_days}d`.padStart(3)}  ${k.owner.padEnd(30)}  ${k.title} [${k.controls.join(', ')}]`,
      );
    }
    return result;
  }
}
