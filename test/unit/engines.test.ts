// `npm ci` must print no EBADENGINE warning on the Node the README names: every locked package's engine range
// must hold Node 20.19.0 (the README's minimum) and the Node running the tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { satisfies } from 'semver';

const ROOT = join(__dirname, '..', '..');

describe('engine ranges of the locked packages', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
  const ranges = Object.entries(lock.packages)
    .map(([path, entry]) => [path || 'compliance-evidence-service', !Array.isArray(entry.engines) ? entry.engines?.node : undefined] as const)
    .filter((pair): pair is readonly [string, string] => typeof pair[1] === 'string');

  it('the README names Node 20.19, as package.json does', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('Node.js 20.19 or newer');
    expect((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node).toBe('>=20.19');
  });

  it.each(['20.19.0', process.versions.node])('every range holds Node %s', (node) => {
    expect(ranges.length).toBeGreaterThan(100);
    expect(ranges.filter(([, range]) => !satisfies(node, range)).map(([path, range]) => `${path}: ${range}`)).toEqual([]);
  });
});
