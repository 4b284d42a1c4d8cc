import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, REFERENCE, svc } from '../support/run-svc';

const SCHEMAS = join(REFERENCE, 'fedramp', 'cr26-schemas');
const FIXED = 'fixtures/fedramp';
const SDR = `${FIXED}/sdr-minimal.json`;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-fedramp-validate-'));
  env = { SVC_FEDRAMP_SCHEMAS: SCHEMAS, SVC_CACHE_DIR: join(tmp, 'cache'), SVC_HOME: join(tmp, 'home') };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => svc(['fedramp', 'validate', ...args], { env: { ...env, ...extra } });
const at = (name: string) => join(tmp, name);
const fixture = (type: string) => JSON.parse(readFileSync(join(FIXTURES, 'fedramp', `${type}-minimal.json`), 'utf8')) as Record<string, unknown>;
const write = (name: string, document: unknown) => (writeFileSync(at(name), JSON.stringify(document, null, 2)), at(name));
const schemaOf = (stem: string) => `fedramp-${stem}-schema-2026-06-24.json`;
/** What the first line says of the schema that judged: its name, then its $schemaVersion and sha256 (the name says nothing). */
const judgedBy = (stem: string, dir = SCHEMAS) => {
  const bytes = readFileSync(join(dir, schemaOf(stem)));
  return `${schemaOf(stem)} ($schemaVersion ${(JSON.parse(bytes.toString('utf8')) as { $schemaVersion: string }).$schemaVersion}, sha256:${createHash('sha256').update(bytes).digest('hex')})`;
};

const INVALID_SDR_LINES = [
  'Schema (3 errors):',
  '  certificationPackageOverviewUri: must be a valid uri',
  "  keySecurityIndicators[0]: must have required property 'ksiAssessment'",
  '  keySecurityIndicators[0].ksiEvidence[0].evidenceType: must be one of: Log, Report, Screenshot, Configuration, Policy, Procedure, Audit Record',
  'Invalid: 3 errors',
];
function invalidSdr(): Record<string, unknown> {
  const sdr = fixture('sdr');
  const ksi = (sdr.keySecurityIndicators as Record<string, unknown>[])[0];
  delete ksi.ksiAssessment;
  (ksi.ksiEvidence as Record<string, unknown>[])[0].evidenceType = 'Scan';
  return { ...sdr, certificationPackageOverviewUri: 'not a uri' };
}

describe('svc fedramp validate', () => {
  it.each([
    ['sdr', 'Security Decision Record', 'security-decision-record'],
    ['cpo', 'Certification Package Overview', 'certification-package-overview'],
    ['ocr', 'Ongoing Certification Report', 'ongoing-certification-report'],
    ['avi', 'Accepted Vulnerability Info', 'accepted-vulnerability-info'],
  ])('finds the project fixture %s valid, its type told from its keys (exit 0)', (type, title, stem) => {
    const file = `${FIXED}/${type}-minimal.json`;
    expect(run([file])).toEqual({ status: 0, stdout: `${file}: FedRAMP ${title} (${type}, from its keys), judged by ${judgedBy(stem)}\nValid\n`, stderr: '' });
    expect(run([file, '--type', type]).stdout).toBe(`${file}: FedRAMP ${title} (${type}, --type), judged by ${judgedBy(stem)}\nValid\n`);
  });

  it('lists each schema error with its JSON path, one per line, and exits 1', () => {
    const file = write('bad-sdr.json', invalidSdr());
    expect(run([file])).toEqual({
      status: 1,
      stdout: [
        `${file}: FedRAMP Security Decision Record (sdr, from its keys), judged by ${judgedBy('security-decision-record')}`,
        ...INVALID_SDR_LINES,
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('judges by --type when given, even against what the document looks like', () => {
    const result = run([`${FIXED}/avi-minimal.json`, '--type', 'sdr']);
    expect(result).toEqual({
      status: 1,
      stdout: [
        `${FIXED}/avi-minimal.json: FedRAMP Security Decision Record (sdr, --type), judged by ${judgedBy('security-decision-record')}`,
        'Schema (1 error):',
        "  $: must have required property 'fedRampRequirements'",
        'Invalid: 1 error',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(run([SDR, '--type', 'cpo']).stdout).toContain("  $: must have required property 'serviceIdentification'\n");
  });

  it('takes the type from a "$schema" naming a FedRAMP schema, before the keys', () => {
    const file = write('assessor.json', {
      $schema: `https://fedramp.gov/schemas/${schemaOf('assessor-information')}`,
      serviceDescription: 'Independent assessment of cloud services.',
      contactInformation: [],
      servicesOffered: [],
    });
    expect(run([file]).stdout).toMatch(
      new RegExp(
        `^${file}: FedRAMP Assessor Information \\(assessor, from its \\$schema\\), judged by ${judgedBy('assessor-information').replace(/[$()]/g, '\\$&')}\\n`,
      ),
    );
  });

  it('exits 3 when the type cannot be told, naming --type', () => {
    const unknown = write('unknown.json', { certificationPackageOverviewUri: 'https://x.example' });
    expect(run([unknown])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${unknown}: cannot tell which CR26 document this is (no "$schema" naming a FedRAMP schema, none of the top-level keys that identify one); pass --type sdr|cpo|ocr|scn|vdr|avi|history|incident|assessor|advisor\n`,
    });
    const both = write('both.json', { ...fixture('sdr'), ...fixture('cpo') });
    expect(run([both]).status).toBe(3);
    expect(run([both]).stderr).toMatch(
      /has top-level keys of more than one CR26 document: sdr \(fedRampRequirements, keySecurityIndicators\), cpo \(serviceIdentification, serviceProperties\); pass --type/,
    );
    const marketplace = write('marketplace.json', { serviceDescription: 'x', contactInformation: [], servicesOffered: [] });
    expect(run([marketplace]).stderr).toBe(
      `Error: ${marketplace}: assessor and advisor information have the same keys; pass --type assessor or --type advisor (or name the schema in "$schema")\n`,
    );
    expect(run([marketplace, '--type', 'advisor']).stdout.split('\n')[0]).toBe(
      `${marketplace}: FedRAMP Advisor Information (advisor, --type), judged by ${judgedBy('advisor-information')}`,
    );
  });

  it('exits 3 for a file that is not JSON, with its line and column', () => {
    writeFileSync(at('not-json.json'), '{\n  "fedRampRequirements": [\n');
    const result = run([at('not-json.json')]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      3,
      '',
      expect.stringMatching(/^Error: .*not-json\.json: invalid JSON at line 3, column \d+: .*\n$/),
    ]);
  });

  it("with no --schemas, environment or config, judges by the newest schemas svc carries (FedRAMP's of 2026-10-08)", () => {
    const file = join(FIXTURES, 'fedramp', 'sdr-minimal.json');
    const none = svc(['fedramp', 'validate', file], { cwd: tmp, env: { SVC_CACHE_DIR: env.SVC_CACHE_DIR, SVC_FEDRAMP_SCHEMAS: '' } });
    expect(none).toEqual({
      status: 0,
      stdout: `${file}: FedRAMP Security Decision Record (sdr, from its keys), judged by ${schemaOf('security-decision-record')} ($schemaVersion 1.1.1, sha256:6a6d7dca1a9ae0031c06df6213bf5c5631e9b9b5fb81c050403cfd723484be86, svc's 2026-10-08 set)\nValid\n`,
      stderr: '',
    });
  });

  it('exits 5 with one line naming the three ways when the directory given holds no schemas', () => {
    const message =
      'FedRAMP schemas not found: pass --schemas <dir>, set SVC_FEDRAMP_SCHEMAS, or set "fedramp_schemas" in svc.config.json to a directory holding FedRAMP\'s CR26 schemas (fedramp-*-schema-<date>.json)';
    mkdirSync(at('empty'));
    expect(run([SDR, '--schemas', at('empty')])).toEqual({
      status: 5,
      stdout: '',
      stderr: `Error: ${message.replace('found:', `found in ${at('empty')}:`)}\n`,
    });
    expect(run([SDR], { SVC_FEDRAMP_SCHEMAS: at('empty') }).stderr).toBe(`Error: ${message.replace('found:', `found in ${at('empty')}:`)}\n`);
  });

  it("gives the same results on FedRAMP's fixed files (cross-file refs with #), found through --schemas and the config", () => {
    const fixed = at('fixed-schemas');
    mkdirSync(fixed);
    for (const name of readdirSync(SCHEMAS).filter((f) => f.endsWith('.json'))) {
      const text = readFileSync(join(SCHEMAS, name), 'utf8').replace(/(fedramp-common-definitions-schema-2026-06-24\.json)\/\$defs\//g, '$1#/$defs/');
      writeFileSync(join(fixed, name), text);
    }
    expect(readFileSync(join(fixed, schemaOf('security-decision-record')), 'utf8')).toContain('schema-2026-06-24.json#/$defs/certificationPackageOverviewUri');
    const bad = write('bad-sdr.json', invalidSdr());
    // The same verdicts and problems; the first line names the schema by its sha256, which the fix changed.
    const [, ...rest] = run([bad]).stdout.split('\n');
    for (const [file, stem] of [...['sdr', 'cpo', 'ocr', 'avi'].map((type) => `${FIXED}/${type}-minimal.json`), bad].map((f, i) => [
      f,
      ['security-decision-record', 'certification-package-overview', 'ongoing-certification-report', 'accepted-vulnerability-info', 'security-decision-record'][
        i
      ],
    ])) {
      const [original, fromFixed] = [run([file]), run([file, '--schemas', fixed])];
      expect(fromFixed.stdout.split('\n')[0]).toBe(original.stdout.split('\n')[0].replace(judgedBy(stem), judgedBy(stem, fixed)));
      expect({ ...fromFixed, stdout: fromFixed.stdout.split('\n').slice(1) }).toEqual({ ...original, stdout: original.stdout.split('\n').slice(1) });
    }
    expect(rest).toEqual([...INVALID_SDR_LINES, '']);
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp_schemas: 'fixed-schemas' }));
    const viaConfig = svc(['fedramp', 'validate', join(FIXTURES, 'fedramp', 'avi-minimal.json')], {
      cwd: tmp,
      env: { SVC_CACHE_DIR: env.SVC_CACHE_DIR, SVC_FEDRAMP_SCHEMAS: '' },
    });
    expect([viaConfig.status, viaConfig.stdout.endsWith('\nValid\n')]).toEqual([0, true]);
  });

  it('--json: the verdict, the type and how it was told, the schema with its $schemaVersion and sha256, every problem', () => {
    const file = write('bad-sdr.json', invalidSdr());
    const result = run([file, '--json']);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      file,
      type: 'sdr',
      title: 'Security Decision Record',
      detected_by: 'keys',
      schema: join(SCHEMAS, schemaOf('security-decision-record')),
      schema_version: '1.0.0',
      schema_sha256: 'sha256:d598637cd4bb0f52425d7186ddc6f9463dcdda02734533623322e031d9b97b1a',
      schema_dir: SCHEMAS,
      definitions: {
        schema: schemaOf('common-definitions'),
        schema_version: '0.1.1',
        schema_sha256: 'sha256:b6cffd3632ba524cc5a5e44f6c62e6fdcae7993221e558d32761f15d212117c1',
      },
      valid: false,
      errors: 3,
      problems: [
        { layer: 'schema', rule: 'format', path: 'certificationPackageOverviewUri', message: 'must be a valid uri' },
        { layer: 'schema', rule: 'required', path: 'keySecurityIndicators[0]', message: "must have required property 'ksiAssessment'" },
        {
          layer: 'schema',
          rule: 'enum',
          path: 'keySecurityIndicators[0].ksiEvidence[0].evidenceType',
          message: 'must be one of: Log, Report, Screenshot, Configuration, Policy, Procedure, Audit Record',
        },
      ],
    });
  });

  it('compiles each schema once into the cache; later runs load it', () => {
    const cache = at('own-cache');
    run([SDR], { SVC_CACHE_DIR: cache });
    const files = readdirSync(join(cache, 'fedramp'));
    expect(files.filter((f) => f.endsWith('.js'))).toHaveLength(1);
    expect(run([SDR], { SVC_CACHE_DIR: cache }).status).toBe(0);
    expect(readdirSync(join(cache, 'fedramp')).filter((f) => f.endsWith('.js'))).toEqual(files.filter((f) => f.endsWith('.js')));
  });

  it('--json with the schemas svc carries: the 2026-10-08 set named, its SDR schema 1.1.1 and definitions 0.4.0', () => {
    const result = run([SDR, '--json'], { SVC_FEDRAMP_SCHEMAS: '' });
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      schema: expect.stringMatching(/\/schemas\/fedramp\/2026-10-08\/fedramp-security-decision-record-schema-2026-06-24\.json$/),
      schema_version: '1.1.1',
      schema_sha256: 'sha256:6a6d7dca1a9ae0031c06df6213bf5c5631e9b9b5fb81c050403cfd723484be86',
      definitions: {
        schema: schemaOf('common-definitions'),
        schema_version: '0.4.0',
        schema_sha256: 'sha256:62c59d20731cbbd3151951c6772a5cd75439f338dc4f7f1adb522dcfc7424cc9',
      },
      schema_generation: '2026-10-08',
      valid: true,
    });
    expect(Object.keys(out)).toEqual([
      'file',
      'type',
      'title',
      'detected_by',
      'schema',
      'schema_version',
      'schema_sha256',
      'schema_dir',
      'definitions',
      'schema_generation',
      'valid',
      'errors',
      'problems',
    ]);
  });
});
