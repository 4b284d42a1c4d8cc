import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT } from '../support/run-svc';

const { BUILT } = require('../tiers.js') as { BUILT: string[] };

const { staleness } = require('../built-is-current.js') as { staleness: (root: string) => string | undefined };

/** What runs the built CLI or svc-api from a test (test/support/run-svc.ts, api.ts), or requires dist/ itself. */
const RUNS_BUILT = /\b(?:svc|startSvc|startSvcApi|homeWithRecordedRun)\(|\.\/dist\//;

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${dir}/${file}`);
}

describe('test tiers (jest.config.js)', () => {
  it('the unit tier runs src/ alone: a suite there that runs the built CLI or dist/ is listed as BUILT (the integration tier)', () => {
    const unit = ['test/unit', 'test/property'].flatMap(testFiles);
    const running = unit.filter((file) => RUNS_BUILT.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(running.sort()).toEqual([...BUILT].sort());
  });

  it('refuses a dist/ missing or older than src/, naming the newer file', () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-tiers-'));
    try {
      mkdirSync(join(root, 'src', 'domain'), { recursive: true });
      writeFileSync(join(root, 'src', 'domain', 'a.ts'), '');
      expect(staleness(root)).toBe('dist/ is missing');
      mkdirSync(join(root, 'dist'));
      writeFileSync(join(root, 'dist', 'a.js'), '');
      writeFileSync(join(root, 'dist', 'b.js'), '');
      const at = (file: string, seconds: number) => utimesSync(join(root, file), seconds, seconds);
      at('src/domain/a.ts', 1_000);
      at('dist/a.js', 2_000);
      at('dist/b.js', 3_000);
      expect(staleness(root)).toBeUndefined();
      // Changed after the build began (its oldest file): stale, though newer than some of dist/.
      at('src/domain/a.ts', 2_500);
      expect(staleness(root)).toBe(
        `dist/ is older than src/: ${relative(root, join(root, 'src/domain/a.ts'))} changed at ${new Date(2_500_000).toISOString()}, after the build began (${new Date(2_000_000).toISOString()})`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
