import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_INSTALL_COMMAND } from '../../../src/interfaces/http/config/api-extra';
import { homeWithRecordedRun, startSvcApi } from '../../support/api';
import { FIXTURES, ROOT, svc } from '../../support/run-svc';
import { TRUST_PROFILE } from '../../support/trust-center';

const API_BIN = join(ROOT, 'bin', 'svc-api.js');
const EXTRA = new Set([
  'express',
  'swagger-ui-express',
  'passport',
  'passport-strategy',
  'kerberos',
  '@azure/msal-node',
  'pino',
  'helmet',
  'express-rate-limit',
]);

function runApi(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; bin?: string } = {}) {
  return spawnSync(process.execPath, [options.bin ?? API_BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('svc-api, the second binary', () => {
  let home: { home: string; cleanup(): void };
  let dir: string;
  beforeAll(() => {
    home = homeWithRecordedRun();
    dir = mkdtempSync(join(tmpdir(), 'svc-api-bin-'));
  });
  afterAll(() => {
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the routes on a real listening server and stops on SIGTERM', async () => {
    const config = join(dir, 'api.json');
    writeFileSync(
      config,
      JSON.stringify({
        auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
        roles: { auditor: ['alice@SVC.TEST'] },
        log: { file: join(dir, 'access.log') },
      }),
    );
    const api = await startSvcApi(['--config', config, '--port', '0'], { SVC_HOME: home.home });
    try {
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The SAR was signed when the run was recorded: svc-api has nothing to warn about.
      expect(api.stderr()).toBe(`svc-api listening on ${api.url} (auth: proxy; OpenAPI at ${api.url}/openapi.json, docs at ${api.url}/docs)\n`);
      expect(await (await fetch(`${api.url}/health`)).json()).toEqual({ status: 'ok', version: '0.5.0' });
      const findings = await fetch(`${api.url}/auditor/findings?status=FAIL`, { headers: { 'X-Forwarded-User': 'alice@SVC.TEST' } });
      expect(findings.status).toBe(200);
      expect(((await findings.json()) as { items: { ksi_id: string }[] }).items.map((f: { ksi_id: string }) => f.ksi_id)).toEqual(['KSI-AC-02', 'KSI-IA-02']);
      const curl = spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', `${api.url}/auditor/oscal/sar`], { encoding: 'utf8' });
      expect(curl.stdout).toBe('401');
      const openapi = (await (await fetch(`${api.url}/openapi.json`)).json()) as { openapi: string };
      expect(openapi.openapi).toBe('3.1.0');
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });

  it('answers all 30 routes over a real socket', async () => {
    // The trust center reads the offering's profile (svc.config.json) and an OCR recorded in the store.
    const profile = join(dir, 'svc.config.json');
    writeFileSync(profile, JSON.stringify({ fedramp: TRUST_PROFILE }));
    const ocr = svc(['fedramp', 'ocr', '--to', '2026-11-30', '--out', join(dir, 'ocr.json')], { env: { SVC_HOME: home.home, SVC_CONFIG: profile } });
    expect([ocr.status, ocr.stderr]).toEqual([0, '']);
    const config = join(dir, 'all.json');
    writeFileSync(
      config,
      JSON.stringify({
        auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
        roles: { auditor: ['alice@SVC.TEST'], operator: ['alice@SVC.TEST'] },
        graph: { export: join(FIXTURES, 'graph-export.json') },
        orgpath: { rules: [{ match: { department: 'Finance' }, path: '/Contoso/Finance' }] },
        boundary: { environment: 'GCC', required: ['conditional-access'] },
        log: { file: join(dir, 'all.log') },
      }),
    );
    const api = await startSvcApi(['--config', config, '--port', '0'], { SVC_HOME: home.home, SVC_CONFIG: profile });
    try {
      const sdr = (await (await fetch(`${api.url}/fedramp/sdr`, { headers: { 'X-Forwarded-User': 'alice@SVC.TEST' } })).json()) as {
        keySecurityIndicators: { ksiEvidence: { evidenceLocation: string }[] }[];
      };
      const evidence = sdr.keySecurityIndicators.flatMap((k) => k.ksiEvidence)[0].evidenceLocation.replace(TRUST_PROFILE.evidence_base_uri, '/fedramp');
      const routes: [string, string][] = [
        ['GET', '/health'],
        ['GET', '/health/ready'],
        ['GET', '/auditor/evidence'],
        ['GET', '/auditor/findings'],
        ['GET', '/auditor/poam'],
        ['GET', '/auditor/manifest'],
        ['GET', '/auditor/oscal/sar'],
        ['GET', '/auditor/oscal/ssp'],
        ['GET', '/auditor/oscal/poam'],
        ['GET', '/auditor/oscal/sap'],
        ['GET', '/auditor/graph/ac-2'],
        ['POST', '/survey/run'],
        ['POST', '/survey/findings'],
        ['POST', '/orgpath/assign'],
        ['GET', '/orgpath/assignments'],
        ['POST', '/boundary/run'],
        ['GET', '/boundary/gaps'],
        ['GET', '/fedramp/public'],
        ['GET', '/fedramp/cpo'],
        ['GET', '/fedramp/sdr'],
        ['GET', '/fedramp/ocr'],
        ['GET', '/fedramp/vdr'],
        ['GET', '/fedramp/avi'],
        ['GET', '/fedramp/history'],
        ['GET', '/fedramp/scn'],
        ['GET', '/fedramp/metrics'],
        ['GET', '/fedramp/incidents'],
        ['GET', '/fedramp/snapshots'],
        ['GET', '/fedramp/access'],
        ['GET', evidence],
      ];
      const statuses: string[] = [];
      for (const [method, path] of routes) {
        const res = await fetch(`${api.url}${path}`, {
          method,
          headers: { 'X-Forwarded-User': 'alice@SVC.TEST', ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        statuses.push(`${method} ${path} ${res.status}`);
      }
      expect(statuses).toEqual(routes.map(([method, path]) => `${method} ${path} 200`));
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });

  it.each([
    [['--port', 'abc'], 2, 'Error: --port abc: expected a TCP port 0–65535; e.g. --port 8000\n'],
    [['--host', 'localhost'], 2, 'Error: --host localhost: expected an IP address to bind; e.g. --host 127.0.0.1\n'],
    [['--verbose'], 2, "Error: Unknown option '--verbose'; see svc-api --help\n"],
    [['serve'], 2, "Error: Unexpected argument 'serve'. This command does not take positional arguments; see svc-api --help\n"],
  ])('svc-api %j exits %i', (args, status, stderr) => {
    const run = runApi(args);
    expect(run.stderr).toBe(stderr);
    expect(run.status).toBe(status);
  });

  it('a missing or broken config file exits 3 naming the file and the setting', () => {
    const missing = runApi(['--config', join(dir, 'nope.json')]);
    expect(missing.stderr).toBe(`Error: ${join(dir, 'nope.json')}: cannot read the API config file; fix the path given to --config or SVC_API_CONFIG\n`);
    expect(missing.status).toBe(3);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ port: 8000, roles: { admin: ['x'] } }));
    const run = runApi(['--config', bad]);
    expect(run.stderr).toBe(`Error: ${bad}: roles.admin: unknown role; use auditor, operator or agency\n`);
    expect(run.status).toBe(3);
  });

  it('a signing key that does not load stops the start with exit 5', () => {
    const config = join(dir, 'key.json');
    writeFileSync(config, JSON.stringify({ port: 0, signing_key: 'missing.pem' }));
    const run = runApi(['--config', config], { env: { SVC_HOME: home.home } });
    expect(run.stderr).toBe(
      `Error: ${join(dir, 'missing.pem')}: no such key file; pass --key <pem>, set SVC_SIGNING_KEY, or omit both to use the development key\n`,
    );
    expect(run.status).toBe(5);
  });

  it('a port in use exits 5', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as { port: number }).port;
      const run = runApi(['--port', String(port)], { env: { SVC_HOME: home.home } });
      expect(run.stderr).toBe(
        `Error: cannot listen (EADDRINUSE): listen EADDRINUSE: address already in use 127.0.0.1:${port}; pick another --host or --port\n`,
      );
      expect(run.status).toBe(5);
    } finally {
      blocker.close();
    }
  });

  it('--help and --version', () => {
    expect(runApi(['--version']).stdout).toBe('0.5.0\n');
    const help = runApi(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: svc-api [--host <ip>] [--port <port>] [--config <file>]');
  });

  describe('installed without the api extra', () => {
    let install: string;
    beforeAll(() => {
      // The package as npm installs it without optional peers: the same dist and bin, every dependency but the extra.
      install = join(dir, 'no-extra');
      for (const part of ['bin', 'dist', 'package.json', 'oclif.manifest.json']) cpSync(join(ROOT, part), join(install, part), { recursive: true });
      const modules = join(install, 'node_modules');
      mkdirSync(modules, { recursive: true });
      for (const name of readdirSync(join(ROOT, 'node_modules'))) {
        if (name.startsWith('@')) {
          mkdirSync(join(modules, name), { recursive: true });
          for (const sub of readdirSync(join(ROOT, 'node_modules', name)))
            if (!EXTRA.has(`${name}/${sub}`)) symlinkSync(join(ROOT, 'node_modules', name, sub), join(modules, name, sub));
        } else if (!EXTRA.has(name)) {
          symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
        }
      }
    });

    it('svc-api exits 5 naming the one command that adds it', () => {
      const run = runApi([], { bin: join(install, 'bin', 'svc-api.js'), cwd: install });
      expect(run.stderr).toBe(
        `Error: svc-api needs the api extra, which is not installed (missing: express, swagger-ui-express, passport, passport-strategy, @azure/msal-node, pino, helmet, express-rate-limit); add it with: ${API_INSTALL_COMMAND}\n`,
      );
      expect(run.status).toBe(5);
    });

    it('the CLI runs without it', () => {
      const bundle = spawnSync(
        process.execPath,
        [join(install, 'bin', 'run.js'), 'ir', 'auditor-bundle', join(FIXTURES, 'sample-baseline.json'), '--out-dir', join(dir, 'bundle')],
        { cwd: install, encoding: 'utf8', env: { ...process.env, SVC_HOME: join(dir, 'home') } },
      );
      expect(bundle.stderr).toBe('');
      expect(bundle.status).toBe(0);
      const conmon = spawnSync(process.execPath, [join(install, 'bin', 'run.js'), 'conmon', 'process', join(FIXTURES, 'sample-baseline.json')], {
        cwd: install,
        encoding: 'utf8',
        env: { ...process.env, SVC_HOME: join(dir, 'home') },
      });
      expect(conmon.status).toBe(0);
    });
  });
});
