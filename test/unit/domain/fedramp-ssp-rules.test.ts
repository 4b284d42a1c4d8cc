import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { BaselineControls } from '../../../src/domain/oscal/baseline';
import { baselineOfSsp, checkFedrampSsp, FEDRAMP_SSP_RULES } from '../../../src/domain/oscal/fedramp-ssp-rules';
import { FixedCatalogSource } from '../../fakes/fixed-catalog-source';

// The SSP is deliberately untyped here: the rules take whatever JSON the file held.

type Json = any;

const BASELINE: BaselineControls = { level: 'moderate', title: 'Test Moderate Baseline', controls: ['ac-1', 'ac-2', 'ac-2.1'] };
const REQUIRED_ROLES = [
  'system-owner',
  'authorizing-official',
  'system-poc-management',
  'system-poc-technical',
  'information-system-security-officer',
  'authorizing-official-poc',
];
const ORG = '0b5a3d8e-7f61-4c2a-9d1e-3a4b5c6d7e8f';
const THIS_SYSTEM = '5d0c3b2a-1e4f-4a6b-8c7d-9e0f1a2b3c4d';
const person = (i: number) => `7e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5${i}`;

const SSP = 'system-security-plan';
const RPS = `${SSP}.metadata.responsible-parties`;
const REQS = `${SSP}.control-implementation.implemented-requirements`;

function requirement(controlId: string, i: number): Json {
  return {
    uuid: `9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6${i}`,
    'control-id': controlId,
    props: [{ name: 'implementation-status', ns: 'https://fedramp.gov/ns/oscal', value: 'implemented' }],
    'by-components': [{ 'component-uuid': THIS_SYSTEM, uuid: `3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0${i}`, description: `How the system meets ${controlId}.` }],
  };
}

/** The smallest SSP that passes every FedRAMP rule against BASELINE; `mutate` gets the system-security-plan body. */
function anSsp(mutate: (ssp: Json) => void = () => undefined): Json {
  const ssp: Json = {
    uuid: 'f1e2d3c4-b5a6-4978-8a1b-2c3d4e5f6a7b',
    metadata: {
      title: 'Test SSP',
      'last-modified': '2025-01-15T00:00:00Z',
      version: '1.0',
      'oscal-version': '1.1.2',
      roles: REQUIRED_ROLES.map((id) => ({ id, title: id })),
      parties: [
        { uuid: ORG, type: 'organization', name: 'Example Cloud Services' },
        ...REQUIRED_ROLES.map((_, i) => ({ uuid: person(i), type: 'person', name: `Person ${i}` })),
      ],
      'responsible-parties': REQUIRED_ROLES.map((id, i) => ({ 'role-id': id, 'party-uuids': [person(i)] })),
    },
    'system-characteristics': {
      'system-ids': [{ 'identifier-type': 'https://fedramp.gov', id: 'F0000000001' }],
      'system-name': 'Example Cloud Services',
      'system-name-short': 'ECS',
      'security-sensitivity-level': 'fips-199-moderate',
      'security-impact-level': {
        'security-objective-confidentiality': 'fips-199-moderate',
        'security-objective-integrity': 'fips-199-moderate',
        'security-objective-availability': 'fips-199-low',
      },
      'authorization-boundary': { description: 'The application and its database.' },
    },
    'control-implementation': { description: 'How the controls are met.', 'implemented-requirements': BASELINE.controls.map(requirement) },
  };
  mutate(ssp);
  return { [SSP]: ssp };
}

const problems = (doc: unknown, baseline: BaselineControls = BASELINE) =>
  checkFedrampSsp(doc, baseline).map(({ rule, path, message }) => ({ rule, path, message }));
const withoutRole = (id: string) => (ssp: Json) => {
  ssp.metadata.roles = ssp.metadata.roles.filter((r: Json) => r.id !== id);
};
const requirementOf = (ssp: Json, controlId: string): Json =>
  ssp['control-implementation']['implemented-requirements'].find((r: Json) => r['control-id'] === controlId);
const statusOf = (ssp: Json, controlId: string): Json => requirementOf(ssp, controlId).props[0];

type Row = [rule: string, what: string, mutate: (ssp: Json) => void, expected: { path: string; message: string }[]];

/** One failing variant per rule, in FEDRAMP_SSP_RULES order: a rule without a row fails the first test below. */
const ONE_PER_RULE: Row[] = [
  [
    'has-system-id',
    'only a UUID system id',
    (ssp) => (ssp['system-characteristics']['system-ids'] = [{ 'identifier-type': 'https://ietf.org/rfc/rfc4122', id: ORG }]),
    [
      {
        path: `${SSP}.system-characteristics.system-ids`,
        message:
          'no system id with identifier-type "https://fedramp.gov"; add {"identifier-type": "https://fedramp.gov", "id": "F00000000"} (the FedRAMP application number) to system-characteristics.system-ids',
      },
    ],
  ],
  [
    'has-system-name-short',
    'no short name',
    (ssp) => delete ssp['system-characteristics']['system-name-short'],
    [
      {
        path: `${SSP}.system-characteristics.system-name-short`,
        message: `system-name-short is missing; set it to the system's short name or acronym, e.g. "system-name-short": "CES"`,
      },
    ],
  ],
  [
    'has-security-sensitivity-level',
    'a bare level',
    (ssp) => (ssp['system-characteristics']['security-sensitivity-level'] = 'moderate'),
    [
      {
        path: `${SSP}.system-characteristics.security-sensitivity-level`,
        message: 'security-sensitivity-level is "moderate"; set it to one of fips-199-low, fips-199-moderate, fips-199-high',
      },
    ],
  ],
  [
    'has-security-impact-level',
    'one objective mis-spelt and one missing',
    (ssp) => {
      const impact = ssp['system-characteristics']['security-impact-level'];
      impact['security-objective-integrity'] = 'medium';
      delete impact['security-objective-availability'];
    },
    [
      {
        path: `${SSP}.system-characteristics.security-impact-level.security-objective-integrity`,
        message:
          'security-objective-integrity is "medium"; set security-impact-level.security-objective-integrity to one of fips-199-low, fips-199-moderate, fips-199-high',
      },
      {
        path: `${SSP}.system-characteristics.security-impact-level.security-objective-availability`,
        message:
          'security-objective-availability is missing; set security-impact-level.security-objective-availability to one of fips-199-low, fips-199-moderate, fips-199-high',
      },
    ],
  ],
  [
    'has-authorization-boundary',
    'a blank boundary description',
    (ssp) => (ssp['system-characteristics']['authorization-boundary'].description = '  '),
    [
      {
        path: `${SSP}.system-characteristics.authorization-boundary.description`,
        message:
          'authorization-boundary.description is "  "; describe what the authorization boundary includes (diagrams go in authorization-boundary.diagrams)',
      },
    ],
  ],
  ...(
    [
      ['system-owner', 'System Owner'],
      ['authorizing-official', 'Authorizing Official'],
      ['system-poc-management', 'System Management Point of Contact'],
      ['system-poc-technical', 'System Technical Point of Contact'],
      ['information-system-security-officer', 'Information System Security Officer'],
      ['authorizing-official-poc', "Authorizing Official's Point of Contact"],
    ] as const
  ).map(([id, title]): Row => [
    `role-defined-${id}`,
    `no ${id} role`,
    withoutRole(id),
    [{ path: `${SSP}.metadata.roles`, message: `no role with id "${id}"; add {"id": "${id}", "title": "${title}"} to metadata.roles` }],
  ]),
  [
    'role-has-responsible-party',
    'a required role nobody holds',
    (ssp) => (ssp.metadata['responsible-parties'] = ssp.metadata['responsible-parties'].filter((rp: Json) => rp['role-id'] !== 'system-poc-technical')),
    [
      {
        path: RPS,
        message:
          'role "system-poc-technical" has no responsible party; add {"role-id": "system-poc-technical", "party-uuids": ["<uuid of a metadata.parties entry>"]} to metadata.responsible-parties',
      },
    ],
  ],
  [
    'responsible-party-resolves',
    'a party-uuid no party has',
    (ssp) => ssp.metadata['responsible-parties'][3]['party-uuids'].push('00000000-0000-4000-8000-000000000000'),
    [
      {
        path: `${RPS}[3].party-uuids[1]`,
        message: 'party-uuid "00000000-0000-4000-8000-000000000000" is not the uuid of any metadata.parties entry; add that party or correct the uuid',
      },
    ],
  ],
  [
    'responsible-party-is-person',
    'an organization as ISSO',
    (ssp) => (ssp.metadata['responsible-parties'][4]['party-uuids'] = [ORG]),
    [
      {
        path: `${RPS}[4].party-uuids[0]`,
        message: `party "Example Cloud Services" ("${ORG}") holds role "information-system-security-officer" but is of type "organization"; FedRAMP requires a named individual: list a party of type "person" here`,
      },
    ],
  ],
  [
    'implementation-status-defined',
    'a requirement without status',
    (ssp) => delete requirementOf(ssp, 'ac-2').props,
    [
      {
        path: `${REQS}[1]`,
        message:
          'ac-2 states no implementation status; add the prop {"name": "implementation-status", "value": "implemented"} (or partial, planned, alternative, not-applicable, with remarks)',
      },
    ],
  ],
  [
    'implementation-status-allowed',
    'a status FedRAMP does not know',
    (ssp) => (statusOf(ssp, 'ac-2').value = 'done'),
    [
      {
        path: `${REQS}[1].props[0].value`,
        message: 'ac-2: implementation status "done" is not one of implemented, partial, planned, alternative, not-applicable; use one of those',
      },
    ],
  ],
  [
    'implementation-status-has-remarks',
    'a planned control without remarks',
    (ssp) => (statusOf(ssp, 'ac-2.1').value = 'planned'),
    [
      {
        path: `${REQS}[2].props[0].remarks`,
        message: `ac-2.1 is "planned" but has no remarks; say why and what is planned in the prop's "remarks" or the implemented-requirement's "remarks"`,
      },
    ],
  ],
  [
    'baseline-control-implemented',
    'a baseline control left out',
    (ssp) => ssp['control-implementation']['implemented-requirements'].pop(),
    [
      {
        path: REQS,
        message:
          'no implemented-requirement for ac-2.1 of Test Moderate Baseline; add {"uuid": "<new uuid>", "control-id": "ac-2.1"} with its implementation status',
      },
    ],
  ],
  [
    'no-extraneous-control',
    'a control outside the baseline',
    (ssp) => ssp['control-implementation']['implemented-requirements'].push(requirement('ac-3', 3)),
    [
      {
        path: `${REQS}[3].control-id`,
        message: 'control "ac-3" is not in Test Moderate Baseline; remove this implemented-requirement or check the SSP against a baseline that selects it',
      },
    ],
  ],
  [
    'implemented-requirement-unique',
    'a control implemented twice, spelt differently',
    (ssp) => ssp['control-implementation']['implemented-requirements'].push(requirement(' AC-2', 3)),
    [{ path: `${REQS}[3].control-id`, message: 'second implemented-requirement for ac-2 (the first is implemented-requirements[1]); merge the two into one' }],
  ],
];

/** Other forms of the same rules: by-component statuses, remarks in their other places, unstaffed entries. */
const MORE_FORMS: Row[] = [
  [
    'role-has-responsible-party',
    'an entry for a required role that names nobody',
    (ssp) => (ssp.metadata['responsible-parties'][0]['party-uuids'] = []),
    [
      {
        path: `${RPS}[0].party-uuids`,
        message: 'role "system-owner" names no party: party-uuids is an array; list the uuid of the metadata.parties entry that holds it',
      },
    ],
  ],
  [
    'implementation-status-defined',
    'by-component statuses on some components only (OSCAL 1.1 form)',
    (ssp) => {
      const req = requirementOf(ssp, 'ac-1');
      delete req.props;
      req['by-components'][0]['implementation-status'] = { state: 'implemented' };
      req['by-components'].push({ 'component-uuid': ORG, uuid: '2b1a0f9e-8d7c-4b6a-9f4e-3d2c1b0a9f8e', description: 'Inherited.' });
    },
    [
      {
        path: `${REQS}[0].by-components[1].implementation-status`,
        message:
          'by-components[1] of ac-1 states no implementation status while the others do; add "implementation-status": {"state": "implemented"} (or partial, planned, alternative, not-applicable, with remarks)',
      },
    ],
  ],
  [
    'implementation-status-allowed',
    'a by-component state FedRAMP does not know',
    (ssp) => (requirementOf(ssp, 'ac-1')['by-components'][0]['implementation-status'] = { state: 'unknown' }),
    [
      {
        path: `${REQS}[0].by-components[0].implementation-status.state`,
        message: 'ac-1: implementation status "unknown" is not one of implemented, partial, planned, alternative, not-applicable; use one of those',
      },
    ],
  ],
  [
    'implementation-status-has-remarks',
    'a partial by-component without remarks',
    (ssp) => (requirementOf(ssp, 'ac-1')['by-components'][0]['implementation-status'] = { state: 'partial', remarks: '' }),
    [
      {
        path: `${REQS}[0].by-components[0].implementation-status.remarks`,
        message: `ac-1 is "partial" but has no remarks; say why and what is planned in implementation-status.remarks or the implemented-requirement's "remarks"`,
      },
    ],
  ],
  [
    'no-extraneous-control',
    'an enhancement of a baseline control that the baseline leaves out',
    (ssp) => ssp['control-implementation']['implemented-requirements'].push(requirement('ac-2.2', 3)),
    [
      {
        path: `${REQS}[3].control-id`,
        message: 'control "ac-2.2" is not in Test Moderate Baseline; remove this implemented-requirement or check the SSP against a baseline that selects it',
      },
    ],
  ],
];

describe('checkFedrampSsp', () => {
  it('has a failing variant for every rule, in the order FEDRAMP_SSP_RULES lists them', () => {
    expect(ONE_PER_RULE.map(([rule]) => rule)).toEqual(FEDRAMP_SSP_RULES.map((r) => r.id));
    expect(FEDRAMP_SSP_RULES).toHaveLength(20);
    for (const rule of FEDRAMP_SSP_RULES) expect(rule.summary).toMatch(/^\S.*\.$/);
  });

  it('finds nothing in the minimal SSP', () => {
    expect(problems(anSsp())).toEqual([]);
  });

  it.each([...ONE_PER_RULE, ...MORE_FORMS])('%s: reports %s', (rule, _what, mutate, expected) => {
    const found = checkFedrampSsp(anSsp(mutate), BASELINE);
    expect(found.map(({ path, message }) => ({ path, message }))).toEqual(expected);
    for (const p of found) {
      expect(p).toMatchObject({ layer: 'fedramp', rule });
      expect(p.message).not.toContain('\n');
    }
  });

  it.each<[string, (ssp: Json) => void]>([
    ['the older http://fedramp.gov registry value', (ssp) => (ssp['system-characteristics']['system-ids'][0]['identifier-type'] = 'http://fedramp.gov')],
    ['control ids in upper case with blanks', (ssp) => (requirementOf(ssp, 'ac-2.1')['control-id'] = ' AC-2.1 ')],
    [
      'a planned status explained on the implemented-requirement',
      (ssp) => ((statusOf(ssp, 'ac-2').value = 'planned'), (requirementOf(ssp, 'ac-2').remarks = 'Due next quarter.')),
    ],
    ['a partial status explained on the prop', (ssp) => Object.assign(statusOf(ssp, 'ac-2'), { value: 'partial', remarks: 'MFA for admins only.' })],
    ['a status prop without a namespace', (ssp) => delete statusOf(ssp, 'ac-1').ns],
    [
      'statuses on every by-component instead of a prop (OSCAL 1.1 form)',
      (ssp) => {
        const req = requirementOf(ssp, 'ac-1');
        delete req.props;
        req['by-components'][0]['implementation-status'] = { state: 'not-applicable', remarks: 'No such accounts.' };
      },
    ],
    [
      'a second holder of a required role who is an organization, for a role that may be one',
      (ssp) => ssp.metadata['responsible-parties'][1]['party-uuids'].push(ORG),
    ],
  ])('accepts %s', (_what, mutate) => {
    expect(problems(anSsp(mutate))).toEqual([]);
  });

  it('lists problems in document order: metadata, system-characteristics, then control-implementation', () => {
    const doc = anSsp((ssp) => {
      ssp['control-implementation']['implemented-requirements'].reverse();
      delete ssp['system-characteristics']['system-name-short'];
      ssp.metadata.roles = [];
      ssp['control-implementation']['implemented-requirements'][0]['control-id'] = 'ac-9';
    });
    const found = problems(doc);
    expect(found.map((p) => p.rule)).toEqual([
      ...REQUIRED_ROLES.map((id) => `role-defined-${id}`),
      'has-system-name-short',
      'baseline-control-implemented',
      'no-extraneous-control',
    ]);
    expect(problems(doc)).toEqual(found);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an array', []],
    ['a number', 5],
    ['a string', 'system-security-plan'],
    ['an object without the root key', { catalog: {} }],
    ['a root that is not an object', { [SSP]: 5 }],
    ['a root that is an array', { [SSP]: [] }],
  ])('gives no problems for %s, which is not an SSP the rules can read', (_what, doc) => {
    expect(checkFedrampSsp(doc, BASELINE)).toEqual([]);
  });

  it.each<[string, (ssp: Json) => void]>([
    ['no metadata', (ssp) => delete ssp.metadata],
    ['roles that are not an array', (ssp) => (ssp.metadata.roles = 'system-owner')],
    [
      'junk entries everywhere',
      (ssp) => {
        ssp.metadata.roles = [null, 5, { id: 7 }];
        ssp.metadata.parties = { uuid: ORG };
        ssp.metadata['responsible-parties'] = [null, { 'role-id': 'system-owner', 'party-uuids': 'x' }, { 'role-id': 5, 'party-uuids': [null, 3, {}] }];
        ssp['system-characteristics'] = [];
        ssp['control-implementation']['implemented-requirements'] = [
          null,
          5,
          { 'control-id': 5, props: 'x', 'by-components': [null, { 'implementation-status': 'x' }] },
          { 'control-id': 'ac-1', props: [null, { name: 'implementation-status' }] },
        ];
      },
    ],
    ['no control-implementation', (ssp) => delete ssp['control-implementation']],
  ])('does not throw on %s', (_what, mutate) => {
    const found = checkFedrampSsp(anSsp(mutate), BASELINE);
    expect(found.length).toBeGreaterThan(0);
    for (const p of found) expect(p.message).not.toContain('\n');
  });

  it('does not throw whatever JSON stands in any part of the SSP', () => {
    const parts = ['metadata', 'system-characteristics', 'control-implementation', 'import-profile'];
    fc.assert(
      fc.property(fc.constantFrom(...parts), fc.jsonValue(), fc.anything(), (part, json, anything) => {
        checkFedrampSsp(
          anSsp((ssp) => (ssp[part] = json)),
          BASELINE,
        );
        checkFedrampSsp(
          anSsp((ssp) => (ssp[part] = anything)),
          BASELINE,
        );
        checkFedrampSsp({ [SSP]: anything }, BASELINE);
        baselineOfSsp({ [SSP]: anything });
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

describe('baselineOfSsp', () => {
  const withLevel = (level: unknown, href?: string) =>
    anSsp((ssp) => {
      ssp['system-characteristics']['security-sensitivity-level'] = level;
      if (href !== undefined) ssp['import-profile'] = { href };
    });
  const PROFILES = 'https://raw.githubusercontent.com/GSA/fedramp-automation/master/dist/content/rev5/baselines/json';

  it.each<[string, unknown, string | undefined, string | undefined]>([
    ['a FIPS 199 level', 'fips-199-high', undefined, 'high'],
    ['a bare level in any case', ' Moderate ', undefined, 'moderate'],
    ['the level before the profile', 'fips-199-low', `${PROFILES}/FedRAMP_rev5_HIGH-baseline_profile.json`, 'low'],
    ['the baseline profile when the level is missing', undefined, `${PROFILES}/FedRAMP_rev5_LOW-baseline_profile.json`, 'low'],
    ['the profile when the level is unknown', 'secret', '../profiles/fedramp_rev5_moderate-baseline_profile.json', 'moderate'],
    ['a resolved profile catalog', undefined, 'FedRAMP_rev5_HIGH-baseline-resolved-profile_catalog.json', 'high'],
    ['a resolved profile catalog with underscores', undefined, `${PROFILES}/FedRAMP_rev5_MODERATE-baseline_resolved-profile_catalog.json`, 'moderate'],
    ['a minified resolved catalog', undefined, 'FedRAMP_rev5_LOW-baseline-resolved-profile_catalog-min.json', 'low'],
    ['the LI-SaaS baseline, which svc does not check', undefined, 'FedRAMP_rev5_LI-SaaS-baseline_profile.json', undefined],
    ['a NIST profile', undefined, 'NIST_SP-800-53_rev5_MODERATE-baseline_profile.json', undefined],
    ['neither', undefined, undefined, undefined],
  ])('reads %s', (_what, level, href, expected) => {
    expect(baselineOfSsp(withLevel(level, href))).toBe(expected);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['a root that is not an object', { [SSP]: 'x' }],
    ['an href that is not a string', { [SSP]: { 'import-profile': { href: 5 } } }],
  ])('gives undefined for %s', (_what, doc) => {
    expect(baselineOfSsp(doc)).toBeUndefined();
  });
});

describe('fixtures/oscal/fedramp-ssp-minimal.json', () => {
  const fixture: unknown = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'oscal', 'fedramp-ssp-minimal.json'), 'utf8'));
  const catalogs = new FixedCatalogSource();

  it('claims the Low baseline and passes every FedRAMP rule against it', () => {
    expect(baselineOfSsp(fixture)).toBe('low');
    expect(checkFedrampSsp(fixture, catalogs.baseline('low'))).toEqual([]);
  });

  it('misses exactly the 167 controls Moderate adds to Low, and breaks no other rule', () => {
    const moderate = catalogs.baseline('moderate');
    const low = new Set(catalogs.baseline('low').controls);
    const found = checkFedrampSsp(fixture, moderate);
    expect(found).toHaveLength(167);
    expect(new Set(found.map((p) => p.rule))).toEqual(new Set(['baseline-control-implemented']));
    expect(found.map((p) => p.message.match(/for (\S+) of/)?.[1])).toEqual(moderate.controls.filter((c) => !low.has(c)));
  });

  it.each(['1.1.3', '1.2.1'])('is valid against the OSCAL %s SSP schema', (version) => {
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: true });
    addFormats(ajv);
    const schema: unknown = JSON.parse(
      readFileSync(join(__dirname, '..', '..', '..', '..', 'shared', 'reference', 'oscal', 'schemas', version, 'oscal_ssp_schema.json'), 'utf8'),
    );
    const validate = ajv.compile(schema as object);
    expect(validate(fixture)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    // Guard against a schema that accepts anything: the same document without its uuid must fail.
    const broken = structuredClone(fixture) as Json;
    delete broken[SSP].uuid;
    expect(validate(broken)).toBe(false);
  });
});
