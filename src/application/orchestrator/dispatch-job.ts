import { inject, injectable } from 'tsyringe';
import { findJob } from '../../domain/orchestrator/job';
import { configDigest } from '../../domain/orchestrator/queued-job';
import { HASHING, type Hashing } from '../../ports/hashing';
import { JOB_QUEUE, type JobQueue } from '../../ports/job-queue';
import { ORCHESTRATOR_CONFIG_SOURCE, type OrchestratorConfigSource } from '../../ports/orchestrator-config-source';
import { RunJob, type RunJobResult } from './run-job';

export interface DispatchJobInput {
  job: string;
  config?: string;
}

export type DispatchJobResult =
  ({ mode: 'ran' } & RunJobResult) | { mode: 'queued'; job: string; queue: string; /** False: a request for this job was already waiting. */ queued: boolean };

/**
 * `svc orchestrator dispatch <job>`: with a shared queue (SVC_STORE=postgres://…) the request goes to it and a worker
 * (`svc orchestrator schedule --worker`) runs it; otherwise the job runs here (RunJob).
 */
@injectable()
export class DispatchJob {
  constructor(
    @inject(ORCHESTRATOR_CONFIG_SOURCE) private readonly configs: OrchestratorConfigSource,
    @inject(JOB_QUEUE) private readonly queue: JobQueue,
    @inject(HASHING) private readonly hashing: Hashing,
    private readonly runJob: RunJob,
  ) {}

  async execute({ job, config }: DispatchJobInput): Promise<DispatchJobResult> {
    if (!this.queue.shared) return { mode: 'ran', ...(await this.runJob.execute({ job, config })) };
    const loaded = await this.configs.load(config);
    const { name } = findJob(loaded, job);
    try {
      return {
        mode: 'queued',
        job: name,
        queue: this.queue.location,
        queued: await this.queue.enqueue({ job: name, config: loaded.file, digest: configDigest(loaded, this.hashing) }),
      };
    } finally {
      await this.queue.close();
    }
  }
}
