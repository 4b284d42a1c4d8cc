import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { RunSummary, StoredRun } from '../../domain/conmon/run-record';
import { InvalidInputError, UnavailableError } from '../../domain/errors';
import type { AppendDecision, AppendOutcome, RunRange, RunStore } from '../../ports/run-store';
import { translateFsError } from '../fs/fs-errors';
import { acquireLock, isStaleTemp, tempTag } from '../fs/lock-owner';
import { canonicalJson, checkDecided, parseRunKey, sha256Hex, tampered, verifiedRecord } from './run-id';
import { instantsOf, isWithin } from './run-range';
import { syncDir } from '../fs/sync-dir';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';

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

/** A state file as writeAtomic names it: `<seq:8 digits>-<id>.json`. */
const STATE_FILE = /^\d{8}-[0-9a-f]{64}\.json$/;

/**
 * The embedded run store: one directory, no server. Runs and their states are immutable files named by id;
 * index.json lists the summaries and is replaced last, so it is the commit point of an append: a crash before
 * its rename leaves files no index names, which reads ignore and the next append sweeps away (see sweep). Every
 * file is written under a temporary name that names its process, fsynced and renamed, then the directory fsynced,
 * so a reader sees the old file or the new one. Appends of all processes are serialized by store.lock.
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
      await this.sweep(index);
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
    const temp = join(dir, `.${basename(path)}.${tempTag()}`);
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
   * Takes store.lock, waiting while another live process holds it; a lock left by a process that no longer runs
   * on this host is taken over (lock-owner.ts).
   */
  private lock(): Promise<() => Promise<void>> {
    return acquireLock({
      path: this.lockPath,
      what: 'run store lock',
      timeoutMs: this.lockTimeoutMs,
      now: this.now,
      held: (holder) => {
        const by = holder ? `by process ${holder.pid} on ${holder.host} since ${holder.since}` : 'by a process that did not say who it is';
        return new UnavailableError(
          'run-store-locked',
          `${this.lockPath}: the run store is locked ${by}; wait for it to finish, or remove the lock file if that process is gone`,
        );
      },
    });
  }

  /**
   * Removes what appends cut short by a crash left, under the lock (no other process writes the store now): temporary
   * files of processes that are gone, and state files index.json does not name. A run file index.json does not name is
   * kept: its name is its hash, so it is whole, and an append of the same run reuses it.
   */
  private async sweep(index: RunIndex): Promise<void> {
    const states = join(this.location, 'states');
    const named = new Set(index.runs.map((s) => basename(this.statePath(s.seq, s.id))));
    for (const dir of [this.location, join(this.location, 'runs'), states]) {
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const leftover = isStaleTemp(name) || (dir === states && STATE_FILE.test(name) && !named.has(name));
        // Best effort: one that cannot be removed now is still ignored by reads, and tried again by the next append.
        if (leftover) await rm(join(dir, name), { force: true }).catch(() => undefined);
      }
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
    throw corrupt(path, `not valid JSON (${jsonSyntaxProblem((error as Error).message)})`);
  }
}

function corrupt(path: string, problem: string): InvalidInputError {
  return new InvalidInputError('run-store-corrupt', `${path}: ${problem}; the file was damaged outside svc, restore it from backup`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
