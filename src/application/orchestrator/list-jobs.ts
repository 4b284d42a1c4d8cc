import { inject, injectable } from 'tsyringe';
import type { JobResult } from '../../domain/orchestrator/job-result';
import { CRON_SCHEDULE, type CronSchedule } from '../../ports/cron-schedule';
import { JOB_HISTORY, type JobHistory } from '../../ports/job-history';
import { ORCHESTRATOR_CONFIG_SOURCE, type OrchestratorConfigSource } from '../../ports/orchestrator-config-source';
import { TIMER, type Timer } from '../../ports/timer';

export interface ListJobsInput {
  config?: string;
  /** Compute next runs from this time instead of now. */
  now?: Date;
}

export interface ListedJob {
  name: string;
  adapter: string;
  schedule: string;
  last?: JobResult;
  /** ISO-8601 UTC. */
  next: string;
}

export interface ListJobsResult {
  config: string;
  jobs: ListedJob[];
}

/** `svc orchestrator list`: the jobs of the config, each with its last result and its next run time. */
@injectable()
export class ListJobs {
  constructor(
    @inject(ORCHESTRATOR_CONFIG_SOURCE) private readonly configs: OrchestratorConfigSource,
    @inject(JOB_HISTORY) private readonly history: JobHistory,
    @inject(CRON_SCHEDULE) private readonly cron: CronSchedule,
    @inject(TIMER) private readonly timer: Timer,
  ) {}

  async execute({ config, now }: ListJobsInput): Promise<ListJobsResult> {
    const loaded = await this.configs.load(config);
    const at = now ?? this.timer.now();
    const jobs = await Promise.all(
      loaded.jobs.map(async (job): Promise<ListedJob> => {
        const last = await this.history.last(job.name);
        return {
          name: job.name,
          adapter: job.adapter,
          schedule: job.schedule,
          ...(last ? { last } : {}),
          next: this.cron.next(job.schedule, at).toISOString(),
        };
      }),
    );
    return { config: loaded.file, jobs };
  }
}
