import { buildCpo, cpoMarkdown, osaForce, type CpoInput, type CpoProfile } from '../../../../src/domain/fedramp/cpo';
import {
  informationFlows,
  informationFlowsMarkdown,
  informationResources,
  informationResourcesMarkdown,
  shellWord,
  type InformationResourcesInput,
} from '../../../../src/domain/fedramp/information-resources';
import { buildSnapshot, type SnapshotResource } from '../../../../src/domain/substrate/snapshot';
import { builtInRules } from '../../../fakes/fixed-rules-source';
import { PureJsHashing } from '../../../fakes/pure-js-hashing';

const hashing = new PureJsHashing();
const rules = builtInRules();
const HOSTILE = '| [x](http://e) <script>';
const HOSTILE_ESCAPED = '\\| \\[x\\](http://e) &lt;script>';
const TOOL = { name: 'svc', version: '0.5.0' };
const NOW = new Date('2026-11-20T12:00:00.123Z');

const providerCpo = (): Record<string, unknown> => ({
  serviceIdentification: {
    providerName: 'Example Cloud, Inc.',
    serviceName: 'Example Platform',
    serviceAcronym: 'EXP',
    serviceDescription: 'A multi-tenant platform for **case management**.',
    website: 'https://example.com',
    logo: 'https://example.com/logo.png',
  },
  serviceProperties: { serviceType: ['SaaS'], deploymentModel: 'Public Cloud' },
  contactInformation: [
    { contactType: 'Security', contactName: 'Security Team', contactEmail: 'security@example.com' },
    { contactType: 'Sales', contactEmail: 'sales@example.com', contactPhone: '202-555-0123' },
  ],
  assessor: { name: 'Assess Co', assessorID: '123456' },
  certifiedServices: [{ serviceName: 'Cases', serviceDescription: 'Case management', dateAvailable: '2026-01-15' }],
  thirdPartyInformationResources: { nonCertified: [{ name: 'Mailer', provider: 'Mail Inc', useCase: 'Email' }] },
});

const profile = (over: Partial<CpoProfile> = {}): CpoProfile => ({
  type: '20x',
  class: 'B',
  fedramp_id: 'FR2612345678',
  package_uri: 'https://trust.example.com/fedramp/cpo.json',
  accountable_official: { name: 'Ada Lovelace', title: 'CISO', email: 'ciso@example.com' },
  cpo: providerCpo(),
  ...over,
});

const input = (over: Partial<CpoInput> = {}): CpoInput => ({
  profile: profile(),
  file: '/etc/svc.config.json',
  now: NOW,
  updateSource: 'svc 0.5.0 fedramp cpo',
  ...over,
});
const twin = { class: 'B' as const, rules, tool: TOOL, json: 'cpo.json' };

describe('buildCpo (CPO-CSO-OVR)', () => {
  it("completes the provider's object: FedRAMP ID, certification type, URI and metadata, keeping every field it gives", () => {
    const cpo = buildCpo(input(), hashing);
    const given = providerCpo();
    expect(Object.keys(cpo)).toEqual([
      'serviceIdentification',
      'serviceProperties',
      'contactInformation',
      'assessor',
      'certifiedServices',
      'thirdPartyInformationResources',
      'certificationPackageOverviewUri',
      'metadata',
    ]);
    expect(cpo.serviceIdentification).toEqual({ fedRampPackageId: 'FR2612345678', certificationType: '20x', ...(given.serviceIdentification as object) });
    expect(Object.keys(cpo.serviceIdentification).slice(0, 2)).toEqual(['fedRampPackageId', 'certificationType']);
    expect(cpo.serviceProperties).toEqual(given.serviceProperties);
    for (const key of ['contactInformation', 'assessor', 'certifiedServices', 'thirdPartyInformationResources']) expect(cpo[key]).toEqual(given[key]);
    expect(cpo.certificationPackageOverviewUri).toBe('https://trust.example.com/fedramp/cpo.json');
    expect(cpo.metadata).toEqual({
      accountableOfficial: { name: 'Ada Lovelace', title: 'CISO', email: 'ciso@example.com' },
      version: expect.stringMatching(/^[0-9a-f]{12}$/),
      lastUpdated: '2026-11-20T12:00:00Z',
      updateSource: 'svc 0.5.0 fedramp cpo',
    });
  });

  it('writes Rev5 for a rev5 profile, and keeps top-level fields it does not know after its own sections', () => {
    const cpo = buildCpo(input({ profile: profile({ type: 'rev5', cpo: { newerField: 1, ...providerCpo() } }) }), hashing);
    expect(cpo.serviceIdentification.certificationType).toBe('Rev5');
    expect(Object.keys(cpo).slice(-3)).toEqual(['newerField', 'certificationPackageOverviewUri', 'metadata']);
  });

  it('accepts the values svc fills when the profile gives the same ones', () => {
    const cpo = providerCpo();
    (cpo.serviceIdentification as Record<string, unknown>).fedRampPackageId = 'FR2612345678';
    (cpo.serviceIdentification as Record<string, unknown>).certificationType = '20x';
    cpo.certificationPackageOverviewUri = 'https://trust.example.com/fedramp/cpo.json';
    expect(buildCpo(input({ profile: profile({ cpo }) }), hashing)).toEqual(buildCpo(input(), hashing));
  });

  it.each([
    [
      'serviceIdentification.fedRampPackageId',
      { fedRampPackageId: 'FR-OTHER' },
      '"FR-OTHER" differs from "FR2612345678", which svc writes from fedramp.fedramp_id; remove it from fedramp.cpo (or make the two agree)',
    ],
    [
      'serviceIdentification.certificationType',
      { certificationType: 'Rev5' },
      '"Rev5" differs from "20x", which svc writes from the certification type (fedramp.type or --type); remove it from fedramp.cpo (or make the two agree)',
    ],
  ])('refuses a profile whose %s conflicts with what svc fills, naming the key and the fix', (key, given, problem) => {
    const cpo = providerCpo();
    Object.assign(cpo.serviceIdentification as object, given);
    expect(() => buildCpo(input({ profile: profile({ cpo }) }), hashing)).toThrow(
      expect.objectContaining({ code: 'invalid-config', message: `/etc/svc.config.json: fedramp.cpo.${key}: ${problem}; see docs/fedramp.md` }),
    );
  });

  it('refuses metadata, another URI and a section that is no object', () => {
    const attempt = (over: Record<string, unknown>) => () => buildCpo(input({ profile: profile({ cpo: { ...providerCpo(), ...over } }) }), hashing);
    expect(attempt({ metadata: {} })).toThrow(
      'fedramp.cpo.metadata: svc writes the metadata (CPO-CSO-MTD) from fedramp.accountable_official and the run; remove it from fedramp.cpo',
    );
    expect(attempt({ certificationPackageOverviewUri: 'https://elsewhere.example/cpo.json' })).toThrow(
      'fedramp.cpo.certificationPackageOverviewUri: "https://elsewhere.example/cpo.json" differs from',
    );
    expect(attempt({ serviceProperties: 'SaaS' })).toThrow('fedramp.cpo.serviceProperties: "SaaS" is not an object');
  });

  it("writes the next OCR date from the recorded OCRs, keeps the profile's while there are none, and leaves it out without either", () => {
    const properties = (cpo: Record<string, unknown>) => cpo.serviceProperties as Record<string, unknown>;
    expect(properties(buildCpo(input(), hashing))).not.toHaveProperty('nextOngoingCertificationReportDate');
    expect(properties(buildCpo(input({ nextOcrDate: '2027-03-31' }), hashing)).nextOngoingCertificationReportDate).toBe('2027-03-31');
    const given = providerCpo();
    (given.serviceProperties as Record<string, unknown>).nextOngoingCertificationReportDate = '2027-01-31';
    expect(properties(buildCpo(input({ profile: profile({ cpo: given }) }), hashing)).nextOngoingCertificationReportDate).toBe('2027-01-31');
    expect(() => buildCpo(input({ profile: profile({ cpo: given }), nextOcrDate: '2027-03-31' }), hashing)).toThrow(
      'fedramp.cpo.serviceProperties.nextOngoingCertificationReportDate: "2027-01-31" differs from "2027-03-31", which svc writes from the last recorded OCR (CCM-OCR-NRD)',
    );
    // Before the first OCR: its target date, unless the profile gives one.
    expect(properties(buildCpo(input({ firstOcrDate: '2027-04-01' }), hashing)).nextOngoingCertificationReportDate).toBe('2027-04-01');
    expect(properties(buildCpo(input({ profile: profile({ cpo: given }), firstOcrDate: '2027-04-01' }), hashing)).nextOngoingCertificationReportDate).toBe(
      '2027-01-31',
    );
    expect(properties(buildCpo(input({ nextOcrDate: '2027-03-31', firstOcrDate: '2027-04-01' }), hashing)).nextOngoingCertificationReportDate).toBe(
      '2027-03-31',
    );
  });

  it('derives the version from the content, not the time; a given version wins', () => {
    const version = (over: Partial<CpoInput>) => buildCpo(input(over), hashing).metadata.version;
    expect(version({ now: new Date('2030-01-01T00:00:00Z') })).toBe(version({}));
    expect(version({ profile: profile({ fedramp_id: 'FR9999999999' }) })).not.toBe(version({}));
    expect(version({ summary: { name: 's.md', sha256: 'ab'.repeat(32), text: 'All met.' } })).not.toBe(version({}));
    expect(version({ version: '2026.1' })).toBe('2026.1');
  });
});

describe('cpoMarkdown (the twin)', () => {
  it("starts with the twin header: the FedRAMP ID, the package URI, the rules version and svc's version", () => {
    const md = cpoMarkdown(buildCpo(input(), hashing), twin);
    expect(md.split('\n')[0]).toBe('# Certification Package Overview: Example Platform');
    expect(md).toContain('- FedRAMP ID: FR2612345678\n');
    expect(md).toContain('- Certification Package Overview: https://trust.example.com/fedramp/cpo.json\n');
    expect(md).toContain(`- Rules: FedRAMP Consolidated Rules ${rules.info.version}\n`);
    expect(md).toContain('by svc 0.5.0');
    for (const heading of [
      'Service identification',
      'Service properties',
      'Contacts',
      'Independent assessor',
      'Certified services',
      'Third-party information resources',
      'Metadata (CPO-CSO-MTD)',
      'Overall summary of assessment (CPO-CSO-OSA)',
    ]) {
      expect(md).toContain(`\n## ${heading}\n`);
    }
    expect(md).toContain('| Accountable official | Ada Lovelace |\n| Title | CISO |\n| Email | ciso@example.com |\n');
    expect(md).toContain('| Security | Security Team | security@example.com |  |\n');
    expect(md).toContain('| Mailer | Mail Inc |  | Email |\n');
    expect(md).toContain('Next Ongoing Certification Report: not set yet. CCM-OCR-NRD');
    expect(md.endsWith('\n')).toBe(true);
  });

  it('escapes hostile text in every cell and quotes the Markdown the provider and assessor wrote', () => {
    const cpo = providerCpo();
    Object.assign(cpo.serviceIdentification as object, { providerName: HOSTILE, serviceName: HOSTILE, serviceDescription: `# Heading\n${HOSTILE}` });
    (cpo.contactInformation as Record<string, unknown>[])[0].contactName = HOSTILE;
    (cpo.certifiedServices as Record<string, unknown>[])[0].serviceDescription = `line one\n## not a heading ${HOSTILE}`;
    const document = buildCpo(input({ profile: profile({ cpo, accountable_official: { name: HOSTILE, title: 'CISO', email: 'ciso@example.com' } }) }), hashing);
    const md = cpoMarkdown(document, { ...twin, summary: { name: 'summary.md', sha256: 'cd'.repeat(32), text: `## Verdict\n\n${HOSTILE}\n` } });
    expect(md.split('\n')[0]).toBe(`# Certification Package Overview: ${HOSTILE_ESCAPED}`);
    expect(md).toContain(`| Provider | ${HOSTILE_ESCAPED} |\n`);
    expect(md).toContain(`| Security | ${HOSTILE_ESCAPED} | security@example.com |  |\n`);
    expect(md).toContain(`| Cases | 2026-01-15 | line one ## not a heading ${HOSTILE_ESCAPED} |\n`);
    expect(md).toContain(`| Accountable official | ${HOSTILE_ESCAPED} |\n`);
    expect(md).toContain('Description:\n\n> # Heading\n> | [x](http://e) &lt;script>\n');
    expect(md).toContain(`Supplied by the assessor (summary.md, sha256:${'cd'.repeat(32)}):\n\n> ## Verdict\n>\n> | [x](http://e) &lt;script>\n`);
    expect(md).not.toContain('<script>');
  });

  it("says when no assessor summary was supplied, with CPO-CSO-OSA's force for the class read from the rules", () => {
    const document = buildCpo(input(), hashing);
    expect(osaForce(rules, 'B')).toBe('MUST');
    expect(osaForce(rules, 'A')).toBe('MAY');
    expect(cpoMarkdown(document, twin)).toContain(
      "\n## Overall summary of assessment (CPO-CSO-OSA)\n\nNone supplied. CPO-CSO-OSA requires (MUST) the assessor's overall summary in the CPO for Class B: name the assessor's file in fedramp.assessor_summary.\n",
    );
    expect(cpoMarkdown(document, { ...twin, class: 'A' })).toContain(
      "None supplied (CPO-CSO-OSA: MAY for Class A); to include one, name the assessor's file in fedramp.assessor_summary.\n",
    );
  });

  it('names the information resources and flows files when they were written with it', () => {
    const md = cpoMarkdown(buildCpo(input(), hashing), { ...twin, related: { resources: 'information-resources.json', flows: 'information-flows.json' } });
    expect(md).toContain(
      '## Information resources and flows\n\n- Information resources (MAS-CSO-IIR): information-resources.json\n- Information flows (MAS-CSO-FLO): information-flows.json\n',
    );
    expect(cpoMarkdown(buildCpo(input(), hashing), twin)).not.toContain('Information resources (MAS-CSO-IIR)');
  });

  it('cites no rule the release in use does not hold (issue 34)', () => {
    const cited = ['MAS-CSO-IIR', 'MAS-CSO-FLO', 'CPO-CSO-MTD', 'CPO-CSO-OSA', 'CCM-OCR-NRD'];
    const lacking = { ...rules, rules: rules.rules.filter((r) => !cited.includes(r.id)) };
    const related = { resources: 'information-resources.json', flows: 'information-flows.json' };
    const held = cpoMarkdown(buildCpo(input(), hashing), { ...twin, related });
    expect(cited.filter((id) => held.includes(id))).toEqual(cited);
    const md = cpoMarkdown(buildCpo(input(), hashing), { ...twin, rules: lacking, related });
    expect(cited.filter((id) => md.includes(id))).toEqual([]);
    expect(md).toContain('\n- Information resources: information-resources.json\n- Information flows: information-flows.json\n');
    expect(md).toContain('\n## Metadata\n');
    expect(md).toContain("\n## Overall summary of assessment\n\nNone supplied; to include one, name the assessor's file in fedramp.assessor_summary.\n");
    expect(md).toContain('\nNext Ongoing Certification Report: not set yet. svc sets it from the last recorded OCR (its period end + 3 months).\n');
  });
});

describe('information resources (MAS-CSO-IIR) and flows (MAS-CSO-FLO)', () => {
  const resource = (id: string, kind: string, category: SnapshotResource['category']): SnapshotResource => ({
    id,
    kind,
    file: 'k8s/app.yaml',
    sha256: hashing.sha256(id),
    category,
  });
  const snapshot = buildSnapshot(
    {
      root: 'infra',
      files: [{ path: 'k8s/app.yaml', sha256: 'ef'.repeat(32), bytes: 10, format: 'kubernetes' }],
      resources: [
        resource('k8s:v1/ServiceAccount/prod/app', 'ServiceAccount', 'identity'),
        resource(`k8s:v1/Service/prod/${HOSTILE}`, 'Service', 'network'),
        resource('tf:aws_security_group.web', 'aws_security_group', 'network'),
      ],
      skipped: [],
    },
    hashing,
  );
  const from: InformationResourcesInput = {
    snapshot,
    snapshotFile: 'snapshot.json',
    fedrampId: 'FR2612345678',
    packageUri: 'https://trust.example.com/fedramp/cpo.json',
    generator: 'svc fedramp cpo --substrate snapshot.json',
    rules,
  };
  const twinOf = (json: string) => ({ service: 'Example Platform', rulesVersion: rules.info.version, tool: TOOL, generatedAt: '2026-11-20T12:00:00Z', json });

  it('lists every resource of the snapshot with where it came from, how, and the command', () => {
    const doc = informationResources(from);
    expect(doc).toEqual({
      schema: 'svc.fedramp-information-resources/v1',
      certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
      fedRampPackageId: 'FR2612345678',
      rule: 'MAS-CSO-IIR',
      snapshot: { schema: 'svc.substrate-snapshot/v1', root: 'infra', merkle_root: snapshot.merkle_root, files: 1, resources: 3 },
      derivation: expect.stringContaining("This file lists every one of the snapshot's 3 resources, in id order"),
      command: 'svc substrate walk infra --out snapshot.json && svc fedramp cpo --substrate snapshot.json',
      counts: { total: 3, identity: 1, access: 0, network: 2, data: 0, other: 0 },
      resources: snapshot.resources.map(({ id, kind, category, file, sha256 }) => ({ id, kind, category, file, sha256 })),
    });
    const md = informationResourcesMarkdown(doc, twinOf('information-resources.json'));
    expect(md.split('\n')[0]).toBe('# Information Resources: Example Platform');
    expect(md).toContain('- FedRAMP ID: FR2612345678\n');
    expect(md).toContain(`Rule: MAS-CSO-IIR. Snapshot: infra, Merkle root ${snapshot.merkle_root} (1 file, 3 resources).\n`);
    expect(md).toContain(
      '## The command that generated it\n\n```sh\nsvc substrate walk infra --out snapshot.json && svc fedramp cpo --substrate snapshot.json\n```\n',
    );
    expect(md).toContain(
      `| k8s:v1/Service/prod/${HOSTILE_ESCAPED} | Service | network | k8s/app.yaml | ${hashing.sha256(`k8s:v1/Service/prod/${HOSTILE}`)} |\n`,
    );
    expect(md).not.toContain('<script>');
  });

  it('lists the network resources as what governs flows, and says what the provider must describe', () => {
    const doc = informationFlows(from);
    expect(doc.schema).toBe('svc.fedramp-information-flows/v1');
    expect(doc.rule).toBe('MAS-CSO-FLO');
    expect(doc.resources.map((r) => r.id)).toEqual([`k8s:v1/Service/prod/${HOSTILE}`, 'tf:aws_security_group.web']);
    expect(doc.resources[0]).toEqual({
      id: `k8s:v1/Service/prod/${HOSTILE}`,
      kind: 'Service',
      file: 'k8s/app.yaml',
      sha256: hashing.sha256(`k8s:v1/Service/prod/${HOSTILE}`),
    });
    expect(doc.derivation).toContain("2 of the snapshot's 3 resources");
    expect(doc.provider_must_describe).toContain('The provider must describe each permitted flow between components');
    expect(doc.command).toBe(informationResources(from).command);
    const md = informationFlowsMarkdown(doc, twinOf('information-flows.json'));
    expect(md).toContain('## What the provider must describe\n\nsvc reads configuration, not traffic');
    expect(md).toContain('## Network resources (2)\n\n| id | kind | file | sha256 |\n');
    expect(md).not.toContain('<script>');
  });

  it('cites neither rule where the release in use holds neither (issue 34), and says the same otherwise', () => {
    const lacking = { ...rules, rules: rules.rules.filter((r) => !['MAS-CSO-IIR', 'MAS-CSO-FLO', 'MAS-CSO-TPR'].includes(r.id)) };
    const resources = informationResources({ ...from, rules: lacking });
    const flows = informationFlows({ ...from, rules: lacking });
    expect(resources).not.toHaveProperty('rule');
    expect(flows).not.toHaveProperty('rule');
    const written = [
      JSON.stringify(resources),
      JSON.stringify(flows),
      informationResourcesMarkdown(resources, twinOf('information-resources.json')),
      informationFlowsMarkdown(flows, twinOf('information-flows.json')),
    ].join('\n');
    expect(written).not.toMatch(/MAS-CSO-/);
    expect(informationResourcesMarkdown(resources, twinOf('information-resources.json'))).toContain(
      `\nSnapshot: infra, Merkle root ${snapshot.merkle_root} (1 file, 3 resources).\n`,
    );
    expect(resources.derivation.replace('thirdPartyInformationResources)', 'thirdPartyInformationResources, MAS-CSO-TPR)')).toBe(
      informationResources(from).derivation,
    );
    expect(flows.provider_must_describe.replace('of them;', 'of them (MAS-CSO-FLO);')).toBe(informationFlows(from).provider_must_describe);
  });

  it('quotes shell words that need it in the command, and fences a command holding backticks', () => {
    expect(shellWord('infra')).toBe('infra');
    expect(shellWord("my tree's")).toBe(`'my tree'\\''s'`);
    const odd = { ...from, snapshot: { ...snapshot, root: 'a ``` b' } };
    const doc = informationResources(odd);
    expect(doc.command).toBe("svc substrate walk 'a ``` b' --out snapshot.json && svc fedramp cpo --substrate snapshot.json");
    expect(informationResourcesMarkdown(doc, twinOf('information-resources.json'))).toContain("````sh\nsvc substrate walk 'a ``` b' --out snapshot.json");
  });
});
