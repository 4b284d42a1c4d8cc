import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, svc } from '../support/run-svc';

/**
 * What bin/run.js does before oclif loads (DESIGN §11 start-up): the modules' V8 code cache kept between runs
 * (dist/infrastructure/shared/compile-cache.js) and oclif's WSL question answered without an ES module import
 * (dist/interfaces/cli/oclif-platform.js). Both run from the build, as svc does.
 */
const COMPILE_CACHE = join(ROOT, 'dist', 'infrastructure', 'shared', 'compile-cache.js');
const OCLIF_PLATFORM = join(ROOT, 'dist', 'interfaces', 'cli', 'oclif-platform.js');
const tmp = mkdtempSync(join(tmpdir(), 'svc-start-up-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const at = (...names: string[]) => join(tmp, ...names);
const node = (script: string, env: NodeJS.ProcessEnv = {}) => {
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '', ...env } });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
};

describe('the modules’ code cache', () => {
  const cacheFiles = (dir: string) => readdirSync(dir).map((name) => join(dir, name));
  const stamp = (file: string) => {
    const s = statSync(file);
    return [s.ino, s.mtimeMs, s.size];
  };

  it('is kept in the cache directory’s modules/ by the first run and only read by the next', () => {
    const cache = at('svc-cache');
    const first = svc(['ksi', 'list'], { env: { SVC_CACHE_DIR: cache, NODE_DISABLE_COMPILE_CACHE: '' } });
    expect(first.status).toBe(0);
    const [file, ...others] = cacheFiles(join(cache, 'modules'));
    expect(others).toEqual([]);
    expect(statSync(file).mode & 0o077).toBe(0);
    const before = stamp(file);
    const second = svc(['ksi', 'list'], { env: { SVC_CACHE_DIR: cache, NODE_DISABLE_COMPILE_CACHE: '' } });
    expect(second).toEqual(first);
    expect(stamp(file)).toEqual(before);
    const without = svc(['ksi', 'list'], { env: { SVC_CACHE_DIR: at('no-cache'), NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(without).toEqual(first);
    expect(readdirSync(tmp)).not.toContain('no-cache');
  });

  describe('with modules of its own', () => {
    const dir = at('project');
    const cache = at('project-cache');
    const script = `require(${JSON.stringify(COMPILE_CACHE)}).enableCompileCache({ dir: ${JSON.stringify(cache)}, root: ${JSON.stringify(dir)} });
      const m = require(${JSON.stringify(join(dir, 'm.js'))});
      console.log(JSON.stringify({ value: m.value, here: m.here(), names: m.names(), self: m.self() }));`;
    const load = () => node(script);
    const file = () => cacheFiles(cache)[0];

    beforeAll(() => {
      mkdirSync(dir);
      writeFileSync(join(dir, 'other.js'), 'module.exports = "other";\n');
    });
    beforeEach(() => rmSync(cache, { recursive: true, force: true }));
    const write = (value: string) =>
      writeFileSync(
        join(dir, 'm.js'),
        [
          `exports.value = ${value}; exports.here = () => new Error('x').stack.split('\\n')[1].trim();`,
          'exports.names = function () {',
          "  return [__filename, __dirname, require('./other'), require.resolve('./other'), require.resolve.paths('x').length > 0, require.cache === require('node:module')._cache];",
          '};',
          'exports.self = () => this === module.exports;',
          '',
        ].join('\n'),
      );

    it('runs a module as Node does, positions in stack traces included', () => {
      write("'a'");
      const plain = node(script.split('\n').slice(1).join('\n'));
      const cold = load();
      const warm = load();
      expect(JSON.parse(plain.stdout)).toEqual({
        value: 'a',
        here: `at exports.here (${join(dir, 'm.js')}:1:43)`,
        names: [join(dir, 'm.js'), dir, 'other', join(dir, 'other.js'), true, true],
        self: true,
      });
      expect([cold, warm]).toEqual([plain, plain]);
      expect(cacheFiles(cache)).toHaveLength(1);
    });

    it('compiles a module whose source changed, even to one of the same length, and keeps the new code', () => {
      write("'a'");
      load();
      write("'b'");
      const before = stamp(file());
      expect(JSON.parse(load().stdout).value).toBe('b');
      expect(stamp(file())).not.toEqual(before);
      const after = stamp(file());
      expect(JSON.parse(load().stdout).value).toBe('b');
      expect(stamp(file())).toEqual(after);
    });

    it('compiles a module whose entry is damaged, and writes it again', () => {
      write("'c'");
      load();
      const bytes = readFileSync(file());
      bytes[bytes.length - 20] ^= 0xff;
      writeFileSync(file(), bytes);
      expect(JSON.parse(load().stdout).value).toBe('c');
      expect(readFileSync(file())).not.toEqual(bytes);
    });

    it('ignores and replaces a file that is no cache, or one that others may write', () => {
      write("'d'");
      mkdirSync(cache, { recursive: true });
      load();
      writeFileSync(file(), 'not a cache');
      expect(JSON.parse(load().stdout).value).toBe('d');
      expect(readFileSync(file(), 'utf8')).toContain('svc-compile-cache/1');
      chmodSync(file(), 0o666);
      expect(JSON.parse(load().stdout).value).toBe('d');
      expect(statSync(file()).mode & 0o077).toBe(0);
    });

    it('writes nothing when V8’s flags changed during the run: V8 would refuse that code cache in the next', () => {
      write("'e'");
      const flagged = node(`${script}; require('node:v8').setFlagsFromString('--expose-gc');`);
      expect(JSON.parse(flagged.stdout).value).toBe('e');
      expect(readdirSync(tmp)).not.toContain('project-cache');
    });

    it('leaves the modules to Node with NODE_DISABLE_COMPILE_CACHE set', () => {
      write("'f'");
      expect(JSON.parse(node(script, { NODE_DISABLE_COMPILE_CACHE: '1' }).stdout).value).toBe('f');
      expect(readdirSync(tmp)).not.toContain('project-cache');
    });
  });
});

describe('oclif’s platform', () => {
  it('is what oclif’s own question (wsl-utils) answers', () => {
    const own = node(`import('wsl-utils').then((m) => console.log(m.isWsl ? 'wsl' : require('node:os').platform()))`, {});
    const ours = node(`const core = require.resolve('@oclif/core', { paths: [${JSON.stringify(ROOT)}] });
      require(${JSON.stringify(OCLIF_PLATFORM)}).answerPlatformWithoutImport(core);
      const os = require(require('node:path').join(require('node:path').dirname(core), 'util', 'os.js'));
      os.getPlatform().then((p) => console.log(p));`);
    expect(own.status).toBe(0);
    expect(ours.stdout).toBe(own.stdout);
  });
});
