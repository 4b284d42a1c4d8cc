import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { InvalidInputError } from '../../domain/errors';
import type { ArtifactSink, ArtifactTransaction, ArtifactWriter } from '../../ports/artifact-writer';
import type { Fragment } from '../../ports/report-reader';
import { translateFsError } from './fs-errors';
import { SLOT_BYTES, WriteBehind } from './write-behind';
import { syncDir } from './sync-dir';

/** A bundle member: a safe name, or safe names joined by `/` for a file in a subdirectory (`controls/ac-2.md`). */
const SAFE_MEMBER = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/**
 * Files are written under a temporary name in the target's own directory, fsynced, then renamed, so a
 * reader sees the old file or the new one and never a part. A bundle is written into a temporary
 * directory that is renamed into place when the target does not exist yet. The bytes are hashed and
 * written by a WriteBehind worker thread while the caller goes on producing them.
 */
@injectable()
export class FsArtifactWriter implements ArtifactWriter {
  async begin(dir: string): Promise<ArtifactTransaction> {
    const target = resolve(dir);
    const existing = await kindOf(target, dir);
    if (existing === 'file') throw new InvalidInputError('out-dir-is-file', `${dir}: is a file, expected a directory for the bundle; pass a directory path`);
    const created = existing === 'missing' ? await makeParents(dirname(target), dir) : [];
    const staging = existing === 'directory' ? join(target, tempName('bundle')) : join(dirname(target), tempName(basename(target)));
    try {
      await mkdir(staging);
    } catch (error) {
      await removeCreated(created);
      throw translateFsError(error, dir, 'output directory');
    }
    return new FsBundleTransaction(dir, target, staging, existing === 'directory', created);
  }

  async open(path: string): Promise<ArtifactSink> {
    const target = resolve(path);
    if ((await kindOf(target, path)) === 'directory') throw new InvalidInputError('out-is-directory', `${path}: is a directory, expected a file path; name the file to write`);
    const created = await makeParents(dirname(target), path);
    const temp = join(dirname(target), tempName(basename(target)));
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
        for (let left = fragment.bytes; left > 0; ) {
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
  ) {}

  open(name: string): ArtifactSink {
    if (!SAFE_MEMBER.test(name) || this.names.includes(name)) throw new InvalidInputError('bad-artifact-name', `${name}: not a fresh plain file name (or dir/name) for a bundle artifact`);
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
      await syncDir(this.staging);
      if (this.intoExisting) {
        for (const name of this.names) {
          if (name.includes('/')) await mkdir(dirname(join(this.target, name)), { recursive: true });
          await rename(join(this.staging, name), join(this.target, name));
        }
        await rm(this.staging, { recursive: true, force: true });
      } else {
        await rename(this.staging, this.target);
      }
      await syncDir(this.intoExisting ? this.target : dirname(this.target));
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

function tempName(base: string): string {
  return `.${base}.svc-tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
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

