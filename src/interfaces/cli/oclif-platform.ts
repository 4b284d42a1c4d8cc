import { existsSync, readFileSync } from 'node:fs';
import { platform, release } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * oclif's Config.load asks `getPlatform()` (its lib/util/os.js) whether it runs in WSL with `import('wsl-utils')`: the one
 * ES module import of a command's start, which loads Node's ES module loader, wsl-utils, is-wsl and its helpers (about
 * 13 ms of the 100 ms `svc oscal validate` spends beyond Node's own start). When none of is-wsl's signs of WSL is there
 * (is-wsl 3: "microsoft" in the kernel release or in /proc/version, /proc/sys/fs/binfmt_misc/WSLInterop, /run/WSL), its
 * answer is false and oclif's is `os.platform()`: this gives oclif that answer without the import, and leaves every other
 * case (a possible WSL, is-wsl's test switch) to oclif. Called by bin/run.js before oclif loads.
 */
export function answerPlatformWithoutImport(oclifEntry: string): void {
  let os: { getPlatform?: unknown };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module oclif's Config requires, by its file
    os = require(join(dirname(oclifEntry), 'util', 'os.js')) as { getPlatform?: unknown };
  } catch {
    return;
  }
  const ask = os.getPlatform;
  if (typeof ask !== 'function') return;
  os.getPlatform = async function getPlatform(): Promise<string> {
    return notWsl() ? platform() : (ask as () => Promise<string>)();
  };
}

/** True when is-wsl would say false; false when it might say true. */
export function notWsl(): boolean {
  if (process.env.__IS_WSL_TEST__) return false;
  if (process.platform !== 'linux') return true;
  if (release().toLowerCase().includes('microsoft')) return false;
  try {
    if (readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft')) return false;
  } catch {
    // is-wsl goes on to its other signs
  }
  return !existsSync('/proc/sys/fs/binfmt_misc/WSLInterop') && !existsSync('/run/WSL');
}
