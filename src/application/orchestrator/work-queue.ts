import { inject, injectable } from 'tsyringe';
import { ConfigError, InvalidInputError } from '../../domain/errors';
import { checkQueuedJob, configDigest } from '../../domain/orchestrator/queued-job';
import { HASHING, type Hashing } from '../../ports/hashing';
import { JOB_QUEUE, type JobQueue } from '../../ports/job-queue';
import { ORCHESTRATOR_CONFIG_SOURCE, type OrchestratorConfigSource } from '../../ports/orchestrator-config-source';
import { RunJob } from './run-job';
import type { JobOutcome } from './run-schedule';

export interface WorkQueueInput {
  /** svc.orchestrator.json; default: the one in the working directory. The worker runs only its jobs. */
  config?: string;
  maxRuns?: number;
  signal: AbortSignal;
  onRun?: (run: JobOutcome) => void;
}

export interface WorkQueueResult {
  queue: string;
  /** The config whose jobs this worker ran. */
  config: string;
  handled: number;
  /** Requests refused: dispatched from another config, or from this one as it was before the worker started. */
  refused: number;
}

/**
 * `svc orchestrator schedule --worker`: takes dispatched jobs off the shared queue and runs them (RunJob), one at a
 * time, until stopped. A failed job is reported (and recorded as its last result); the worker goes on. The worker
 * reads its config once, at start, and runs only jobs dispatched from that config as it was then (checkQueuedJob):
 * any other request is reported, marked failed in the queue with the reason, and not run.
 */
@injectable()
export class WorkQueue {
  constructor(
    @inject(JOB_QUEUE) private readonly queue: JobQueue,
    @inject(ORCHESTRATOR_CONFIG_SOURCE) private readonly configs: OrchestratorConfigSource,
    @inject(HASHING) private readonly hashing: Hashing,
    private readonly runJob: RunJob,
  ) {}

  async execute({ config: file, maxRuns, signal, onRun }: WorkQueueInput): Promise<WorkQueueResult> {
    try {
      if (!this.queue.shared) {
        throw new ConfigError(
          'no-job-queue',
          'schedule --worker takes jobs from the shared queue, which needs SVC_STORE=postgres://...; without it, run schedule without --worker',
        );
      }
      const config = await this.configs.load(file);
      const digest = configDigest(config, this.hashing);
      let refused = 0;
      const handled = await this.queue.work(
        async (row) => {
          const checked = checkQueuedJob(row, config, digest);
          if (!checked.ok) {
            refused += 1;
            onRun?.({ job: checked.job, ok: false, error: checked.problem });
            throw new InvalidInputError('queued-job-refused', checked.problem);
          }
          const { job } = checked.request;
          try {
            onRun?.({ job, ok: true, result: await this.runJob.execute({ job, config }) });
          } catch (error) {
            onRun?.({ job, ok: false, error: error instanceof Error ? error.message : String(error) });
          }
        },
        { maxJobs: maxRuns, signal },
      );
      return { queue: this.queue.location, config: config.file, handled, refused };
    } finally {
      await this.queue.close();
    }
  }
}
