import { open } from 'node:fs/promises';
import { hostname } from 'node:os';
import { translateFsError } from './fs-errors';

/** What a lock file holds: who took it, where, and when. */
export interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

/** The owner this process writes into a lock file it creates. */
export function thisProcess(now: Date): LockOwner {
  return { pid: process.pid, host: hostname(), since: now.toISOString() };
}

/** The owner a lock file names; undefined while its creator is still writing it, or when damaged: not provably stale. */
export function lockOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner> | null;
    if (owner && Number.isSafeInteger(owner.pid) && typeof owner.host === 'string' && typeof owner.since === 'string') return owner as LockOwner;
  } catch {
    // see above
  }
  return undefined;
}

/** Held by a process that no longer exists on this host (signal 0 tests existence; EPERM means it exists). */
export function isStale(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Creates the lock file `path` holding `text` unless it exists; false when it does. `what` names it in errors. */
export async function createExclusive(path: string, text: string, what: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw translateFsError(error, path, what);
  }
}
