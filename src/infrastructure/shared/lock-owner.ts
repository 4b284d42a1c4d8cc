import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
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

/** The owner a lock file names; undefined when damaged (or written by a version that could leave it empty): not provably stale. */
export function lockOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner> | null;
    if (owner && Number.isSafeInteger(owner.pid) && typeof owner.host === 'string' && typeof owner.since === 'string') return owner as LockOwner;
  } catch {
    // see above
  }
  return undefined;
}

/** Held by a process that no longer exists on this host. */
export function isStale(owner: LockOwner): boolean {
  return owner.host === hostname() && isGone(owner.pid);
}

/**
 * Creates the lock file `path` holding `text` unless it exists; false when it does. `what` names it in errors.
 * The text is written to a temporary file first and hard-linked to `path`, which fails when `path` exists: so a
 * lock file is never seen empty, even when its creator is killed while making it. A file system without hard
 * links gets the file created exclusively and then written.
 */
export async function createExclusive(path: string, text: string, what: string): Promise<boolean> {
  const temp = join(dirname(path), `.${basename(path)}.${tempTag()}`);
  try {
    await writeNew(temp, text);
    try {
      await link(temp, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
    }
    await writeNew(path, text);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw translateFsError(error, path, what);
  } finally {
    await rm(temp, { force: true });
  }
}

export interface LockRequest {
  path: string;
  /** Names the lock file in I/O errors: `run store lock`. */
  what: string;
  /** How long to wait for a live holder before giving up (ms). */
  timeoutMs: number;
  now: () => Date;
  /** The error once the wait is over: the holder named, or undefined when the file does not say. */
  held: (holder: LockOwner | undefined) => Error;
  /** A lease not renewed for this long is expired and taken over, from any host (ms); default DEFAULT_LEASE_MS. */
  leaseMs?: number;
  /** Called once for each holder this process waits for, from TELL_AFTER_MS on: a progress line for a person. */
  waiting?: (holder: LockOwner | undefined) => void;
}

/** A lock this process holds, its heartbeat running until release. */
export interface Lease {
  /** Whether the lock file still names this lease: false once another process took it over after it expired. */
  isHeld(): Promise<boolean>;
  release(): Promise<void>;
}

/** What a lease file holds beyond its owner: the last heartbeat, the expiry it promises, and a token naming the lease. */
interface LeaseText extends LockOwner {
  heartbeat: string;
  lease_ms: number;
  token: string;
}

export const DEFAULT_LEASE_MS = 30_000;
/** Renewals per expiry: a heartbeat can be late by five sixths of the expiry before the lease is lost. */
const RENEWALS_PER_LEASE = 6;
const FIRST_RETRY_MS = 10;
const LAST_RETRY_MS = 200;
/** A breaker file this old was left by a process that died inside the few microseconds it is held. */
const STALE_BREAKER_MS = 5000;
/** A wait shorter than this (another append of a small report) is not worth a line. */
export const TELL_AFTER_MS = 1000;
/** How long a writer waits for a store's lock by default: several appends of large reports. */
export const DEFAULT_LOCK_WAIT_MS = 300_000;

/**
 * Takes the lock file, waiting with back-off while another process holds it, and returns its release. See
 * acquireLease, which this is without the lease's isHeld().
 */
export async function acquireLock(request: LockRequest): Promise<() => Promise<void>> {
  const lease = await acquireLease(request);
  return () => lease.release();
}

/**
 * Takes the lock file as a lease, waiting with back-off while another process holds it. The holder rewrites its
 * heartbeat every sixth of the expiry until release. A lease is taken over when its process no longer runs on this
 * host, or when it is expired: its heartbeat is older than its expiry by this host's clock, or the file has not
 * changed for an expiry while this process watched it (a lock of 0.5.0, without a heartbeat, or a clock that is
 * ahead). So a holder killed on another host (a Kubernetes pod) blocks the lock for one expiry, not for good.
 */
export async function acquireLease(request: LockRequest): Promise<Lease> {
  const { path, what } = request;
  const leaseMs = request.leaseMs ?? DEFAULT_LEASE_MS;
  const started = Date.now();
  const deadline = started + request.timeoutMs;
  const token = randomBytes(16).toString('hex');
  const owner = thisProcess(request.now());
  let watched: { text: string; since: number } | undefined;
  const told = new Set<string>();
  for (let wait = FIRST_RETRY_MS; ; wait = Math.min(wait * 2, LAST_RETRY_MS)) {
    if (await createExclusive(path, leaseText(owner, leaseMs, token), what)) {
      // A breaker outlives its lock only when its process died between removing the two: nobody else clears it.
      if (await olderThan(`${path}.break`, STALE_BREAKER_MS)) await remove(`${path}.break`, what);
      return holdLease(path, what, owner, leaseMs, token);
    }
    const seen = await readText(path, what);
    if (seen === undefined) continue;
    if (watched?.text !== seen) watched = { text: seen, since: Date.now() };
    const holder = lockOwner(seen);
    const expired = (holder && isStale(holder)) || isExpired(seen, leaseMs, Date.now() - watched.since, holder);
    if (expired && (await breakLock(path, seen, what))) continue;
    const left = deadline - Date.now();
    if (left <= 0) throw request.held(holder);
    const who = holder ? `${holder.pid}@${holder.host}@${holder.since}` : '';
    if (request.waiting && Date.now() - started >= TELL_AFTER_MS && !told.has(who)) {
      told.add(who);
      request.waiting(holder);
    }
    await sleep(Math.min(wait, left));
  }
}

function leaseText(owner: LockOwner, leaseMs: number, token: string): string {
  const lease: LeaseText = { ...owner, heartbeat: new Date().toISOString(), lease_ms: leaseMs, token };
  return JSON.stringify(lease);
}

/**
 * Whether the lock file `text`, unchanged for `unchangedMs` while this process watched it, is an expired lease: its
 * heartbeat is older than the expiry it names (or, naming none, than `leaseMs`), or it has not changed for that
 * expiry. A lock without a heartbeat of a process on this host is left to isStale: its pid says whether it runs.
 */
function isExpired(text: string, leaseMs: number, unchangedMs: number, holder: LockOwner | undefined): boolean {
  let lease: Partial<LeaseText> | null = null;
  try {
    lease = JSON.parse(text) as Partial<LeaseText> | null;
  } catch {
    // A damaged lock file: only its staying unchanged can show it is abandoned.
  }
  const heartbeat = typeof lease?.heartbeat === 'string' ? Date.parse(lease.heartbeat) : Number.NaN;
  const expiry = typeof lease?.lease_ms === 'number' && lease.lease_ms > 0 ? lease.lease_ms : leaseMs;
  if (!Number.isNaN(heartbeat) && Date.now() - heartbeat > expiry) return true;
  if (Number.isNaN(heartbeat) && holder?.host === hostname()) return false;
  return unchangedMs >= expiry;
}

/**
 * Renews the lease until release: the new text goes under a temporary name and is renamed over the lock, so a reader
 * always sees a whole lease. A renewal that finds another lease in the file stops: this one was taken over.
 */
function holdLease(path: string, what: string, owner: LockOwner, leaseMs: number, token: string): Lease {
  const isHeld = async () => {
    const text = await readText(path, what).catch(() => undefined);
    return text !== undefined && text.includes(`"token":"${token}"`);
  };
  let renewing: Promise<void> = Promise.resolve();
  let stopped = false;
  const renew = async () => {
    if (stopped || !(await isHeld())) return stop();
    const temp = join(dirname(path), `.${basename(path)}.${tempTag()}`);
    try {
      await writeNew(temp, leaseText(owner, leaseMs, token));
      if (!stopped) await rename(temp, path);
    } catch {
      // A renewal that failed (a full disk) is tried again at the next beat; the lease lasts until it expires.
    } finally {
      await rm(temp, { force: true }).catch(() => undefined);
    }
  };
  const timer = setInterval(
    () => {
      renewing = renewing.then(renew);
    },
    Math.max(10, Math.floor(leaseMs / RENEWALS_PER_LEASE)),
  );
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return {
    isHeld: async () => {
      await renewing;
      return isHeld();
    },
    release: async () => {
      stop();
      await renewing;
      if (await isHeld()) await remove(path, what);
    },
  };
}

/**
 * Removes a stale lock unless another process took it over meanwhile. Reading and removing are two steps, so
 * they run under a breaker file: otherwise two processes finding the same stale lock could remove each other's.
 */
async function breakLock(path: string, seen: string, what: string): Promise<boolean> {
  const breaker = `${path}.break`;
  if (!(await createExclusive(breaker, String(process.pid), what))) {
    if (await olderThan(breaker, STALE_BREAKER_MS)) await remove(breaker, what);
    return false;
  }
  try {
    if ((await readText(path, what)) !== seen) return false;
    await remove(path, what);
    return true;
  } finally {
    await remove(breaker, what);
  }
}

/**
 * The tag of a temporary name: `svc-tmp-<host>-<pid>-<start>-<random>`, so whoever finds the file can tell whether
 * the process that made it still runs. <host> is the first 8 hex digits of the SHA-256 of the host name; <start> is
 * when the process started (Linux: clock ticks since boot; 0 where unknown), which tells a reused pid apart.
 */
export function tempTag(): string {
  return `svc-tmp-${HOST_TAG}-${process.pid}-${startOf(process.pid) ?? '0'}-${randomBytes(4).toString('hex')}`;
}

const TEMP_TAG = /\.svc-tmp-([0-9a-f]{8})-(\d{1,10})-(\d{1,20})-[0-9a-f]{8}$/;

/**
 * Whether `name` ends with a tempTag() of a process that is provably gone: made on this host by a pid that no
 * longer runs, or that now belongs to a process started at another time. A name without a tag, from another
 * host, or of a process that still runs, is not stale.
 */
export function isStaleTemp(name: string): boolean {
  const tag = TEMP_TAG.exec(name);
  if (!tag || tag[1] !== HOST_TAG) return false;
  const pid = Number(tag[2]);
  if (isGone(pid)) return true;
  const started = startOf(pid);
  return tag[3] !== '0' && started !== undefined && started !== tag[3];
}

const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/** Signal 0 tests existence; EPERM means the process exists under another user. */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** When process `pid` started, as Linux's /proc/<pid>/stat gives it (field 22); undefined elsewhere or when hidden. */
function startOf(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count the fields after it.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return /^\d{1,20}$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

async function writeNew(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}

async function readText(path: string, what: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw translateFsError(error, path, what);
  }
}

async function olderThan(path: string, ms: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(path)).mtimeMs > ms;
  } catch {
    return false;
  }
}

async function remove(path: string, what: string): Promise<void> {
  try {
    await rm(path, { force: true });
  } catch (error) {
    throw translateFsError(error, path, what);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
