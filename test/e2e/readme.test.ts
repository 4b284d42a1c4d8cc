// README.md's HTTP API section, as a reader follows it: its two JSON files written to an empty directory, a run
// recorded there, the built svc-api started from it; then the routes the section's curl lines ask for.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSvcApi, type StartedApi } from '../support/api';
import { FIXTURES, ROOT, svc } from '../support/run-svc';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's section under `## <title>`, up to the next `## `. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`README.md has no section "## ${title}"`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

/** The ```json block that follows the first paragraph naming `file` in backquotes. */
function jsonFile(text: string, file: string): unknown {
  const at = text.indexOf(`\`${file}\``);
  if (at === -1) throw new Error(`the section names no \`${file}\``);
  const block = /```json\n([\s\S]*?)\n```/.exec(text.slice(at));
  if (!block) throw new Error(`no JSON block after \`${file}\``);
  return JSON.parse(block[1]);
}

describe("README's What it does and Documentation", () => {
  it('shows every command group at work, fedramp and vuln among them', () => {
    const topics = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).oclif.topics as Record<string, unknown>);
    const shown = section('What it does');
    expect(topics).toEqual(expect.arrayContaining(['fedramp', 'vuln']));
    expect(topics.filter((topic) => !new RegExp(`^svc ${topic} `, 'm').test(shown))).toEqual([]);
  });

  it('links a page for FedRAMP, for vulnerabilities and for the normalized report, and every page it links exists', () => {
    const table = section('Documentation');
    const pages = [...table.matchAll(/^\| \[(docs\/[a-z-]+\.md)\]\(\1\) \|/gm)].map((m) => m[1]);
    expect(pages).toEqual(expect.arrayContaining(['docs/fedramp.md', 'docs/vulnerabilities.md', 'docs/report-format.md']));
    expect(pages.filter((page) => !existsSync(join(ROOT, page)))).toEqual([]);
  });
});

describe("README's HTTP API section: a minimal trust center", () => {
  const api = section('HTTP API');
  let dir: string;
  let server: StartedApi | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-readme-'));
    for (const file of ['svc-api.json', 'svc.config.json']) writeFileSync(join(dir, file), `${JSON.stringify(jsonFile(api, file), null, 2)}\n`);
    // `svc conmon process report.json`: the sample report, recorded into the directory's own store (.svc/store: SVC_HOME
    // is named only so that one set around the test cannot move it).
    const home = { SVC_HOME: join(dir, '.svc') };
    const recorded = svc(['conmon', 'process', join(FIXTURES, 'sample-baseline.json')], { cwd: dir, env: home });
    if (recorded.status !== 0) throw new Error(`conmon process failed: ${recorded.stderr}`);
    // `svc-api --config svc-api.json`, on any free port; svc.config.json is read from the working directory.
    const env: NodeJS.ProcessEnv = { ...home, ...(process.env.SVC_CONFIG ? { SVC_CONFIG: join(dir, 'svc.config.json') } : {}) };
    server = await startSvcApi(['--config', 'svc-api.json', '--port', '0'], env, { cwd: dir });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows both files and the commands that start it', () => {
    expect(api).toContain('svc conmon process report.json');
    expect(api).toContain('svc-api --config svc-api.json');
    expect(api).toContain('curl http://127.0.0.1:8000/fedramp/public');
    expect(jsonFile(api, 'svc-api.json')).toMatchObject({ host: '127.0.0.1', port: 8000, roles: { auditor: ['alice@EXAMPLE.COM'] } });
  });

  it('answers /health, and listens on loopback with the proxy method', async () => {
    expect(server!.stderr()).toMatch(/^svc-api listening on http:\/\/127\.0\.0\.1:\d+ \(auth: proxy;/);
    expect(await (await fetch(`${server!.url}/health`)).json()).toEqual({ status: 'ok', version: '0.5.0' });
  });

  it('serves the trust center: the public information to anyone, the SDR of the recorded run to alice', async () => {
    const profile = jsonFile(api, 'svc.config.json') as { fedramp: { fedramp_id: string; package_uri: string } };
    const pub = await fetch(`${server!.url}/fedramp/public`);
    expect(pub.status).toBe(200);
    expect(pub.headers.get('content-type')).toMatch(/^application\/json/);
    const info = (await pub.json()) as { serviceIdentification: { fedRampPackageId: string }; certificationPackageOverviewUri: string };
    expect([info.serviceIdentification.fedRampPackageId, info.certificationPackageOverviewUri]).toEqual([
      profile.fedramp.fedramp_id,
      profile.fedramp.package_uri,
    ]);
    const sdr = await fetch(`${server!.url}/fedramp/sdr`, { headers: { 'X-Forwarded-User': 'alice@EXAMPLE.COM' } });
    expect(sdr.status).toBe(200);
    expect(((await sdr.json()) as { fedRampRequirements: unknown[] }).fedRampRequirements.length).toBeGreaterThan(100);
    expect((await fetch(`${server!.url}/fedramp/sdr`)).status).toBe(401);
  });
});
