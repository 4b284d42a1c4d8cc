import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { EvaluateKsis, type EvaluateKsisResult } from '../../../../application/catalog/evaluate-ksis';
import { outFileFlag } from '../../flags';
import { withWrittenFile } from '../../json-output';
import { plural } from '../../../../domain/encoding/plural';

export default class KsiEvaluate extends BaseCommand {
  static summary = 'Turn per-check results of a tool without an adapter into KSI results.';
  static description =
    'Input: [{"ksi_id", "check_id", "status": pass|fail|error|manual, "criticality": must|should}]. A failed must-check fails the KSI, a failed should-check or an error warns.';
  static examples = ['<%= config.bin %> <%= command.id %> checks.json --out report.json'];
  static enableJsonFlag = true;
  static args = { checks: Args.string({ required: true, description: 'JSON array of check rows' }) };
  static flags = { out: outFileFlag('Write the normalized report here (without it the report goes to stdout).') };

  async run(): Promise<EvaluateKsisResult> {
    const { args, flags } = await this.parse(KsiEvaluate);
    const result = await this.resolve(EvaluateKsis).execute({ input: args.checks, out: flags.out });
    if (result.out === undefined) this.print(JSON.stringify(result.report, null, 2));
    else {
      const { PASS, WARN, FAIL } = result.statuses;
      this.log(`Evaluated ${args.checks}: ${plural(PASS + WARN + FAIL, 'KSI')}`);
      this.log(`PASS: ${PASS}`);
      this.log(`WARN: ${WARN}`);
      this.log(`FAIL: ${FAIL}`);
      this.log(`Not assessed: ${result.not_assessed.length}${result.not_assessed.length > 0 ? ` (${result.not_assessed.join(', ')})` : ''}`);
      this.log(`Report written to ${result.out}`);
    }
    return withWrittenFile(result);
  }
}
