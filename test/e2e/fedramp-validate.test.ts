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

const INVALID_SDR_LINES = [
  'Schema (3 errors):',
  "  certificationPackageOverviewUri: must be a valid uri",
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
    expect(run([file])).toEqual({ status: 0, stdout: `${file}: FedRAMP ${title} (${type}, from its keys), judged by ${schemaOf(stem)}\nValid\n`, stderr: '' });
    expect(run([file, '--type', type]).stdout).toBe(`${file}: FedRAMP ${title} (${type}, --type), judged by ${schemaOf(stem)}\nValid\n`);
  });

  it('lists each schema error with its JSON path, one per line, and exits 1', () => {
    const file = write('bad-sdr.json', invalidSdr());
    expect(run([file])).toEqual({
      status: 1,
      stdout: [`${file}: FedRAMP Security Decision Record (sdr, from its keys), judged by ${schemaOf('security-decision-record')}`, ...INVALID_SDR_LINES, ''].join('\n'),
      stderr: '',
    });
  });

  it('judges by --type when given, even against what the document looks like', () => {
    const result = run([`${FIXED}/avi-minimal.json`, '--type', 'sdr']);
    expect(result).toEqual({
      status: 1,
      stdout: [`${FIXED}/avi-minimal.json: FedRAMP Security Decision Record (sdr, --type), judged by ${schemaOf('security-decision-record')}`, 'Schema (1 error):', "  $: must have required property 'fedRampRequirements'", 'Invalid: 1 error', ''].join('\n'),
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
    expect(run([file]).stdout).toMatch(new RegExp(`^${file}: FedRAMP Assessor Information \\(assessor, from its \\$schema\\), judged by ${schemaOf('assessor-information')}\\n`));
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
    expect(run([both]).stderr).toMatch(/has top-level keys of more than one CR26 document: sdr \(fedRampRequirements, keySecurityIndicators\), cpo \(serviceIdentification, serviceProperties\); pass --type/);
    const marketplace = write('marketplace.json', { serviceDescription: 'x', contactInformation: [], servicesOffered: [] });
    expect(run([marketplace]).stderr).toBe(`Error: ${marketplace}: assessor and advisor information have the same keys; pass --type assessor or --type advisor (or name the schema in "$schema")\n`);
    expect(run([marketplace, '--type', 'advisor']).stdout).toMatch(/^\S+: FedRAMP Advisor Information \(advisor, --type\), judged by fedramp-advisor-information-schema-2026-06-24\.json\n/);
  });

  it('exits 3 for a file that is not JSON, with its line and column', () => {
    writeFileSync(at('not-json.json'), '{\n  "fedRampRequirements": [\n');
    const result = run([at('not-json.json')]);
    expect([result.status, result.stdout, result.stderr]).toEqual([3, '', expect.stringMatching(/^Error: .*not-json\.json: invalid JSON at line 3, column \d+: .*\n$/)]);
  });

  it('exits 5 with one line naming the three ways when no schemas are found', () => {
    const none = svc(['fedramp', 'validate', join(FIXTURES, 'fedramp', 'sdr-minimal.json')], { cwd: tmp, env: { SVC_CACHE_DIR: env.SVC_CACHE_DIR, SVC_FEDRAMP_SCHEMAS: '' } });
    const message =
      'FedRAMP schemas not found: pass --schemas <dir>, set SVC_FEDRAMP_SCHEMAS, or set "fedramp_schemas" in svc.config.json to a directory holding FedRAMP\'s CR26 schemas (fedramp-*-schema-<date>.json)';
    expect(none).toEqual({ status: 5, stdout: '', stderr: `Error: ${message}\n` });
    mkdirSync(at('empty'));
    expect(run([SDR, '--schemas', at('empty')]).stderr).toBe(`Error: ${message.replace('found:', `found in ${at('empty')}:`)}\n`);
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
    for (const type of ['sdr', 'cpo', 'ocr', 'avi']) {
      const file = `${FIXED}/${type}-minimal.json`;
      expect(run([file, '--schemas', fixed])).toEqual(run([file]));
    }
    expect(run([bad, '--schemas', fixed])).toEqual(run([bad]));
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp_schemas: 'fixed-schemas' }));
    const viaConfig = svc(['fedramp', 'validate', join(FIXTURES, 'fedramp', 'avi-minimal.json')], { cwd: tmp, env: { SVC_CACHE_DIR: env.SVC_CACHE_DIR, SVC_FEDRAMP_SCHEMAS: '' } });
    expect([viaConfig.status, viaConfig.stdout.endsWith('\nValid\n')]).toEqual([0, true]);
  });

  it('--json: the verdict, the type and how it was told, the schema, every problem', () => {
    const file = write('bad-sdr.json', invalidSdr());
    const result = run([file, '--json']);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      file,
      type: 'sdr',
      title: 'Security Decision Record',
      detected_by: 'keys',
      schema: join(SCHEMAS, schemaOf('security-decision-record')),
      schema_dir: SCHEMAS,
      valid: false,
      errors: 3,
      problems: [
        { layer: 'schema', rule: 'format', path: 'certificationPackageOverviewUri', message: 'must be a valid uri' },
        { layer: 'schema', rule: 'required', path: 'keySecurityIndicators[0]', message: "must have required property 'ksiAssessment'" },
        { layer: 'schema', rule: 'enum', path: 'keySecurityIndicators[0].ksiEvidence[0].evidenceType', message: 'must be one of: Log, Report, Screenshot, Configuration, Policy, Procedure, Audit Record' },
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
});
