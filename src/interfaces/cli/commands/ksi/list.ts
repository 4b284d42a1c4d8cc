import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { ListKsis, type ListKsisResult } from '../../../../application/catalog/list-ksis';

export default class KsiList extends BaseCommand {
  static summary = 'Browse the built-in catalog of 163 KSIs: id, title, severity, validation frequency, owner, controls.';
  static examples = ['<%= config.bin %> <%= command.id %> --area AC', '<%= config.bin %> <%= command.id %> --control ia-2.1 --json'];
  static enableJsonFlag = true;
  static flags = {
    area: Flags.string({ summary: 'Only this NIST family (AC, IA, SC, ...).', helpValue: '<family>' }),
    control: Flags.string({ summary: 'Only the KSI covering this control or enhancement.', helpValue: '<control>' }),
  };

  async run(): Promise<ListKsisResult> {
    const { flags } = await this.parse(KsiList);
    const result = await this.resolve(ListKsis).execute({ area: flags.area, control: flags.control });
    if (result.ksis.length === 0) this.log('No KSI matches.');
    for (const k of result.ksis) {
      this.log(`${k.id.padEnd(10)}  ${k.severity.padEnd(8)}  ${`${k.frequency_days}d`.padStart(3)}  ${k.owner.padEnd(30)}  ${k.title} [${k.controls.join(', ')}]`);
    }
    return result;
  }
}
