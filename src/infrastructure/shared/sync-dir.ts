import { open } from 'node:fs/promises';

/** Makes a rename durable (POSIX); Windows cannot open a directory for fsync and journals renames itself. */
export async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
