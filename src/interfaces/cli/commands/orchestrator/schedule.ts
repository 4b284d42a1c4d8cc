import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { DEFAULT_IMAGE, EMIT_TARGETS, EmitSchedule, type EmitScheduleResult } from '../../../../application/orchestrator/emit-schedule';
import { RunSchedule, type RunScheduleResult, type JobOutcome } from '../../../../application/orchestrator/run-schedule';
import { WorkQueue, type WorkQueueResult } from '../../../../application/orchestrator/work-queue';
import { UsageError } from '../../../../domain/errors';
import { parseNow } from '../../flags';
import { orchestratorConfigFlag } from '../../orchestrator-flags';

export default class OrchestratorSchedule extends BaseCommand {
  static summary = 'Run the jobs on their schedules in the foreground, or hand them to cron, Kubernetes or Windows Task Scheduler.';
  static reads = 'the jobs of svc.orchestrator.json (--config names another)';
  static description = `Without --emit, runs each job when it falls due (schedules are UTC) until SIGINT or SIGTERM, --until or --max-runs.
--worker takes dispatched jobs off the shared queue instead (SVC_STORE=postgres://...).
--emit prints crontab lines, Kubernetes CronJob manifests or a Windows Task Scheduler task, each calling svc orchestrator dispatch <job>.`;
  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --emit crontab | crontab -',
    '<%= config.bin %> <%= command.id %> --emit k8s --image registry.example/svc:0.5.0 | kubectl apply -f -',
    '<%= config.bin %> <%= command.id %> --emit windows-task --job m365-daily > m365-daily.xml',
    'SVC_STORE=postgres://svc@db/svc <%= config.bin %> <%= command.id %> --worker',
  ];
  static enableJsonFlag = true;
  static flags = {
    config: orchestratorConfigFlag,
    emit: Flags.string({ summary: "Print the schedule for the platform's scheduler instead of running it.", options: [...EMIT_TARGETS] }),
    job: Flags.string({ summary: 'With --emit: only this job (a Windows task holds one).', helpValue: '<name>' }),
    image: Flags.string({ summary: 'With --emit k8s: the container image that has svc.', helpValue: '<ref>', default: DEFAULT_IMAGE }),
    svc: Flags.string({ summary: 'With --emit crontab or windows-task: the svc executable to call.', helpValue: '<path>', default: 'svc' }),
    worker: Flags.boolean({ summary: 'Run the jobs dispatched to the shared queue (SVC_STORE=postgres://...).', exclusive: ['emit'] }),
    'max-runs': Flags.integer({ summary: 'Stop after this many runs.', min: 1, exclusive: ['emit'] }),
    until: Flags.string({ summary: 'Stop at this time (ISO-8601 with a zone).', helpValue: '<time>', exclusive: ['emit'] }),
  };

  async run(): Promise<EmitScheduleResult | RunScheduleResult | WorkQueueResult> {
    const { flags } = await this.parse(OrchestratorSchedule);
    if (flags.emit !== undefined) {
      const result = await this.resolve(EmitSchedule).execute({
        target: flags.emit as EmitScheduleResult['target'],
        config: flags.config,
        job: flags.job,
        image: flags.image,
        svc: [flags.svc],
      });
      this.print(result.text);
      return result;
    }
    if (flags.job !== undefined)
      throw new UsageError(
        'job-without-emit',
        '--job selects what --emit prints; the foreground scheduler runs every job (use svc orchestrator dispatch <job> for one)',
      );
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const until = parseNow(flags.until, '--until');
    const timer = until && setTimeout(onSignal, Math.max(0, until.getTime() - Date.now()));
    try {
      const onRun = (run: JobOutcome & { due?: string }) => this.log(runLine(run));
      if (flags.worker) return await this.resolve(WorkQueue).execute({ config: flags.config, maxRuns: flags['max-runs'], signal: stop.signal, onRun });
      return await this.resolve(RunSchedule).execute({ config: flags.config, maxRuns: flags['max-runs'], signal: stop.signal, onRun });
    } finally {
      if (timer) clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}

function runLine(run: JobOutcome & { due?: string }): string {
  const head = `${run.due ?? new Date().toISOString()} ${run.job}:`;
  if (!run.ok) return `${head} ${run.error}`;
  return `${head} ok${run.result.run ? ` (run ${run.result.run.seq})` : ''}`;
}
