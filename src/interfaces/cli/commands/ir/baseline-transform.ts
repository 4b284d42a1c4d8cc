import { BaseCommand } from '../../base-command';
import { TransformBaseline, type TransformBaselineResult } from '../../../../application/pipeline/transform-baseline';
import { officialCatalogFlag, reportArg } from '../../flags';
import { plural } from '../../../../domain/encoding/plural';

export default class IrBaselineTransform extends BaseCommand {
  static summary = 'Map a normalized report to controls and policies and count the results.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json', '<%= config.bin %> <%= command.id %> results.json --json'];
  static enableJsonFlag = true;
  static args = { input: reportArg };
  static flags = { catalog: officialCatalogFlag };

  async run(): Promise<TransformBaselineResult> {
    const { args, flags } = await this.parse(IrBaselineTransform);
    const result = await this.resolve(TransformBaseline).execute({ input: args.input, officialCatalog: flags.catalog });
    this.log(`Transforming ${args.input} ...`); // after the run, so an input error prints nothing to stdout
    const { counts, unmapped } = result;
    this.log(`Mapped ${plural(counts.mapped, 'KSI')} to controls and policies`);
    this.log(`Total: ${counts.results}`);
    this.log(`PASS: ${counts.pass}`);
    this.log(`WARN: ${counts.warn}`);
    this.log(`FAIL: ${counts.fail}`);
    this.log(`Unmapped: ${counts.unmapped}${unmapped.length > 0 ? ` (${unmapped.join(', ')})` : ''}`);
    return result;
  }
}
