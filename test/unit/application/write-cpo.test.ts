import { BuildCpo, profilePath } from '../../../src/application/fedramp/build-cpo';
import { WriteCpo } from '../../../src/application/fedramp/write-cpo';
import { OngoingJournal } from '../../../src/application/fedramp/ongoing-journal';
import { InMemoryRunStore } from '../../fakes/in-memory-run-store';
import type { FedrampProfile } from '../../../src/domain/fedramp/profile';
import { buildSnapshot } from '../../../src/domain/substrate/snapshot';
import { TEST_SETTINGS } from '../../support/builders';
import { FixedClock } from '../../fakes/fixed-clock';
import { FixedRulesSource } from '../../fakes/fixed-rules-source';
import { FixedSchemaValidator } from '../../fakes/fixed-schema-validator';
import { InMemoryArtifactWriter } from '../../fakes/in-memory-artifact-writer';
import { InMemoryReportReader } from '../../fakes/in-memory-report-reader';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import type { OscalProblem } from '../../../src/domain/oscal/oscal-problem';
import type { FedrampSchemaSet } from '../../../src/ports/schema-validator';

const FILE = '/work/svc.config.json';
const CPO_SCHEMA = 'fedramp-certification-package-overview-schema-2026-06-24.json';
const hashing = new PureJsHashing();

/** The fixed validator with a CPO schema in its set; `found: false` finds no schemas at all. */
class CpoSchemaValidator extends FixedSchemaValidator {
  constructor(problems: OscalProblem[] = [], found = true) {
    super(found ? undefined : (null as unknown as undefined), problems);
  }

  override async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    const set = await super.locateFedramp(dir);
    return { ...set, files: { ...set.files, cpo: `${set.dir}/${CPO_SCHEMA}` } };
  }
}

const full = (): FedrampProfile => ({
  type: '20x',
  class: 'B',
  fedramp_id: 'FR2612345678',
  package_uri: 'https://trust.example.com/fedramp/cpo.json',
  accountable_official: { name: 'Ada Lovelace', title: 'CISO', email: 'ciso@example.com' },
  cpo: {
    serviceIdentification: {
      providerName: 'Example Cloud, Inc.',
      serviceName: 'Example Platform',
      serviceAcronym: 'EXP',
      serviceDescription: 'Cases.',
      website: 'https://example.com',
      logo: 'https://example.com/logo.png',
    },
    serviceProperties: { serviceType: ['SaaS'], deploymentModel: 'Public Cloud' },
    contactInformation: [{ contactType: 'Security' }, { contactType: 'Sales' }],
  },
});

const snapshot = buildSnapshot(
  {
    root: 'infra',
    files: [{ path: 'k8s/app.yaml', sha256: 'ef'.repeat(32), bytes: 10, format: 'kubernetes' }],
    resources: [
      { id: 'k8s:v1/Service/prod/web', kind: 'Service', file: 'k8s/app.yaml', sha256: 'ab'.repeat(32), category: 'network' },
      { id: 'k8s:v1/ServiceAccount/prod/app', kind: 'ServiceAccount', file: 'k8s/app.yaml', sha256: 'cd'.repeat(32), category: 'identity' },
    ],
    skipped: [],
  },
  hashing,
);

function setup(profile: FedrampProfile = full(), validator: FixedSchemaValidator = new CpoSchemaValidator()) {
  const reader = new InMemoryReportReader({ '/work/summary.md': '# Summary\n\nAll met.\n', 'snap/snapshot.json': snapshot });
  const writer = new InMemoryArtifactWriter();
  const build = new BuildCpo(
    { file: FILE, profile },
    new FixedRulesSource(),
    TEST_SETTINGS,
    new FixedClock(),
    reader,
    validator,
    hashing,
    new OngoingJournal(new InMemoryRunStore()),
  );
  return { writer, validator, build, write: new WriteCpo(build, writer) };
}

describe('WriteCpo (svc fedramp cpo)', () => {
  it('writes cpo.json and its twin, validated against the CPO schema', async () => {
    const { write, writer, validator } = setup();
    const result = await write.execute({});
    expect([...writer.files.keys()]).toEqual(['./cpo.json', './cpo.md']);
    expect(result).toEqual({
      file: { path: 'cpo.json', name: 'cpo.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), bytes: expect.any(Number) },
      twin: { path: 'cpo.md', name: 'cpo.md', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), bytes: expect.any(Number) },
      fedramp_id: 'FR2612345678',
      validation: { validated: true, schema: CPO_SCHEMA },
    });
    expect(validator.validated).toEqual([{ version: 'cr26', model: 'cpo' }]);
    const cpo = JSON.parse(writer.files.get('./cpo.json') ?? '');
    expect(cpo.metadata.lastUpdated).toBe('2026-11-20T12:00:00Z');
    expect(cpo.metadata.updateSource).toBe('svc 0.5.0 fedramp cpo');
  });

  it.each(['type', 'class', 'fedramp_id', 'package_uri', 'cpo', 'accountable_official'] as const)(
    'names a missing fedramp.%s before reading or writing anything',
    async (key) => {
      const profile = full();
      delete profile[key];
      const { write, writer, validator } = setup(profile);
      await expect(write.execute({})).rejects.toMatchObject({
        code: 'invalid-config',
        message: expect.stringMatching(new RegExp(`^${FILE}: fedramp\\.${key}: missing; svc fedramp cpo needs it: `)),
      });
      expect([writer.files.size, validator.validated.length]).toEqual([0, 0]);
    },
  );

  it('takes type and class from the flags', async () => {
    const profile = full();
    delete profile.type;
    delete profile.class;
    const { write, writer } = setup(profile);
    await write.execute({ type: 'rev5', class: 'C' });
    expect(JSON.parse(writer.files.get('./cpo.json') ?? '').serviceIdentification.certificationType).toBe('Rev5');
  });

  it('reports schema problems as one error naming the profile paths, and writes nothing', async () => {
    const problem = (path: string, message: string) => ({ layer: 'schema' as const, rule: 'enum', path, message });
    const { write, writer } = setup(
      full(),
      new CpoSchemaValidator([
        problem('serviceProperties.deploymentModel', 'must be one of: Public Cloud'),
        problem('$', "must have required property 'contactInformation'"),
      ]),
    );
    await expect(write.execute({})).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'invalid-config',
      message: `${FILE}: fedramp.cpo.serviceProperties.deploymentModel: must be one of: Public Cloud; fedramp.cpo: must have required property 'contactInformation' (2 problems); fix the profile so the CPO validates against FedRAMP's ${CPO_SCHEMA}; see docs/fedramp.md`,
    });
    expect(writer.files.size).toBe(0);
  });

  it('maps the paths svc fills to the profile keys they come from', () => {
    expect(profilePath('serviceIdentification.fedRampPackageId')).toBe('fedramp.fedramp_id');
    expect(profilePath('certificationPackageOverviewUri')).toBe('fedramp.package_uri');
    expect(profilePath('metadata.accountableOfficial.email')).toBe('fedramp.accountable_official.email');
    expect(profilePath('contactInformation[1].contactPhone')).toBe('fedramp.cpo.contactInformation[1].contactPhone');
    expect(profilePath('["odd key"]')).toBe('fedramp.cpo["odd key"]');
  });

  it('writes without validating when no schemas are found, and says so; schemas passed that are not there fail', async () => {
    const none = setup(full(), new CpoSchemaValidator([], false));
    const result = await none.write.execute({ out: 'out/cpo.json' });
    expect(result.validation).toEqual({ validated: false, note: 'FedRAMP schemas not found' });
    expect([...none.writer.files.keys()]).toEqual(['out/cpo.json', 'out/cpo.md']);
    const passed = setup(full(), new CpoSchemaValidator([], false));
    await expect(passed.write.execute({ schemas: '/nope' })).rejects.toMatchObject({ kind: 'config', code: 'fedramp-schemas-missing' });
    expect(passed.writer.files.size).toBe(0);
  });

  it('quotes the assessor summary the profile names, and fails as the reader does when it is missing', async () => {
    const { write, writer } = setup({ ...full(), assessor_summary: '/work/summary.md' });
    await write.execute({});
    expect(writer.files.get('./cpo.md')).toContain('Supplied by the assessor (summary.md, sha256:');
    expect(writer.files.get('./cpo.md')).toContain('> # Summary\n>\n> All met.\n');
    const gone = setup({ ...full(), assessor_summary: '/work/gone.md' });
    await expect(gone.write.execute({})).rejects.toMatchObject({ code: 'file-not-found' });
    expect(gone.writer.files.size).toBe(0);
  });

  it('with a snapshot, writes the information resources and flows and their twins beside the CPO in one transaction', async () => {
    const { write, writer } = setup();
    const result = await write.execute({ out: 'pkg/cpo.json', substrate: 'snap/snapshot.json' });
    expect([...writer.files.keys()].sort()).toEqual([
      'pkg/cpo.json',
      'pkg/cpo.md',
      'pkg/information-flows.json',
      'pkg/information-flows.md',
      'pkg/information-resources.json',
      'pkg/information-resources.md',
    ]);
    expect([
      result.file.path,
      result.twin.path,
      result.resources?.file.path,
      result.resources?.twin.path,
      result.resources?.count,
      result.flows?.file.path,
      result.flows?.count,
    ]).toEqual(['pkg/cpo.json', 'pkg/cpo.md', 'pkg/information-resources.json', 'pkg/information-resources.md', 2, 'pkg/information-flows.json', 1]);
    const resources = JSON.parse(writer.files.get('pkg/information-resources.json') ?? '');
    expect(resources.command).toBe('svc substrate walk infra --out snapshot.json && svc fedramp cpo --substrate snapshot.json');
    expect(writer.files.get('pkg/cpo.md')).toContain('- Information resources (MAS-CSO-IIR): information-resources.json\n');
  });

  it('writes none of the six files when one of them fails', async () => {
    const { write, writer } = setup();
    writer.failWriting = 'information-flows.md';
    await expect(write.execute({ out: 'pkg/cpo.json', substrate: 'snap/snapshot.json' })).rejects.toThrow();
    expect(writer.files.size).toBe(0);
  });

  it('refuses a snapshot that is not one, before writing', async () => {
    const { build } = setup();
    const reader = new InMemoryReportReader({ 'bad.json': { schema: 'svc.substrate-snapshot/v1' } });
    const other = new BuildCpo(
      { file: FILE, profile: full() },
      new FixedRulesSource(),
      TEST_SETTINGS,
      new FixedClock(),
      reader,
      new CpoSchemaValidator(),
      hashing,
      new OngoingJournal(new InMemoryRunStore()),
    );
    await expect(other.execute({ substrate: 'bad.json' })).rejects.toMatchObject({ code: 'invalid-snapshot' });
    expect((await build.execute({ command: 'fedramp package' })).cpo.document.metadata.updateSource).toBe('svc 0.5.0 fedramp package');
  });
});
