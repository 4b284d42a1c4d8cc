import type { InjectionToken } from 'tsyringe';

/** Releases a lock taken by JobLock.acquire. */
export type ReleaseLock = () => Promise<void>;

/**
 * One run per job at a time, across processes. acquire() does not wait: a lock held by a live process throws
 * ConflictError `job-running` naming the holder; a lock left by a process that died is taken over.
 */
export interface JobLock {
  acquire(job: string): Promise<ReleaseLock>;
}

export const JOB_LOCK: InjectionToken<JobLock> = Symbol('JobLock');
