import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ConflictError } from '../../domain/errors';
import type { JobLock, ReleaseLock } from '../../ports/job-lock';
import { translateFsError } from '../shared/fs-errors';
import { createExclusive, isStale, lockOwner, thisProcess, type LockOwner } from '../shared/lock-owner';

/**
 * One lock file per job, `<svc home>/locks/<job>.lock`, created exclusively and holding its owner (pid, host,
 * since). A lock whose owner no longer runs on this host is stale and taken over; one from another host is left to a
 * person. The run store's lock waits; this one refuses at once, since a second run of the same job has nothing to add.
 */
export class FileJobLock implements JobLock {
  constructor(private readonly options: { dir: string; now?: () => Date }) {}

  async acquire(job: string): Promise<ReleaseLock> {
    const path = join(this.options.dir, `${job}.lock`);
    try {
      await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw translateFsError(error, this.options.dir, 'lock directory');
    }
    for (let attempt = 0; ; attempt += 1) {
      const owner: LockOwner = thisProcess(this.options.now?.() ?? new Date());
      if (await createExclusive(path, JSON.stringify(owner), 'job lock')) return () => rm(path, { force: true });
      const seen = await readText(path);
      const holder = seen === undefined ? undefined : lockOwner(seen);
      // Taking over a stale lock races with other processes doing the same: only one of them creates the file again.
      if (attempt === 0 && (seen === undefined || (holder && isStale(holder)))) {
        if (seen !== undefined) await rm(path, { force: true });
        continue;
      }
      const by = holder ? `pid ${holder.pid} on ${holder.host} since ${holder.since}` : `lock file ${path}`;
      throw new ConflictError('job-running', `job ${job} is already running (${by}); wait for it to finish, or remove ${path} if that process is gone`);
    }
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
