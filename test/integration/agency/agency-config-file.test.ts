import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PULL_SETTINGS, type AgencyProvider } from '../../../src/domain/agency/providers';
import { AgencyConfigFile } from '../../../src/infrastructure/agency/agency-config-file';
import { readConfig } from '../../../src/infrastructure/config';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A temp directory with the files a provider's entry may name, and svc.config.json's path in it. */
function place(): { dir: string; file: string; ca: string; cert: string; key: string; token: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-agency-config-'));
  temps.push(dir);
  const path = (name: string) => {
    writeFileSync(join(dir, name), `${name}\n`);
    return join(dir, name);
  };
  return { dir, file: join(dir, 'svc.config.json'), ca: path('ca.pem'), cert: path('agency.crt'), key: path('agency.key'), token: path('acme.token') };
}
const text = (file: string) => readFileSync(file, 'utf8');
const json = (file: string) => JSON.parse(text(file)) as Record<string, unknown>;
/** The configuration as svc reads the file (what the next command sees). */
const reread = (file: string) => readConfig(json(file), file).agency;
const ACME: AgencyProvider = { name: 'acme', url: 'https://trust.acme.example', fedrampId: 'FR2611250001', class: 'B', auth: { kind: 'negotiate' } };

describe('AgencyConfigFile: agency.providers of svc.config.json', () => {
  it('settings: as read, else no providers and the default pull settings', () => {
    const { file } = place();
    expect(new AgencyConfigFile(file, undefined).settings()).toEqual({ providers: [], pull: DEFAULT_PULL_SETTINGS });
    const read = { name: 'Dept of Examples', providers: [ACME], pull: { ...DEFAULT_PULL_SETTINGS, concurrency: 2 } };
    expect(new AgencyConfigFile(file, read).settings()).toBe(read);
    expect(new AgencyConfigFile(file, read).file).toBe(file);
  });

  it('creates the file when there is none, as svc.config.json writes a provider, readable back', async () => {
    const { file, cert, key, ca, dir } = place();
    const beta: AgencyProvider = { name: 'beta', url: 'https://trust.beta.example', auth: { kind: 'cert', cert, key }, ca };
    await new AgencyConfigFile(file, undefined).addProviders([ACME, beta], { replace: false });
    expect(text(file)).toBe(
      `${JSON.stringify(
        {
          agency: {
            providers: [
              { name: 'acme', url: 'https://trust.acme.example', fedramp_id: 'FR2611250001', class: 'B', auth: { kind: 'negotiate' } },
              { name: 'beta', url: 'https://trust.beta.example', auth: { kind: 'cert', cert, key }, ca },
            ],
          },
        },
        null,
        2,
      )}\n`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(reread(file)).toEqual({ providers: [ACME, beta], pull: DEFAULT_PULL_SETTINGS });
    // Nothing left beside it (the atomic write's temporary file is gone).
    expect(readdirSync(dir).sort()).toEqual(['acme.token', 'agency.crt', 'agency.key', 'ca.pem', 'svc.config.json']);
  });

  it('keeps every other key as it was, a byte-order mark dropped', async () => {
    const { file, token } = place();
    const before = {
      $schema: './svc.config.schema.json',
      owners: { AC: 'iam@example.gov' },
      conmon: { sinks: ['ndjson:events.ndjson'] },
      agency: { name: 'Dept of Examples', providers: [{ name: 'acme', url: 'https://trust.acme.example' }], pull: { concurrency: 2 } },
      sla_days: { High: 30 },
    };
    writeFileSync(file, `\uFEFF${JSON.stringify(before)}`);
    const gamma: AgencyProvider = { name: 'gamma', url: 'https://gamma.example', auth: { kind: 'token', tokenFile: token } };
    await new AgencyConfigFile(file, undefined).addProviders([gamma], { replace: false });
    const after = json(file);
    expect(after).toEqual({
      ...before,
      agency: {
        ...before.agency,
        providers: [...before.agency.providers, { name: 'gamma', url: 'https://gamma.example', auth: { kind: 'token', token_file: token } }],
      },
    });
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(text(file).startsWith('{\n  "$schema"')).toBe(true);
  });

  it('a name already there: refused with --replace named, the file untouched; with replace, replaced where it was', async () => {
    const { file } = place();
    const before = `${JSON.stringify(
      {
        agency: {
          providers: [
            { name: 'acme', url: 'https://old.example' },
            { name: 'beta', url: 'https://beta.example' },
          ],
        },
      },
      null,
      2,
    )}\n`;
    writeFileSync(file, before);
    const config = new AgencyConfigFile(file, undefined);
    await expect(config.addProviders([ACME], { replace: false })).rejects.toMatchObject({
      kind: 'conflict',
      code: 'agency-provider-exists',
      message: `${file}: agency.providers already names "acme"; pass --replace to replace it, or choose another name`,
    });
    expect(text(file)).toBe(before);
    await config.addProviders([ACME], { replace: true });
    expect(reread(file)!.providers.map((p) => [p.name, p.url])).toEqual([
      ['acme', 'https://trust.acme.example'],
      ['beta', 'https://beta.example'],
    ]);
  });

  it.each<[string, (p: ReturnType<typeof place>) => AgencyProvider, (p: ReturnType<typeof place>) => string]>([
    [
      'a CA that is not there',
      (p) => ({ ...ACME, ca: join(p.dir, 'none.pem') }),
      (p) => `${join(p.dir, 'none.pem')}: no such file (--ca of provider "acme"); give the path of an existing file`,
    ],
    [
      'a client certificate that is a directory',
      (p) => ({ ...ACME, auth: { kind: 'cert', cert: p.dir, key: p.key } }),
      (p) => `${p.dir}: no such file (--cert of provider "acme"); give the path of an existing file`,
    ],
    [
      'a key that is not there',
      (p) => ({ ...ACME, auth: { kind: 'cert', cert: p.cert, key: join(p.dir, 'gone.key') } }),
      (p) => `${join(p.dir, 'gone.key')}: no such file (--key of provider "acme"); give the path of an existing file`,
    ],
    [
      'a token file that is not there',
      (p) => ({ ...ACME, auth: { kind: 'token', tokenFile: join(p.dir, 'gone.token') } }),
      (p) => `${join(p.dir, 'gone.token')}: no such file (--token-file of provider "acme"); give the path of an existing file`,
    ],
  ])('%s: refused before anything is written', async (_what, provider, message) => {
    const p = place();
    await expect(new AgencyConfigFile(p.file, undefined).addProviders([provider(p)], { replace: false })).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'agency-file-missing',
      message: message(p),
    });
    expect(readdirSync(p.dir)).not.toContain('svc.config.json');
  });

  it.each<[string, string, (file: string) => string, string]>([
    [
      'not JSON',
      '{"agency": ',
      (file) => `${file}: invalid JSON at line 1, column 12: Unexpected end of JSON input; fix the syntax there (a JSON validator shows the context)`,
      'invalid-json',
    ],
    ['not an object', '[]', (file) => `${file}: $: expected an object; see docs/configuration.md`, 'invalid-config'],
    [
      'a setting svc does not know',
      '{"agency": {"providers": []}, "agnecy": {}}',
      (file) =>
        `${file}: agnecy: unknown setting (known: owners, sla_days, ksis, oscal_schemas, fedramp_schemas, conmon, fedramp, vulnerabilities, agency); see docs/configuration.md`,
      'invalid-config',
    ],
    [
      'a provider svc cannot read',
      '{"agency": {"providers": [{"name": "old", "url": "ftp://old.example"}]}}',
      (file) => `${file}: agency.providers[0].url: ftp: is not http or https; see docs/configuration.md`,
      'invalid-config',
    ],
  ])('a file %s is refused and left as it was', async (_what, content, message, code) => {
    const { file } = place();
    writeFileSync(file, content);
    await expect(new AgencyConfigFile(file, undefined).addProviders([ACME], { replace: false })).rejects.toMatchObject({
      kind: 'invalid-input',
      code,
      message: message(file),
    });
    expect(text(file)).toBe(content);
  });

  it('the file a directory, or in a directory that is not there: one line naming it', async () => {
    const { dir } = place();
    const asDir = join(dir, 'svc.config.json');
    mkdirSync(asDir);
    await expect(new AgencyConfigFile(asDir, undefined).addProviders([ACME], { replace: false })).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'input-is-directory',
      message: `${asDir}: is a directory, expected a file; pass the file itself`,
    });
    const nowhere = join(dir, 'gone', 'svc.config.json');
    await expect(new AgencyConfigFile(nowhere, undefined).addProviders([ACME], { replace: false })).rejects.toMatchObject({
      kind: 'not-found',
      code: 'file-not-found',
      message: `${nowhere}: no such configuration file; check the path`,
    });
  });
});
