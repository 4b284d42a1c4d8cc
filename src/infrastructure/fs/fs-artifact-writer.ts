import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { InvalidInputError } from '../../domain/errors';
import type { ArtifactTransaction, ArtifactWriter } from '../../ports/artifact-writer';
import { translateFsError } from './fs-errors';

/** Chunks are gathered into writes of about this many characters. */
const BATCH = 1 << 20;
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Files are written under a temporary name in the target's own directory, fsynced, then renamed, so a
 * reader sees the old file or the new one and never a part. A bundle is written into a temporary
 * directory that is renamed into place when the target does not exist yet.
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

  async writeFile(path: string, chunks: Iterable<string>): Promise<WrittenFile> {
    const target = resolve(path);
    if ((await kindOf(target, path)) === 'directory') throw new InvalidInputError('out-is-directory', `${path}: is a directory, expected a file path; name the file to write`);
    const created = await makeParents(dirname(target), path);
    const temp = join(dirname(target), tempName(basename(target)));
    try {
      const written = await writeChunks(temp, basename(target), chunks);
      await rename(temp, target);
      await syncDir(dirname(target));
      return written;
    } catch (error) {
      await rm(temp, { force: true });
      await removeCreated(created);
      throw translateFsError(error, path, 'output file');
    }
  }
}

class FsBundleTransaction implements ArtifactTransaction {
  private readonly names: string[] = [];
  private done = false;

  constructor(
    private readonly shown: string,
    private readonly target: string,
    private readonly staging: string,
    private readonly intoExisting: boolean,
    private readonly created: string[],
  ) {}

  async write(name: string, chunks: Iterable<string>): Promise<WrittenFile> {
    if (!SAFE_NAME.test(name) || this.names.includes(name)) throw new InvalidInputError('bad-artifact-name', `${name}: not a fresh plain file name for a bundle artifact`);
    this.names.push(name);
    try {
      return await writeChunks(join(this.staging, name), name, chunks);
    } catch (error) {
      throw translateFsError(error, join(this.shown, name), 'output file');
    }
  }

  async commit(): Promise<string> {
    try {
      await syncDir(this.staging);
      if (this.intoExisting) {
        for (const name of this.names) await rename(join(this.staging, name), join(this.target, name));
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
    await rm(this.staging, { recursive: true, force: true });
    await removeCreated(this.created);
  }
}

async function writeChunks(path: string, name: string, chunks: Iterable<string>): Promise<WrittenFile> {
  const hash = createHash('sha256');
  const file = await open(path, 'wx', 0o644);
  let bytes = 0;
  try {
    let batch = '';
    const flush = async () => {
      const buffer = Buffer.from(batch, 'utf8');
      batch = '';
      hash.update(buffer);
      bytes += buffer.length;
      await file.write(buffer);
    };
    for (const chunk of chunks) {
      batch += chunk;
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    await file.sync();
  } finally {
    await file.close();
  }
  return { name, sha256: hash.digest('hex'), bytes };
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

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
