import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FEDRAMP_SCHEMA_GENERATIONS, FEDRAMP_SCHEMAS, fedrampSchemaErrors, judgedBy } from '../support/fedramp-schemas';
import { ROOT, svc, type SvcRun } from '../support/run-svc';

const RULES_VERSION = (JSON.parse(readFileSync(join(ROOT, 'src', 'domain', 'fedramp', 'data', 'cr26-rules.json'), 'utf8')) as { info: { version: string } })
  .info.version;
const SVC_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const CPO_SCHEMA = 'fedramp-certification-package-overview-schema-2026-06-24.json';
const NOT_FOUND =
  'FedRAMP schemas not found: pass --schemas <dir>, set SVC_FEDRAMP_SCHEMAS, or set "fedramp_schemas" in svc.config.json to a directory holding FedRAMP\'s CR26 schemas (fedramp-*-schema-<date>.json)';

let tmp: string;
let env: NodeJS.ProcessEnv;
let dirs = 0;

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'svc-fedramp-cpo-')));
  env = { SVC_FEDRAMP_SCHEMAS: FEDRAMP_SCHEMAS, SVC_CACHE_DIR: join(tmp, 'cache'), SVC_HOME: join(tmp, 'home'), SOURCE_DATE_EPOCH: '1767225600' };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const profile = (): Record<string, unknown> => ({
  type: '20x',
  class: 'B',
  path: 'program',
  status: 'applying',
  fedramp_id: 'FR2612345678',
  package_uri: 'https://trust.example.com/fedramp/cpo.json',
  evidence_base_uri: 'https://trust.example.com/fedramp',
  accountable_official: { name: 'Ada Lovelace', title: 'Chief Information Security Officer', email: 'ciso@example.com' },
  assessor_summary: 'assessor-summary.md',
  cpo: {
    serviceIdentification: {
      providerName: 'Example Cloud, Inc.',
      serviceName: 'Example Platform',
      serviceAcronym: 'EXP',
      serviceDescription: 'A multi-tenant platform for case management.',
      website: 'https://example.com',
      logo: 'https://example.com/logo.png',
    },
    serviceProperties: {
      serviceType: ['SaaS'],
      deploymentModel: 'Public Cloud',
      businessCategory: ['Data Management'],
      trustCenter: {
        repositoryType: ['Trust Center'],
        url: 'https://trust.example.com',
        repositoryDescription: 'Certification data',
        authenticationRequired: true,
        accessRequestInstructions: 'Ask security@example.com.',
      },
    },
    contactInformation: [
      { contactType: 'Security', contactName: 'Security Team', contactEmail: 'security@example.com' },
      { contactType: 'Sales', contactName: 'Sales Team', contactEmail: 'sales@example.com', contactPhone: '202-555-0123' },
    ],
    assessor: { name: 'Independent Assessments LLC', assessorID: '123456' },
    certifiedServices: [{ serviceName: 'Cases', serviceDescription: 'Case management', dateAvailable: '2026-01-15' }],
    thirdPartyInformationResources: {
      certified: [{ fedRampCertifiedThirdPartyInformationResource: 'FR1234567890', useCase: 'Infrastructure' }],
      nonCertified: [{ name: 'Mailer', provider: 'Mail Inc.', website: 'https://mail.example', useCase: 'Notification email' }],
    },
  },
});

/** A fresh working directory holding svc.config.json with `fedramp` and the assessor's summary. */
function workDir(fedramp: Record<string, unknown> = profile()): string {
  const dir = join(tmp, `work-${++dirs}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp }, null, 2));
  writeFileSync(join(dir, 'assessor-summary.md'), '## Overall summary\n\nEvery KSI was verified.\n');
  return dir;
}

const cpo = (cwd: string, args: string[] = [], extra: NodeJS.ProcessEnv = {}): SvcRun => svc(['fedramp', 'cpo', ...args], { cwd, env: { ...env, ...extra } });
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** A directory's entries; `all` keeps the writer's generation links (`.svc-current`, `.svc-gen-*`, docs/artifacts.md). */
const listing = (dir: string, all = true) =>
  readdirSync(dir)
    .filter((name) => all || !name.startsWith('.svc-'))
    .sort();
const INPUTS = ['assessor-summary.md', 'svc.config.json'];

describe('svc fedramp cpo', () => {
  it("writes cpo.json, valid against FedRAMP's schema, and its twin, byte-identical run to run", () => {
    const dir = workDir();
    const run = cpo(dir);
    const file = join(dir, 'cpo.json');
    expect(run).toEqual({ status: 0, stdout: `CPO written to cpo.json (sha256:${sha256(file)})\nMarkdown twin written to cpo.md\n`, stderr: '' });
    // Into an existing directory the writer swaps generations through links (docs/artifacts.md, "Crashes").
    expect(listing(dir, false)).toEqual(['assessor-summary.md', 'cpo.json', 'cpo.md', 'svc.config.json']);
    const document = JSON.parse(readFileSync(file, 'utf8'));
    expect(fedrampSchemaErrors('cpo', document)).toEqual([]);
    expect(document.serviceIdentification).toMatchObject({ fedRampPackageId: 'FR2612345678', certificationType: '20x', serviceName: 'Example Platform' });
    expect(document.certificationPackageOverviewUri).toBe('https://trust.example.com/fedramp/cpo.json');
    expect(document.metadata).toEqual({
      accountableOfficial: { name: 'Ada Lovelace', title: 'Chief Information Security Officer', email: 'ciso@example.com' },
      version: expect.stringMatching(/^[0-9a-f]{12}$/),
      lastUpdated: '2026-01-01T00:00:00Z',
      updateSource: `svc ${SVC_VERSION} fedramp cpo`,
    });
    // No OCR recorded: the first is due 3 months after the CPO's date (CCM-OCR-NRD).
    expect(document.serviceProperties.nextOngoingCertificationReportDate).toBe('2026-04-01');

    const first = [readFileSync(file), readFileSync(join(dir, 'cpo.md'))];
    expect(cpo(dir).status).toBe(0);
    expect(readFileSync(file).equals(first[0])).toBe(true);
    expect(readFileSync(join(dir, 'cpo.md')).equals(first[1])).toBe(true);

    const twin = first[1].toString('utf8');
    expect(twin.split('\n')[0]).toBe('# Certification Package Overview: Example Platform');
    expect(twin).toContain('- FedRAMP ID: FR2612345678\n');
    expect(twin).toContain(`- Rules: FedRAMP Consolidated Rules ${RULES_VERSION}\n`);
    expect(twin).toContain(`by svc ${SVC_VERSION}`);
    expect(twin).toContain(`| Version | ${document.metadata.version} |\n`);
    expect(twin).toContain('\n## Overall summary of assessment (CPO-CSO-OSA)\n\nSupplied by the assessor (assessor-summary.md, sha256:');
    expect(twin).toContain('> ## Overall summary\n>\n> Every KSI was verified.\n');
  });

  it('writes where --out says, dates the CPO at --now, and prints the result under --json', () => {
    const dir = workDir();
    const run = cpo(dir, ['--out', 'pkg/overview.json', '--now', '2026-12-01T08:30:00Z', '--json']);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const written = join(dir, 'pkg', 'overview.json');
    expect(JSON.parse(run.stdout)).toEqual({
      file: { path: 'pkg/overview.json', name: 'overview.json', sha256: `sha256:${sha256(written)}`, bytes: readFileSync(written).length },
      twin: {
        path: 'pkg/overview.md',
        name: 'overview.md',
        sha256: `sha256:${sha256(join(dir, 'pkg', 'overview.md'))}`,
        bytes: readFileSync(join(dir, 'pkg', 'overview.md')).length,
      },
      fedramp_id: 'FR2612345678',
      validation: { validated: true, schema: CPO_SCHEMA, judged_by: judgedBy(FEDRAMP_SCHEMAS, 'cpo') },
    });
    expect(JSON.parse(readFileSync(written, 'utf8')).metadata.lastUpdated).toBe('2026-12-01T08:30:00Z');
    expect(readFileSync(join(dir, 'pkg', 'overview.md'), 'utf8')).toContain('- Machine-readable twin: overview.json');
  });

  it.each([
    ['type', 'write "20x" or "rev5", or pass --type'],
    ['class', 'write A, B, C or D, or pass --class'],
    ['fedramp_id', 'write the FedRAMP id of the offering (a placeholder until FedRAMP assigns one)'],
    ['package_uri', 'write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"'],
    ['cpo', 'write an object in the CPO schema\'s field names ("serviceIdentification", ...)'],
    ['accountable_official', 'write {"name", "title", "email"} of the accountable official'],
  ])('exits 3 without fedramp.%s, on one line naming it, and writes nothing', (key, fix) => {
    const fedramp = profile();
    delete fedramp[key];
    const dir = workDir(fedramp);
    expect(cpo(dir)).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${join(dir, 'svc.config.json')}: fedramp.${key}: missing; svc fedramp cpo needs it: ${fix}; see docs/configuration.md\n`,
    });
    expect(listing(dir)).toEqual(INPUTS);
  });

  it("exits 3 naming the profile path when FedRAMP's schema rejects the CPO, and writes nothing", () => {
    const fedramp = profile();
    (fedramp.cpo as Record<string, Record<string, unknown>>).serviceProperties.deploymentModel = 'Moon';
    const dir = workDir(fedramp);
    expect(cpo(dir)).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${join(dir, 'svc.config.json')}: fedramp.cpo.serviceProperties.deploymentModel: must be one of: Public Cloud, Government-Only Cloud, Hybrid Cloud, Community Cloud, Government Community Cloud; fix the profile so the CPO validates against FedRAMP's ${CPO_SCHEMA}; see docs/fedramp.md\n`,
    });
    expect(listing(dir)).toEqual(INPUTS);
  });

  it("exits 3 when the profile's CPO gives another FedRAMP ID than fedramp_id", () => {
    const fedramp = profile();
    (fedramp.cpo as Record<string, Record<string, unknown>>).serviceIdentification.fedRampPackageId = 'FR0000000001';
    const dir = workDir(fedramp);
    expect(cpo(dir)).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${join(dir, 'svc.config.json')}: fedramp.cpo.serviceIdentification.fedRampPackageId: "FR0000000001" differs from "FR2612345678", which svc writes from fedramp.fedramp_id; remove it from fedramp.cpo (or make the two agree); see docs/fedramp.md\n`,
    });
    expect(listing(dir)).toEqual(INPUTS);
  });

  it('with --substrate, writes the information resources and flows of a walked tree beside the CPO', () => {
    const dir = workDir();
    const tree = join(dir, 'infra');
    mkdirSync(join(tree, 'k8s'), { recursive: true });
    writeFileSync(
      join(tree, 'k8s', 'app.yaml'),
      [
        'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: app\n  namespace: prod\n',
        'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny-all\n  namespace: prod\nspec:\n  podSelector: {}\n  policyTypes: [Ingress, Egress]\n',
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: prod\nspec:\n  ports: [{port: 443}]\n',
      ].join('---\n'),
    );
    expect(svc(['substrate', 'walk', 'infra', '--out', 'snapshot.json'], { cwd: dir, env }).status).toBe(0);
    const snapshot = JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8'));

    const run = cpo(dir, ['--out', 'pkg/cpo.json', '--substrate', 'snapshot.json']);
    expect(run).toEqual({
      status: 0,
      stdout: [
        `CPO written to pkg/cpo.json (sha256:${sha256(join(dir, 'pkg', 'cpo.json'))})`,
        'Markdown twin written to pkg/cpo.md',
        'Information resources written to pkg/information-resources.json (3 resources)',
        'Information flows written to pkg/information-flows.json (2 network resources)',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(listing(join(dir, 'pkg'))).toEqual([
      'cpo.json',
      'cpo.md',
      'information-flows.json',
      'information-flows.md',
      'information-resources.json',
      'information-resources.md',
    ]);
    const command = 'svc substrate walk infra --out snapshot.json && svc fedramp cpo --substrate snapshot.json';
    const resources = JSON.parse(readFileSync(join(dir, 'pkg', 'information-resources.json'), 'utf8'));
    expect(resources).toEqual({
      schema: 'svc.fedramp-information-resources/v1',
      certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
      fedRampPackageId: 'FR2612345678',
      rule: 'MAS-CSO-IIR',
      snapshot: { schema: 'svc.substrate-snapshot/v1', root: 'infra', merkle_root: snapshot.merkle_root, files: 1, resources: 3 },
      derivation: expect.stringContaining('svc substrate walk read every file of the configuration tree "infra"'),
      command,
      counts: { total: 3, identity: 1, access: 0, network: 2, data: 0, other: 0 },
      resources: snapshot.resources.map(({ id, kind, category, file, sha256: hash }: Record<string, string>) => ({ id, kind, category, file, sha256: hash })),
    });
    const flows = JSON.parse(readFileSync(join(dir, 'pkg', 'information-flows.json'), 'utf8'));
    expect([flows.schema, flows.rule, flows.command, flows.resources.map((r: { kind: string }) => r.kind)]).toEqual([
      'svc.fedramp-information-flows/v1',
      'MAS-CSO-FLO',
      command,
      ['NetworkPolicy', 'Service'],
    ]);
    expect(flows.provider_must_describe).toContain('The provider must describe each permitted flow');
    for (const twin of ['information-resources.md', 'information-flows.md']) {
      const text = readFileSync(join(dir, 'pkg', twin), 'utf8');
      expect(text).toContain('- FedRAMP ID: FR2612345678\n');
      expect(text).toContain(`- Rules: FedRAMP Consolidated Rules ${RULES_VERSION}\n`);
      expect(text).toContain(`\`\`\`sh\n${command}\n\`\`\`\n`);
    }
    expect(readFileSync(join(dir, 'pkg', 'cpo.md'), 'utf8')).toContain('- Information resources (MAS-CSO-IIR): information-resources.json\n');
    expect(cpo(dir, ['--out', 'pkg/cpo.json', '--substrate', 'snapshot.json']).stdout).toBe(run.stdout);
  });

  it('validates the CPO against the schemas svc carries when none are configured (no note); --schemas naming none exits 5', () => {
    const dir = workDir();
    const run = cpo(dir, [], { SVC_FEDRAMP_SCHEMAS: '' });
    expect(run).toEqual({
      status: 0,
      stdout: `CPO written to cpo.json (sha256:${sha256(join(dir, 'cpo.json'))})\nMarkdown twin written to cpo.md\n`,
      stderr: '',
    });
    expect(JSON.parse(cpo(workDir(), ['--json'], { SVC_FEDRAMP_SCHEMAS: '' }).stdout).validation).toEqual({
      validated: true,
      schema: CPO_SCHEMA,
      judged_by: judgedBy(FEDRAMP_SCHEMA_GENERATIONS[2], 'cpo'),
    });
    const other = workDir();
    const nowhere = join(tmp, 'no-schemas');
    expect(cpo(other, ['--schemas', nowhere])).toEqual({
      status: 5,
      stdout: '',
      stderr: `Error: FedRAMP schemas not found in ${nowhere}: ${NOT_FOUND.slice('FedRAMP schemas not found: '.length)}\n`,
    });
    expect(listing(other)).toEqual(INPUTS);
  });

  it('refuses --class Z and --type 21x as usage errors (exit 2)', () => {
    const dir = workDir();
    expect(cpo(dir, ['--class', 'Z'])).toEqual({ status: 2, stdout: '', stderr: 'Error: --class Z: not a Certification Class; write A, B, C or D\n' });
    expect(cpo(dir, ['--type', '21x'])).toEqual({ status: 2, stdout: '', stderr: 'Error: --type 21x: not a certification type; write 20x or rev5\n' });
    expect(existsSync(join(dir, 'cpo.json'))).toBe(false);
  });
});
