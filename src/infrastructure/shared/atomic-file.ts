import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tempTag } from './lock-owner';
import { syncDir } from './sync-dir';

export interface AtomicWriteOptions {
  /** The new file's mode; default 0o600 (svc's files are its user's). */
  mode?: number;
  /**
   * Whether the bytes and the rename must survive a power loss (fsync of the file and of its directory); default true.
   * A cache whose damaged or lost file is only a miss can do without.
   */
  durable?: boolean;
}

/**
 * Writes `data` (or its pieces, one at a time) to a new temporary file beside `path`, named with tempTag() so a crash's
 * leftover is known for what it is and swept, then renames it over `path`: a reader sees the old file or the new one,
 * never part of one. On failure the temporary file is removed and the error passes on as it came.
 */
export async function writeFileAtomically(
  path: string,
  data: string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { mode = 0o600, durable = true } = options;
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${tempTag()}`);
  try {
    await writeNewFile(temp, typeof data === 'string' || data instanceof Uint8Array ? [data] : data, { mode, durable });
    await rename(temp, path);
    if (durable) await syncDir(dir);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** A new file (refused if `path` exists) of `chunks`, each written whole, fsynced when durable. */
export async function writeNewFile(
  path: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const handle = await open(path, 'wx', options.mode ?? 0o600);
  try {
    // writeFile writes the whole chunk from the current position (write() may write part of one).
    for await (const chunk of chunks) await handle.writeFile(chunk);
    if (options.durable ?? true) await handle.sync();
  } finally {
    await handle.close();
  }
}
