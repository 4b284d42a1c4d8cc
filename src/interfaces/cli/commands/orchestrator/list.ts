import { BaseCommand } from '../../base-command';
import { ListJobs, type ListJobsResult } from '../../../../application/orchestrator/list-jobs';
import { nowFlag, parseNow } from '../../flags';
import { orchestratorConfigFlag } from '../../orchestrator-flags';

export default class OrchestratorList extends BaseCommand {
  static summary = 'List the jobs of svc.orchestrator.json with their last result and next run time (UTC).';
  static reads = 'the jobs of svc.orchestrator.json (--config names another) and their last results';
  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --config ops/svc.orchestrator.json --json'];
  static enableJsonFlag = true;
  static flags = {
    config: orchestratorConfigFlag,
    now: { ...nowFlag, summary: 'Compute next run times from this time instead of now (ISO-8601 with a zone).' },
  };

  async run(): Promise<ListJobsResult> {
    const { flags } = await this.parse(OrchestratorList);
    const result = await this.resolve(ListJobs).execute({ config: flags.config, now: parseNow(flags.now) });
    const rows = result.jobs.map((job) => [
      job.name,
      job.adapter,
      job.schedule,
      job.last === undefined ? 'never run' : job.last.status === 'ok' ? `ok ${job.last.finished}` : `failed at ${job.last.stage} ${job.last.finished}`,
      job.next,
    ]);
    this.print(table(['Job', 'Adapter', 'Schedule', 'Last result', 'Next run'], rows));
    return result;
  }
}

/** A Markdown table, columns padded to their widest cell. */
function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
