/* eslint-disable @typescript-eslint/no-require-imports -- pg-boss loads only when a command uses the queue */
import type PgBoss from 'pg-boss';
import { UnavailableError } from '../../domain/errors';
import type { QueuedJob } from '../../domain/orchestrator/queued-job';
import type { JobQueue, WorkOptions } from '../../ports/job-queue';

/** The queue of `svc orchestrator dispatch` requests. */
export const DISPATCH_QUEUE = 'svc-dispatch';
/** How long a worker may take over one job before pg-boss hands it to another (4 h). */
const EXPIRE_SECONDS = 4 * 3600;
const POLL_MS = 500;

export interface PgBossJobQueueOptions {
  url: string;
  /** Where the queue lives, for messages (password redacted). */
  location: string;
  pollMs?: number;
}

/**
 * The shared dispatch queue on the run store's PostgreSQL database (pg-boss, schema pgboss). The queue's policy is
 * `stately`, keyed by job name: at most one request per job waits and one runs, whichever worker takes it. A job is
 * not retried: its failure is its last result, and the next dispatch tries again.
 */
export class PgBossJobQueue implements JobQueue {
  readonly shared = true;
  readonly location: string;
  private boss: Promise<PgBoss> | undefined;

  constructor(private readonly options: PgBossJobQueueOptions) {
    this.location = `${options.location} (pg-boss queue ${DISPATCH_QUEUE})`;
  }

  async enqueue(request: QueuedJob): Promise<boolean> {
    const boss = await this.start();
    const id = await this.guard(() => boss.send(DISPATCH_QUEUE, { ...request }, { singletonKey: request.job }));
    return id !== null;
  }

  async work(handle: (row: unknown) => Promise<void>, { maxJobs, signal }: WorkOptions): Promise<number> {
    const boss = await this.start();
    let handled = 0;
    while (!signal.aborted && (maxJobs === undefined || handled < maxJobs)) {
      const [job] = await this.guard(() => boss.fetch<unknown>(DISPATCH_QUEUE, { batchSize: 1 }));
      if (!job) {
        await pause(this.options.pollMs ?? POLL_MS, signal);
        continue;
      }
      let refusal: string | undefined;
      try {
        await handle(job.data);
      } catch (error) {
        refusal = error instanceof Error ? error.message : String(error);
      } finally {
        await this.guard(() => (refusal === undefined ? boss.complete(DISPATCH_QUEUE, job.id) : boss.fail(DISPATCH_QUEUE, job.id, { message: refusal })));
      }
      handled += 1;
    }
    return handled;
  }

  async close(): Promise<void> {
    const boss = this.boss;
    this.boss = undefined;
    if (boss) await (await boss.catch(() => undefined))?.stop({ graceful: false, wait: true, timeout: 1000 });
  }

  private start(): Promise<PgBoss> {
    this.boss ??= (async () => {
      const Boss = require('pg-boss') as typeof PgBoss;
      const boss = new Boss({ connectionString: this.options.url, supervise: false, schedule: false, max: 2 });
      boss.on('error', () => undefined); // background errors; the next call reports an outage
      await this.guard(() => boss.start());
      if (!(await this.guard(() => boss.getQueue(DISPATCH_QUEUE)))) {
        // Two processes may create it at once: the loser's error is harmless when the queue now exists.
        await boss
          .createQueue(DISPATCH_QUEUE, { name: DISPATCH_QUEUE, policy: 'stately', retryLimit: 0, expireInSeconds: EXPIRE_SECONDS })
          .catch(async (error: unknown) => {
            if (!(await boss.getQueue(DISPATCH_QUEUE))) throw error;
          });
      }
      return boss;
    })();
    return this.boss;
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new UnavailableError('job-queue-unavailable', `${this.location}: ${(error as Error).message}; check SVC_STORE and that the database is up`, {
        cause: error,
      });
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
