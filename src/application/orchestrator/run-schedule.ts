import { inject, injectable } from 'tsyringe';
import { AppError } from '../../domain/errors';
import type { Job } from '../../domain/orchestrator/job';
import { CRON_SCHEDULE, type CronSchedule } from '../../ports/cron-schedule';
import { ORCHESTRATOR_CONFIG_SOURCE, type OrchestratorConfigSource } from '../../ports/orchestrator-config-source';
import { TIMER, type Timer } from '../../ports/timer';
import { RunJob, type RunJobResult } from './run-job';

/** How one run of a job ended. */
export type JobOutcome = { job: string } & ({ ok: true; result: RunJobResult } | { ok: false; error: string });

/** One scheduled run, as reported while the scheduler goes on. */
export type ScheduledRun = JobOutcome & { due: string };

export interface RunScheduleInput {
  config?: string;
  /** Stop after this many runs. */
  maxRuns?: number;
  /** Stop when this aborts (SIGINT, SIGTERM, --until). */
  signal: AbortSignal;
  onRun?: (run: ScheduledRun) => void;
}

export interface RunScheduleResult {
  config: string;
  runs: ScheduledRun[];
}

/**
 * `svc orchestrator schedule` in the foreground: sleeps until the next job falls due and runs it, one at a time,
 * until stopped. A failed run is reported and the scheduler goes on; jobs due at the same time run in config order.
 */
@injectable()
export class RunSchedule {
  constructor(
    @inject(ORCHESTRATOR_CONFIG_SOURCE) private readonly configs: OrchestratorConfigSource,
    @inject(CRON_SCHEDULE) private readonly cron: CronSchedule,
    @inject(TIMER) private readonly timer: Timer,
    private readonly runJob: RunJob,
  ) {}

  async execute({ config, maxRuns, signal, onRun }: RunScheduleInput): Promise<RunScheduleResult> {
    const loaded = await this.configs.load(config);
    const runs: ScheduledRun[] = [];
    const more = () => !signal.aborted && (maxRuns === undefined || runs.length < maxRuns);
    let after = this.timer.now();
    while (more()) {
      const due = loaded.jobs.map((job) => ({ job, at: this.cron.next(job.schedule, after) }));
      const at = Math.min(...due.map((d) => d.at.getTime()));
      await this.timer.sleep(at - this.timer.now().getTime(), signal);
      for (const { job } of due.filter((d) => d.at.getTime() === at)) {
        if (!more()) break;
        const run = await this.runOnce(job, loaded.file, new Date(at).toISOString());
        runs.push(run);
        onRun?.(run);
      }
      after = new Date(Math.max(at, this.timer.now().getTime()));
    }
    return { config: loaded.file, runs };
  }

  private async runOnce(job: Job, config: string, due: string): Promise<ScheduledRun> {
    try {
      return { job: job.name, due, ok: true, result: await this.runJob.execute({ job: job.name, config }) } as ScheduledRun;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { job: job.name, due, ok: false, error: error.message };
    }
  }
}
