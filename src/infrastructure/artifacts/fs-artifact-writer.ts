import { closeSync, mkdirSync, openSync, readSync, rmSync } from 'node:fs';
import { mkdir, open as openFile, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { InvalidInputError, UnavailableError } from '../../domain/errors';
import type { ArtifactSink, ArtifactTransaction, ArtifactWriter } from '../../ports/artifact-writer';
import type { Fragment } from '../../domain/artifacts/partition';
import { translateFsError } from '../shared/fs-errors';
import { acquireLock, isStaleTemp, tempTag } from '../shared/lock-owner';
import { replaceBundle } from './bundle-generations';
import { SLOT_BYTES, WriteBehind } from './write-behind';
import { syncDir } from '../shared/sync-dir';

/** A bundle member: a safe name, or safe names joined by `/` for a file in a subdirectory (`controls/ac-2.md`). */
const SAFE_MEMBER = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
/** In a staging directory: the names of its members, written once they are all complete, before any is moved. */
const COMMIT_MARKER = '.svc-commit';
/** In a bundle directory: held while members are moved in, so two commits (or a commit and a recovery) never interleave. */
const COMMIT_LOCK = '.svc-commit.lock';
const SWEEP_EVERY_MS = 60_000;
/**
 * A bundle replaces another through symbolic links (bundle-generations.ts), which Windows grants only to
 * administrators and in developer mode: there, members are moved in one by one behind a commit marker.
 */
const SYMLINKS = process.platform !== 'win32';

export interface FsArtifactWriterOptions {
  /** How long a commit waits for another process moving a bundle into the same directory (ms). */
  lockTimeoutMs?: number;
}

/**
 * Files are written under a temporary name in the target's own directory, fsynced, then renamed, so a
 * reader sees the old file or the new one and never a part. A bundle is written into a temporary
 * directory that is renamed into place when the target does not exist yet. In an existing directory it
 * replaces the bundle there under the directory's commit lock by switching one symbolic link
 * (bundle-generations.ts), so a reader sees the old bundle or the new one, whole, even after a crash at any
 * step. (On Windows, members are moved one by one after a commit marker listing them is in place: a crash
 * between two moves leaves the marker, and the next writer into that directory moves the rest; a bundle
 * 0.5.0 was moving in when it crashed is finished that way everywhere.) The bytes are hashed and written by
 * a WriteBehind worker thread while the caller goes on producing them.
 *
 * Temporary names carry their process (lock-owner.ts tempTag), so leftovers of a process that is gone are
 * swept from a directory when this writer next writes there, and a live writer's are never touched.
 */
@injectable()
export class FsArtifactWriter implements ArtifactWriter {
  private readonly lockTimeoutMs: number;
  /** When each directory was last swept: a command writing many files into one directory reads it once (a server, once a minute). */
  private readonly swept = new Map<string, number>();

  constructor(options: FsArtifactWriterOptions = {}) {
    this.lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
  }

  async begin(dir: string): Promise<ArtifactTransaction> {
    const target = resolve(dir);
    const existing = await kindOf(target, dir);
    if (existing === 'file') throw new InvalidInputError('out-dir-is-file', `${dir}: is a file, expected a directory for the bundle; pass a directory path`);
    const created = existing === 'missing' ? await makeParents(dirname(target), dir) : [];
    await this.sweep(dirname(target));
    if (existing === 'directory') await this.sweep(target);
    const staging = existing === 'directory' ? join(target, `.bundle.${tempTag()}`) : join(dirname(target), `.${basename(target)}.${tempTag()}`);
    try {
      await mkdir(staging);
    } catch (error) {
      await removeCreated(created);
      throw translateFsError(error, dir, 'output directory');
    }
    return new FsBundleTransaction(dir, target, staging, existing === 'directory', created, this.lockTimeoutMs);
  }

  /**
   * Removes what dead processes left in `dir`: temporary files and staging directories whose tag names a process
   * that is gone. A staging directory holding a commit marker is a bundle cut short while it was moved into `dir`:
   * its remaining members are moved in first. Best effort: a leftover that cannot be removed now stays for later,
   * and a commit lock held by a live process means that process is committing and will finish it.
   */
  private async sweep(dir: string): Promise<void> {
    if (Date.now() - (this.swept.get(dir) ?? -Infinity) < SWEEP_EVERY_MS) return;
    this.swept.set(dir, Date.now());
    let unfinished = false;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!isStaleTemp(name)) continue;
      if (await exists(join(dir, name, COMMIT_MARKER))) unfinished = true;
      else await rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
    }
    if (!unfinished) return;
    try {
      const release = await commitLock(dir, dir, 0);
      try {
        await finishCommits(dir);
      } finally {
        await release();
      }
    } catch {
      // see above
    }
  }

  async open(path: string): Promise<ArtifactSink> {
    const target = resolve(path);
    if ((await kindOf(target, path)) === 'directory')
      throw new InvalidInputError('out-is-directory', `${path}: is a directory, expected a file path; name the file to write`);
    const created = await makeParents(dirname(target), path);
    await this.sweep(dirname(target));
    const temp = join(dirname(target), `.${basename(target)}.${tempTag()}`);
    const ring = new WriteBehind();
    let sink: FileSink;
    try {
      sink = new FileSink(ring, temp, basename(target), path);
    } catch (error) {
      await ring.stop();
      await removeCreated(created);
      throw error;
    }
    return {
      write: (text) => sink.write(text),
      writeBytes: (bytes) => sink.writeBytes(bytes),
      append: (fragment) => sink.append(fragment),
      close: async () => {
        try {
          const written = await sink.close();
          await rename(temp, target);
          await syncDir(dirname(target));
          return written;
        } catch (error) {
          await rm(temp, { force: true });
          throw translateFsError(error, path, 'output file');
        } finally {
          await ring.stop();
        }
      },
      abort: async () => {
        await sink.abort();
        await ring.stop();
        await removeCreated(created);
      },
    };
  }
}

/**
 * One file of a WriteBehind ring. Text is encoded at once into this sink's own buffer and handed to the
 * ring a megabyte at a time: holding pieces of text until a batch is full would keep millions of small
 * strings alive across young-generation collections, which is where large runs lost their time.
 */
class FileSink implements ArtifactSink {
  private readonly buffer = Buffer.allocUnsafe(SLOT_BYTES);
  private readonly file: number;
  private used = 0;
  private state: 'open' | 'closed' | 'aborted' = 'open';

  constructor(
    private readonly ring: WriteBehind,
    private readonly path: string,
    private readonly name: string,
    private readonly shown: string,
  ) {
    this.file = this.guard(() => ring.open(path));
  }

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    if (this.used + text.length * 3 > SLOT_BYTES) {
      this.flush();
      if (text.length * 3 > SLOT_BYTES) {
        const bytes = Buffer.from(text, 'utf8');
        for (let at = 0; at < bytes.length; at += SLOT_BYTES) this.send(bytes.subarray(at, at + SLOT_BYTES));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  writeBytes(bytes: Uint8Array): void {
    this.flush();
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at < buffer.length; at += SLOT_BYTES) this.send(buffer.subarray(at, at + SLOT_BYTES));
  }

  append(fragment: Fragment): void {
    this.flush();
    this.guard(() => {
      const fd = openSync(fragment.path, 'r');
      try {
        for (let left = fragment.bytes; left > 0;) {
          this.ring.write(this.file, (slot) => {
            const read = readSync(fd, slot, 0, Math.min(slot.length, left), null);
            if (read === 0) throw Object.assign(new Error(`${fragment.path} is shorter than ${fragment.bytes} bytes`), { code: 'EIO' });
            left -= read;
            return read;
          });
        }
      } finally {
        closeSync(fd);
      }
      rmSync(fragment.path);
    });
  }

  async close(): Promise<WrittenFile> {
    this.flush();
    const { sha256, bytes } = this.guard(() => this.ring.close(this.file));
    this.state = 'closed';
    return { name: this.name, sha256, bytes };
  }

  async abort(): Promise<void> {
    if (this.state === 'open') this.ring.abort(this.file);
    if (this.state !== 'closed') await rm(this.path, { force: true });
    this.state = 'aborted';
  }

  private flush(): void {
    if (this.used === 0) return;
    this.send(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private send(bytes: Buffer): void {
    this.guard(() => this.ring.write(this.file, (slot) => bytes.copy(slot)));
  }

  private guard<T>(action: () => T): T {
    try {
      return action();
    } catch (error) {
      throw translateFsError(error, this.shown, 'output file');
    }
  }
}

class FsBundleTransaction implements ArtifactTransaction {
  private readonly ring = new WriteBehind();
  private readonly sinks: FileSink[] = [];
  private readonly names: string[] = [];
  private done = false;

  constructor(
    private readonly shown: string,
    private readonly target: string,
    private readonly staging: string,
    private readonly intoExisting: boolean,
    private readonly created: string[],
    private readonly lockTimeoutMs: number,
  ) {}

  open(name: string): ArtifactSink {
    if (!SAFE_MEMBER.test(name) || this.names.includes(name))
      throw new InvalidInputError('bad-artifact-name', `${name}: not a fresh plain file name (or dir/name) for a bundle artifact`);
    if (name.includes('/')) mkdirSync(dirname(join(this.staging, name)), { recursive: true });
    const sink = new FileSink(this.ring, join(this.staging, name), name, join(this.shown, name));
    this.names.push(name);
    this.sinks.push(sink);
    return sink;
  }

  async scratch(): Promise<string> {
    const dir = join(this.staging, '.scratch');
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async commit(): Promise<string> {
    try {
      await this.ring.stop();
      await rm(join(this.staging, '.scratch'), { recursive: true, force: true });
      if (this.intoExisting) {
        const release = await commitLock(this.target, this.shown, this.lockTimeoutMs);
        try {
          // A bundle a dead process was moving in is older than this one: it goes in first, this one over it.
          // (Best effort: one that cannot be finished stays for a later run, and this bundle replaces its files anyway.)
          await finishCommits(this.target).catch(() => undefined);
          if (SYMLINKS) {
            await replaceBundle(this.staging, this.target, this.names);
          } else {
            await writeMarker(this.staging, this.names);
            await moveMembers(this.staging, this.target, this.names);
            await rm(this.staging, { recursive: true, force: true });
            await syncDir(this.target);
          }
        } finally {
          await release();
        }
      } else {
        await syncDir(this.staging);
        await rename(this.staging, this.target);
        await syncDir(dirname(this.target));
      }
      this.done = true;
      return this.shown;
    } catch (error) {
      throw translateFsError(error, this.shown, 'output directory');
    }
  }

  async abort(): Promise<void> {
    if (this.done) return;
    for (const sink of this.sinks) await sink.abort().catch(() => undefined);
    await this.ring.stop();
    await rm(this.staging, { recursive: true, force: true });
    await removeCreated(this.created);
  }
}

/** Takes `<dir>/.svc-commit.lock`; `shown` is the directory as the user wrote it. */
function commitLock(dir: string, shown: string, timeoutMs: number): Promise<() => Promise<void>> {
  const path = join(shown, COMMIT_LOCK);
  return acquireLock({
    path: join(dir, COMMIT_LOCK),
    what: 'output directory lock',
    timeoutMs,
    now: () => new Date(),
    held: (holder) => {
      const by = holder ? `by process ${holder.pid} on ${holder.host} since ${holder.since}` : 'by a process that did not say who it is';
      return new UnavailableError(
        'out-dir-locked',
        `${path}: the output directory is locked ${by} while it moves a bundle in; wait for it to finish, or remove the lock file if that process is gone`,
      );
    },
  });
}

/** The marker goes in under a temporary name and is renamed, so a marker is always whole; then the staging directory is fsynced. */
async function writeMarker(staging: string, names: readonly string[]): Promise<void> {
  const temp = join(staging, `${COMMIT_MARKER}.tmp`);
  const handle = await openFile(temp, 'wx', 0o644);
  try {
    await handle.writeFile(`${names.join('\n')}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, join(staging, COMMIT_MARKER));
  await syncDir(staging);
}

/** Moves the members still in `staging` into `target`; one moved already (by a run that was cut short) is skipped. */
async function moveMembers(staging: string, target: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    if (name.includes('/')) await mkdir(dirname(join(target, name)), { recursive: true });
    try {
      await rename(join(staging, name), join(target, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Under the commit lock: moves in the rest of every bundle whose process died while moving it into `dir`. */
async function finishCommits(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!isStaleTemp(name)) continue;
    const staging = join(dir, name);
    const marker = await readFile(join(staging, COMMIT_MARKER), 'utf8').catch(() => undefined);
    if (marker === undefined) continue;
    const names = marker.split('\n').filter((member) => SAFE_MEMBER.test(member));
    await moveMembers(staging, dir, names);
    await rm(staging, { recursive: true, force: true });
    await syncDir(dir);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function kindOf(target: string, shown: string): Promise<'file' | 'directory' | 'missing'> {
  try {
    return (await stat(target)).isDirectory() ? 'directory' : 'file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw translateFsError(error, shown, 'output path');
  }
}

/** mkdir -p that reports which directories it made, so an abort can take them away again. */
async function makeParents(dir: string, shown: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = dir; (await kindOf(d, shown)) === 'missing'; d = dirname(d)) missing.unshift(d);
  try {
    for (const d of missing) await mkdir(d);
  } catch (error) {
    await removeCreated(missing);
    throw translateFsError(error, shown, 'output directory');
  }
  return missing;
}

async function removeCreated(created: readonly string[]): Promise<void> {
  for (const d of [...created].reverse()) {
    if ((await readdir(d).catch(() => ['?'])).length === 0) await rmdir(d).catch(() => undefined);
  }
}
