import { BaseCommand } from '../../base-command';
import { BuildRunDashboard, type BuildRunDashboardResult } from '../../../../application/reporting/build-run-dashboard';
import { outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';

export default class IrDashboard extends BaseCommand {
  static summary = 'Write one self-contained HTML page of a run: status by area, severity and SLA charts, the sortable governance table.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/dashboard.html'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = { out: outFileFlag('HTML file to write.', true) };

  async run(): Promise<BuildRunDashboardResult> {
    const { args, flags } = await this.parse(IrDashboard);
    const result = await this.resolve(BuildRunDashboard).execute({ input: args.input, out: flags.out as string });
    this.print(`Dashboard written to ${result.out}`);
    return withWrittenFile(result);
  }
}
