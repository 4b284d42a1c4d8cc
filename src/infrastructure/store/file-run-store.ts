import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { RunSummary, StoredRun } from '../../domain/conmon/run-record';
import { InvalidInputError, UnavailableError } from '../../domain/errors';
import type { AppendDecision, AppendOutcome, RunRange, RunStore } from '../../ports/run-store';
import { translateFsError } from '../fs/fs-errors';
import { createExclusive, isStale, lockOwner, thisProcess, type LockOwner } from '../fs/lock-owner';
import { canonicalJson, checkDecided, parseRunKey, sha256Hex, tampered, verifiedRecord } from './run-id';
import { instantsOf, isWithin } from './run-range';
import { syncDir } from '../fs/sync-dir';

export const RUN_INDEX_SCHEMA = 'svc.run-index/v1';

export interface FileRunStoreOptions {
  dir: string;
  /** How long append waits for another process's lock before giving up (ms). */
  lockTimeoutMs?: number;
  now?: () => Date;
}

interface RunIndex {
  schema: typeof RUN_INDEX_SCHEMA;
  runs: RunSummary[];
}

const FIRST_RETRY_MS = 10;
const LAST_RETRY_MS = 200;
/** A breaker file this old was left by a process that died inside the few microseconds it is held. */
const STALE_BREAKER_MS = 5000;

/**
 * The embedded run store: one directory, no server. Runs and their states are immutable files named by id;
 * index.json lists the summaries and is replaced last, so it is the commit point of an append: a crash before
 * its rename leaves files no index names, which reads ignore and the next append overwrites. Every file is
 * written under a temporary name, fsynced and renamed, then the directory fsynced, so a reader sees the old
 * file or the new one. Appends of all processes are serialized by store.lock, created exclusively.
 */
export class FileRunStore implements RunStore {
  readonly location: string;
  private readonly lockTimeoutMs: number;
  private readonly now: () => Date;

  constructor(options: FileRunStoreOptions) {
    this.location = options.dir;
    this.lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
    this.now = options.now ?? (() => new Date());
  }

  async append(id: string, decide: AppendDecision): Promise<AppendOutcome> {
    await this.makeDirs();
    const release = await this.lock();
    try {
      const index = await this.readIndex();
      const known = index.runs.find((summary) => summary.id === id);
      if (known) return { recorded: false, run: await this.read(known) };
      const last = index.runs.at(-1);
      const seq = last ? last.seq + 1 : 1;
      const run = decide(last && (await this.read(last)), seq);
      checkDecided(run, id, seq);
      await this.writeRecord(id, canonicalJson(run.record));
      await this.writeAtomic(this.statePath(seq, id), canonicalJson({ summary: run.summary, poam: run.poam, events: run.events }));
      await this.writeAtomic(this.indexPath, canonicalJson({ schema: RUN_INDEX_SCHEMA, runs: [...index.runs, run.summary] }));
      return { recorded: true, run };
    } finally {
      await release();
    }
  }

  async list(range?: RunRange): Promise<RunSummary[]> {
    const instants = instantsOf(range);
    return (await this.readIndex()).runs.filter((summary) => isWithin(summary.as_of, instants));
  }

  async get(key: string | number): Promise<StoredRun | undefined> {
    const wanted = parseRunKey(key);
    if (!wanted) return undefined;
    const { runs } = await this.readIndex();
    const summary = 'id' in wanted ? runs.find((s) => s.id === wanted.id) : runs.find((s) => s.seq === wanted.seq);
    return summary && this.read(summary);
  }

  async latest(): Promise<StoredRun | undefined> {
    const last = (await this.readIndex()).runs.at(-1);
    return last && this.read(last);
  }

  async close(): Promise<void> {}

  private get indexPath(): string {
    return join(this.location, 'index.json');
  }

  private get lockPath(): string {
    return join(this.location, 'store.lock');
  }

  private runPath(id: string): string {
    return join(this.location, 'runs', `${id}.json`);
  }

  private statePath(seq: number, id: string): string {
    return join(this.location, 'states', `${String(seq).padStart(8, '0')}-${id}.json`);
  }

  private async makeDirs(): Promise<void> {
    for (const dir of [this.location, join(this.location, 'runs'), join(this.location, 'states')]) {
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
      } catch (error) {
        throw translateFsError(error, dir, 'run store directory');
      }
    }
  }

  /** The index, or an empty one before the first append; a damaged index is the user's to restore, not ours to guess. */
  private async readIndex(): Promise<RunIndex> {
    const text = await this.readText(this.indexPath);
    if (text === undefined) return { schema: RUN_INDEX_SCHEMA, runs: [] };
    const index = parseJson(text, this.indexPath);
    const valid =
      isObject(index) &&
      index.schema === RUN_INDEX_SCHEMA &&
      Array.isArray(index.runs) &&
      index.runs.every((s: unknown, i: number) => isObject(s) && s.seq === i + 1 && typeof s.id === 'string' && typeof s.as_of === 'string');
    if (!valid) throw corrupt(this.indexPath, `not a ${RUN_INDEX_SCHEMA} index with runs numbered 1, 2, …`);
    return index as unknown as RunIndex;
  }

  private async read(summary: RunSummary): Promise<StoredRun> {
    const { id, seq } = summary;
    const runPath = this.runPath(id);
    const bytes = await this.readBytes(runPath);
    if (bytes === undefined) throw tampered(runPath, id, 'is listed in index.json but its file is missing');
    const record = verifiedRecord(bytes, id, runPath);
    const statePath = this.statePath(seq, id);
    const text = await this.readText(statePath);
    if (text === undefined) throw tampered(statePath, id, 'is listed in index.json but its state file is missing');
    const state = parseJson(text, statePath);
    if (!isObject(state) || !isObject(state.summary) || state.summary.id !== id || !Array.isArray(state.poam) || !Array.isArray(state.events)) {
      throw corrupt(statePath, `not the state of run ${id}`);
    }
    const { summary: stored, poam, events } = state as unknown as Omit<StoredRun, 'record'>;
    return { summary: stored, record, poam, events };
  }

  /** A crash between writing a run file and the index may have left it; it is reused when its bytes are right. */
  private async writeRecord(id: string, text: string): Promise<void> {
    const path = this.runPath(id);
    const existing = await this.readBytes(path);
    if (existing !== undefined && sha256Hex(existing) === id) return;
    await this.writeAtomic(path, text);
  }

  private async writeAtomic(path: string, text: string): Promise<void> {
    const dir = dirname(path);
    const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
      await syncDir(dir);
    } catch (error) {
      await rm(temp, { force: true });
      throw translateFsError(error, path, 'run store file');
    }
  }

  /**
   * Takes store.lock, waiting with back-off while another live process holds it. A lock left by a process that
   * no longer runs on this host is stale and taken over; one from another host can only be judged by a person.
   */
  private async lock(): Promise<() => Promise<void>> {
    const deadline = Date.now() + this.lockTimeoutMs;
    for (let wait = FIRST_RETRY_MS; ; wait = Math.min(wait * 2, LAST_RETRY_MS)) {
      const owner: LockOwner = thisProcess(this.now());
      if (await createExclusive(this.lockPath, JSON.stringify(owner), 'run store lock')) {
        return () => remove(this.lockPath);
      }
      const seen = await this.readText(this.lockPath);
      if (seen === undefined) continue;
      const holder = lockOwner(seen);
      if (holder && isStale(holder) && (await this.breakLock(seen))) continue;
      const left = deadline - Date.now();
      if (left <= 0) {
        const by = holder ? `by process ${holder.pid} on ${holder.host} since ${holder.since}` : 'by a process that did not say who it is';
        throw new UnavailableError(
          'run-store-locked',
          `${this.lockPath}: the run store is locked ${by}; wait for it to finish, or remove the lock file if that process is gone`,
        );
      }
      await sleep(Math.min(wait, left));
    }
  }

  /**
   * Removes a stale lock unless another process took it over meanwhile. Reading and removing are two steps, so
   * they run under a breaker file: otherwise two processes finding the same stale lock could remove each other's.
   */
  private async breakLock(seen: string): Promise<boolean> {
    const breaker = `${this.lockPath}.break`;
    if (!(await createExclusive(breaker, String(process.pid), 'run store lock'))) {
      if (await this.olderThan(breaker, STALE_BREAKER_MS)) await remove(breaker);
      return false;
    }
    try {
      if ((await this.readText(this.lockPath)) !== seen) return false;
      await remove(this.lockPath);
      return true;
    } finally {
      await remove(breaker);
    }
  }


  private async olderThan(path: string, ms: number): Promise<boolean> {
    try {
      const handle = await open(path, 'r');
      try {
        return Date.now() - (await handle.stat()).mtimeMs > ms;
      } finally {
        await handle.close();
      }
    } catch {
      return false;
    }
  }

  private async readText(path: string): Promise<string | undefined> {
    const bytes = await this.readBytes(path);
    return bytes?.toString('utf8');
  }

  private async readBytes(path: string): Promise<Buffer | undefined> {
    try {
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw translateFsError(error, path, 'run store file');
    }
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw corrupt(path, `not valid JSON (${(error as Error).message})`);
  }
}

function corrupt(path: string, problem: string): InvalidInputError {
  return new InvalidInputError('run-store-corrupt', `${path}: ${problem}; the file was damaged outside svc, restore it from backup`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function remove(path: string): Promise<void> {
  try {
    await rm(path, { force: true });
  } catch (error) {
    throw translateFsError(error, path, 'run store lock');
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
