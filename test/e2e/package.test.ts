// The package as a user gets it: `npm pack`, the tarball installed into an empty directory from the npm registry,
// the CLI run from there, then the api extra added with the README's own install line and svc-api started.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_INSTALL_COMMAND } from '../../src/interfaces/http/config/api-extra';
import { startSvcApi } from '../support/api';
import { FIXTURES, REFERENCE, ROOT } from '../support/run-svc';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function npm(args: string[], cwd: string): { stdout: string; stderr: string; status: number | null } {
  const run = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}

describe('the published package, installed from its tarball into an empty directory', () => {
  let dir: string;
  let consumer: string;
  let packed: string[];
  const svc = (args: string[]) =>
    spawnSync(join(consumer, 'node_modules', '.bin', 'svc'), args, {
      cwd: consumer,
      encoding: 'utf8',
      env: { ...process.env, SVC_HOME: join(dir, 'home'), SOURCE_DATE_EPOCH: '1767225600' },
    });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-package-'));
    const pack = npm(['pack', '--json', '--pack-destination', dir], ROOT);
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    const [info] = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }];
    packed = info.files.map((f) => f.path).sort();
    consumer = join(dir, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    const install = npm(['install', join(dir, info.filename)], consumer);
    if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`);
  }, 600_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the CLI, the API, the library, the manifest, the docs, the schemas it carries and the licence; no sources, tests, fixtures or scripts', () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'oclif.manifest.json',
        'bin/run.js',
        'bin/svc-api.js',
        'dist/interfaces/library/public-api.js',
        'dist/interfaces/library/public-api.d.ts',
        'docs/api.md',
        'docs/schemas.md',
        'schemas/manifest.json',
      ]),
    );
    const tops = [...new Set(packed.map((p) => p.split('/')[0]))].sort();
    expect(tops).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'docs', 'oclif.manifest.json', 'package.json', 'schemas']);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'schemas', 'manifest.json'), 'utf8')) as {
      fedramp: { generations: { generation: string; files: { file: string }[] }[] };
      oscal: { releases: { release: string; files: { file: string }[] }[] };
    };
    const carried = [
      ...manifest.fedramp.generations.flatMap((g) => g.files.map((f) => `schemas/fedramp/${g.generation}/${f.file}`)),
      ...manifest.oscal.releases.flatMap((r) => r.files.map((f) => `schemas/oscal/${r.release}/${f.file}`)),
      'schemas/manifest.json',
    ].sort();
    expect(packed.filter((p) => p.startsWith('schemas/'))).toEqual(carried);
    expect(packed.filter((p) => p.endsWith('.test.js') || (p.endsWith('.ts') && !p.endsWith('.d.ts')))).toEqual([]);
  });

  it('names itself svc in --version and in --help', () => {
    const version = svc(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(new RegExp(`^svc/${VERSION.replace(/\./g, '\\.')} \\S+ node-v\\d+`));
    const help = svc(['--help']);
    expect(help.stdout).toContain(`VERSION\n  ${version.stdout.trim()}\n`);
  });

  it('builds and validates an auditor bundle', () => {
    const bundle = svc(['ir', 'auditor-bundle', join(FIXTURES, 'sample-baseline.json'), '--out-dir', join(dir, 'bundle')]);
    expect(bundle.stderr).toBe('');
    expect(bundle.stdout).toBe(
      `Building auditor bundle from ${join(FIXTURES, 'sample-baseline.json')} ...\nMapped 4 KSIs to controls and policies\nBundle written to ${join(dir, 'bundle')}\nEvidence: 5\nActions: 5\nPOA&M: 3\n`,
    );
    expect(bundle.status).toBe(0);
    expect(svc(['ir', 'validate', join(dir, 'bundle')]).status).toBe(0);
  });

  it('validates an OSCAL document against a schema directory', () => {
    const run = svc(['oscal', 'validate', join(REFERENCE, 'oscal', 'examples', 'ssp_ifa_ssp-example.json'), '--schemas', join(REFERENCE, 'oscal', 'schemas')]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it("validates with no --schemas, environment or config: the schemas it carries, FedRAMP's and NIST's", () => {
    const env = { ...process.env, SVC_HOME: join(dir, 'home'), SVC_CACHE_DIR: join(dir, 'cache'), SVC_FEDRAMP_SCHEMAS: '', SVC_OSCAL_SCHEMAS: '' };
    const fedramp = spawnSync(join(consumer, 'node_modules', '.bin', 'svc'), ['fedramp', 'validate', join(FIXTURES, 'fedramp', 'sdr-minimal.json')], {
      cwd: consumer,
      encoding: 'utf8',
      env,
    });
    expect([fedramp.status, fedramp.stderr, fedramp.stdout.split('\n')[1]]).toEqual([0, '', 'Valid']);
    expect(fedramp.stdout).toContain("($schemaVersion 1.1.1, sha256:6a6d7dca1a9ae0031c06df6213bf5c5631e9b9b5fb81c050403cfd723484be86, svc's 2026-10-08 set)");
    const oscal = spawnSync(
      join(consumer, 'node_modules', '.bin', 'svc'),
      ['oscal', 'validate', join(REFERENCE, 'oscal', 'examples', 'ssp_ifa_ssp-example.json')],
      { cwd: consumer, encoding: 'utf8', env },
    );
    expect([oscal.status, oscal.stderr]).toEqual([0, '']);
  });

  it('loads as a library by its package name', () => {
    const run = spawnSync(process.execPath, ['-e', "const svc = require('compliance-evidence-service'); process.stdout.write(typeof svc.createContainer)"], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(run.stdout).toBe('function');
  });

  it('svc-api needs the api extra, and starts once the README install line added it', async () => {
    const before = spawnSync(join(consumer, 'node_modules', '.bin', 'svc-api'), [], { cwd: consumer, encoding: 'utf8' });
    expect(before.stderr).toBe(
      `Error: svc-api needs the api extra, which is not installed (missing: express, swagger-ui-express, passport, passport-strategy, @azure/msal-node, pino, helmet, express-rate-limit); add it with: ${API_INSTALL_COMMAND}\n`,
    );
    expect(before.status).toBe(5);

    // The README's line, run as written: it must be the same command svc-api prints.
    const line = readFileSync(join(ROOT, 'README.md'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith("npm install 'express@"));
    expect(line).toBe(API_INSTALL_COMMAND);
    const packages = [...line!.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const extra = npm(['install', ...packages], consumer);
    expect(extra.status).toBe(0);

    const api = await startSvcApi(['--port', '0'], { SVC_HOME: join(dir, 'home') }, { bin: join(consumer, 'node_modules', '.bin', 'svc-api'), cwd: consumer });
    try {
      const health = await fetch(`${api.url}/health`);
      expect(health.status).toBe(200);
      const openapi = (await (await fetch(`${api.url}/openapi.json`)).json()) as { info: { version: string } };
      expect(openapi.info.version).toBe(VERSION);
    } finally {
      expect(await api.stop()).toBe(0);
    }
  }, 600_000);
});
