import fs from 'node:fs';
import os from 'node:os';
import { notWsl } from '../../../src/interfaces/cli/oclif-platform';

/** notWsl() is true only where is-wsl 3 would answer false: none of its signs of WSL present (test/e2e/start-up.test.ts runs it against oclif's own answer). */
describe('notWsl', () => {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  let files: Record<string, string>;

  beforeEach(() => {
    files = { '/proc/version': 'Linux version 6.1.0 (gcc 12.2.0)' };
    Object.defineProperty(process, 'platform', { value: 'linux' });
    jest.spyOn(os, 'release').mockReturnValue('6.1.0-18-amd64');
    jest.spyOn(fs, 'readFileSync').mockImplementation(((path: string) => {
      if (path in files) return files[path];
      throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    }) as typeof fs.readFileSync);
    jest.spyOn(fs, 'existsSync').mockImplementation((path) => String(path) in files);
  });
  afterEach(() => {
    Object.defineProperty(process, 'platform', platform);
    delete process.env.__IS_WSL_TEST__;
    jest.restoreAllMocks();
  });

  it('is true on a Linux without any sign of WSL, and on other systems', () => {
    expect(notWsl()).toBe(true);
    delete files['/proc/version'];
    expect(notWsl()).toBe(true);
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    jest.spyOn(os, 'release').mockReturnValue('5.15.0-microsoft-standard-WSL2');
    expect(notWsl()).toBe(true);
  });

  it.each([
    ['a Microsoft kernel release', () => jest.spyOn(os, 'release').mockReturnValue('5.15.153.1-microsoft-standard-WSL2')],
    ['Microsoft in /proc/version', () => (files['/proc/version'] = 'Linux version 4.4.0-19041-Microsoft')],
    ['the WSL interop handler', () => (files['/proc/sys/fs/binfmt_misc/WSLInterop'] = '')],
    ['/run/WSL', () => (files['/run/WSL'] = '')],
    ["is-wsl's test switch", () => (process.env.__IS_WSL_TEST__ = '1')],
  ])('is false with %s: the question goes to oclif', (_sign, arrange) => {
    arrange();
    expect(notWsl()).toBe(false);
  });
});
