import type { InjectionToken } from 'tsyringe';

/** A request to run a job, as it travels through the queue. */
export interface QueuedJob {
  job: string;
  /** The config file the job was dispatched from. */
  config: string;
}

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
  /** Handles requests one at a time until options say stop; returns how many were handled. */
  work(handle: (request: QueuedJob) => Promise<void>, options: WorkOptions): Promise<number>;
  close(): Promise<void>;
}

export const JOB_QUEUE: InjectionToken<JobQueue> = Symbol('JobQueue');
