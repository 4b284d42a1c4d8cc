import { inject, injectable } from 'tsyringe';
import { ConfigError } from '../../domain/errors';
import { JOB_QUEUE, type JobQueue } from '../../ports/job-queue';
import { RunJob } from './run-job';
import type { JobOutcome } from './run-schedule';

export interface WorkQueueInput {
  maxRuns?: number;
  signal: AbortSignal;
  onRun?: (run: JobOutcome) => void;
}

export interface WorkQueueResult {
  queue: string;
  handled: number;
}

/**
 * `svc orchestrator schedule --worker`: takes dispatched jobs off the shared queue and runs them (RunJob), one at a
 * time, until stopped. A failed job is reported (and recorded as its last result); the worker goes on.
 */
@injectable()
export class WorkQueue {
  constructor(
    @inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly runJob: RunJob,
  ) {}

  async execute({ maxRuns, signal, onRun }: WorkQueueInput): Promise<WorkQueueResult> {
    if (!this.queue.shared) {
      throw new ConfigError('no-job-queue', 'schedule --worker takes jobs from the shared queue, which needs SVC_STORE=postgres://...; without it, run schedule without --worker');
    }
    try {
      const handled = await this.queue.work(
        async ({ job, config }) => {
          try {
            onRun?.({ job, ok: true, result: await this.runJob.execute({ job, config }) });
          } catch (error) {
            onRun?.({ job, ok: false, error: error instanceof Error ? error.message : String(error) });
          }
        },
        { maxJobs: maxRuns, signal },
      );
      return { queue: this.queue.location, handled };
    } finally {
      await this.queue.close();
    }
  }
}
