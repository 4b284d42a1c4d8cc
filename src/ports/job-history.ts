import type { InjectionToken } from 'tsyringe';
import type { JobResult } from '../domain/orchestrator/job-result';

/** Where a job's run keeps its intermediate files. */
export interface JobWorkspace {
  /** The normalized report the adapter stage writes. */
  report: string;
  /** stdout and stderr of the job's command. */
  log: string;
}

/**
 * The orchestrator's state under the svc home: each job's last result and its work files. record() replaces the
 * last result atomically; last() is undefined before the first run and throws InvalidInputError for a damaged file.
 */
export interface JobHistory {
  last(job: string): Promise<JobResult | undefined>;
  record(job: string, result: JobResult): Promise<void>;
  /** Creates the job's work directory and names its files. */
  workspace(job: string): Promise<JobWorkspace>;
}

export const JOB_HISTORY: InjectionToken<JobHistory> = Symbol('JobHistory');
