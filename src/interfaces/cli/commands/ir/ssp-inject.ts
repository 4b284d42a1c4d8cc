import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { InjectSsp, type InjectSspResult } from '../../../../application/oscal/inject-ssp';
import { officialCatalogFlag, outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class IrSspInject extends BaseCommand {
  static summary = 'Write KSI-derived statements and implementation statuses into an existing OSCAL SSP, keeping the rest of it byte for byte.';
  static examples = ['<%= config.bin %> <%= command.id %> ssp.json fixtures/sample-baseline.json --out ssp-updated.json'];
  static enableJsonFlag = true;
  static args = { ssp: Args.string({ required: true, description: 'The OSCAL system-security-plan to write into' }), input: runInputArg };
  static flags = { out: outFileFlag('File to write the updated SSP to (may be the SSP itself).', true), catalog: officialCatalogFlag };

  async run(): Promise<InjectSspResult> {
    const { args, flags } = await this.parse(IrSspInject);
    const result = await this.resolve(InjectSsp).execute({ ssp: args.ssp, input: args.input, out: flags.out as string, catalog: flags.catalog });
    this.log(`SSP written to ${result.out}`);
    this.log(`Updated: ${result.updated.length}${result.updated.length > 0 ? ` (${result.updated.join(', ')})` : ''}`);
    this.log(`Added: ${result.added.length}${result.added.length > 0 ? ` (${result.added.join(', ')})` : ''}`);
    return withWrittenFile(result);
  }
}
