import { BaseCommand } from '../../base-command';
import { BuildTrendDashboard, type BuildTrendDashboardResult } from '../../../../application/conmon/build-trend-dashboard';
import { outFileFlag } from '../../flags';
import { withWrittenFile } from '../../json-output';
import { plural } from '../../../../domain/encoding/plural';

export default class ConmonDashboard extends BaseCommand {
  static summary = 'Write one self-contained HTML page of trends across the stored runs: pass rate by area, open and overdue POA&M, drift.';
  static reads = 'the runs of the run store (svc conmon process <report> records one; SVC_STORE picks the store)';
  static examples = ['<%= config.bin %> <%= command.id %> --out out/conmon.html'];
  static enableJsonFlag = true;
  static flags = { out: outFileFlag('HTML file to write.', true) };

  async run(): Promise<BuildTrendDashboardResult> {
    const { flags } = await this.parse(ConmonDashboard);
    const result = await this.resolve(BuildTrendDashboard).execute({ out: flags.out as string });
    this.print(`Dashboard of ${plural(result.runs, 'run')} written to ${result.out}`);
    return withWrittenFile(result);
  }
}
