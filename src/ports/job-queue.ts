import type { InjectionToken } from 'tsyringe';
import type { QueuedJob } from '../domain/orchestrator/queued-job';

export interface WorkOptions {
  /** Stop after this many jobs were handled. */
  maxJobs?: number;
  /** Stop when this aborts (SIGINT, SIGTERM, --until). */
  signal: AbortSignal;
}

/**
 * A queue shared by several workers (pg-boss on the PostgreSQL run store); `shared` is false without one, and
 * jobs then run in the dispatching process. At most one request per job waits and one runs at a time. Methods
 * throw UnavailableError when the database cannot be reached.
 */
export interface JobQueue {
  readonly shared: boolean;
  /** Where the queue lives, for messages (password redacted). */
  readonly location: string;
  /** False when a request for the same job is already waiting. */
  enqueue(request: QueuedJob): Promise<boolean>;
  /**
   * Hands the rows one at a time to `handle`, as stored (any JSON: the handler checks them), until options say
   * stop; returns how many were handled. A row the handler throws for is marked failed with the error's message.
   */
  work(handle: (row: unknown) => Promise<void>, options: WorkOptions): Promise<number>;
  close(): Promise<void>;
}

export const JOB_QUEUE: InjectionToken<JobQueue> = Symbol('JobQueue');
