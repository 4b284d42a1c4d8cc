import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { GenerateInventory, type GenerateInventoryResult } from '../../../../application/documents/generate-inventory';
import { outFileFlag } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class GenerateInventoryCommand extends BaseCommand {
  static summary = 'Write the FedRAMP Integrated Inventory Workbook (.xlsx) of a substrate snapshot: one asset per resource.';
  static examples = ['<%= config.bin %> <%= command.id %> snapshots/today.json --out out/inventory.xlsx'];
  static enableJsonFlag = true;
  static args = { snapshot: Args.string({ required: true, description: 'Snapshot file written by svc substrate walk --out' }) };
  static flags = { out: outFileFlag('Workbook to write.', true) };

  async run(): Promise<GenerateInventoryResult> {
    const { args, flags } = await this.parse(GenerateInventoryCommand);
    const result = await this.resolve(GenerateInventory).execute({ snapshot: args.snapshot, out: flags.out as string });
    this.print(`Integrated inventory workbook written to ${result.out}`);
    return withWrittenFile(result);
  }
}
