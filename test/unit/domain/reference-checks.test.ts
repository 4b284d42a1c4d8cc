import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readOscalDocument } from '../../../src/domain/oscal/oscal-model';
import { checkReferences } from '../../../src/domain/oscal/reference-checks';
import { isError } from '../../../src/domain/oscal/oscal-problem';
import type { BaselineControls } from '../../../src/domain/oscal/baseline';
import { REFERENCE } from '../../support/run-svc';

const EXAMPLES = join(REFERENCE, 'oscal', 'examples');
const load = (name: string) => JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8')) as Record<string, any>;
const MODERATE: BaselineControls = { level: 'moderate', title: 'Test Moderate baseline', controls: ['ac-1', 'ac-2', 'ac-6.1'] };

describe('OSCAL reference checks (second layer)', () => {
  it.each(readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')))('finds no error in NIST example %s', (name) => {
    const document = load(name);
    expect(checkReferences(document, { model: readOscalDocument(document, name).model }).filter(isError)).toEqual([]);
  });

  it('warns about the two slips in NIST examples that OSCAL constraints let through', () => {
    const component = load('component-definition_example-component-definition.json');
    expect(checkReferences(component, { model: 'component-definition' })).toEqual([
      {
        layer: 'references',
        rule: 'uuid-unique',
        level: 'warning',
        path: 'component-definition.components[0].control-implementations[0].implemented-requirements[1].statements[0].uuid',
        message:
          'uuid bb9219b1-e51c-4680-abb0-616a43bbfbb1 is already the uuid of component-definition.components[0].control-implementations[0].implemented-requirements[0].statements[0].uuid; give every object its own UUID',
      },
    ]);
    const poam = load('poam_ifa_plan-of-action-and-milestones.json');
    expect(checkReferences(poam, { model: 'plan-of-action-and-milestones' })).toEqual([
      {
        layer: 'references',
        rule: 'risk-reference-resolves',
        level: 'warning',
        path: 'plan-of-action-and-milestones.poam-items[0].related-risks[0].risk-uuid',
        message: 'risk-uuid 401c15c9-ad6b-4d4a-a591-7d53a3abb3b6 is not the uuid of any of the risks; add it there or fix the reference',
      },
    ]);
  });

  it('finds nothing wrong in the FedRAMP rev5 profiles and resolved catalogs', () => {
    const dir = join(REFERENCE, 'oscal', 'content', 'fedramp-rev5');
    for (const name of readdirSync(dir).filter((f) => /baseline/.test(f))) {
      const document = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      expect([name, checkReferences(document, { model: readOscalDocument(document, name).model })]).toEqual([name, []]);
    }
  });

  it('reports a uuid used twice, at the second use', () => {
    const ssp = load('ssp_ifa_ssp-example.json');
    const first = ssp['system-security-plan'].metadata.parties[0].uuid;
    ssp['system-security-plan'].metadata.parties[1].uuid = first;
    expect(checkReferences(ssp, { model: 'system-security-plan' })).toEqual([
      {
        layer: 'references',
        rule: 'uuid-unique',
        level: 'warning',
        path: 'system-security-plan.metadata.parties[1].uuid',
        message: `uuid ${first} is already the uuid of system-security-plan.metadata.parties[0].uuid; give every object its own UUID`,
      },
      // the party whose uuid was taken over is no longer there for the responsible party that named it
      {
        layer: 'references',
        rule: 'party-reference-resolves',
        path: 'system-security-plan.metadata.responsible-parties[1].party-uuids[0]',
        message: 'party-uuids 67c04291-dbf6-495a-a3ba-0011638acc94 is not the uuid of any of metadata.parties; add it there or fix the reference',
      },
      {
        layer: 'references',
        rule: 'party-reference-resolves',
        path: 'system-security-plan.system-implementation.components[0].responsible-roles[0].party-uuids[0]',
        message: 'party-uuids 67c04291-dbf6-495a-a3ba-0011638acc94 is not the uuid of any of metadata.parties; add it there or fix the reference',
      },
    ]);
  });

  it('reports a #uuid link that names nothing, and accepts one that names a back-matter resource', () => {
    const ar = load('ar_ifa_assessment-results-example.json');
    const body = ar['assessment-results'];
    body['back-matter'] = { resources: [{ uuid: '11111111-2222-4333-8444-555555555555', title: 'Plan' }] };
    body['import-ap'] = { href: '#11111111-2222-4333-8444-555555555555' };
    expect(checkReferences(ar, { model: 'assessment-results' })).toEqual([]);
    body['import-ap'] = { href: '#11111111-2222-4333-8444-000000000000' };
    expect(checkReferences(ar, { model: 'assessment-results' })).toEqual([
      {
        layer: 'references',
        rule: 'uuid-link-resolves',
        path: 'assessment-results.import-ap.href',
        message:
          'link #11111111-2222-4333-8444-000000000000 names no object of this document; point it at the uuid of a back-matter resource or other object here',
      },
    ]);
  });

  it('reports observation, risk, component, location and role references that resolve to nothing', () => {
    const poam = load('poam_ifa_plan-of-action-and-milestones.json');
    poam['plan-of-action-and-milestones']['poam-items'][1]['related-risks'][0]['risk-uuid'] = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    poam['plan-of-action-and-milestones']['poam-items'][0]['related-observations'][0]['observation-uuid'] = 'aaaaaaaa-bbbb-4ccc-8ddd-ffffffffffff';
    expect(checkReferences(poam, { model: 'plan-of-action-and-milestones' }).map((p) => [p.rule, p.path, p.level])).toEqual([
      ['observation-reference-resolves', 'plan-of-action-and-milestones.poam-items[0].related-observations[0].observation-uuid', 'warning'],
      ['risk-reference-resolves', 'plan-of-action-and-milestones.poam-items[0].related-risks[0].risk-uuid', 'warning'],
      ['risk-reference-resolves', 'plan-of-action-and-milestones.poam-items[1].related-risks[0].risk-uuid', 'warning'],
    ]);

    const ssp = load('ssp_ifa_ssp-example.json');
    const body = ssp['system-security-plan'];
    body['control-implementation']['implemented-requirements'][0]['by-components'][0]['component-uuid'] = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    body.metadata.parties[0]['location-uuids'] = ['aaaaaaaa-bbbb-4ccc-8ddd-000000000000'];
    body.metadata['responsible-parties'][0]['role-id'] = 'auditor';
    expect(checkReferences(ssp, { model: 'system-security-plan' })).toEqual([
      {
        layer: 'references',
        rule: 'location-reference-resolves',
        path: 'system-security-plan.metadata.parties[0].location-uuids[0]',
        message: 'location-uuids aaaaaaaa-bbbb-4ccc-8ddd-000000000000 is not the uuid of any of metadata.locations; add it there or fix the reference',
      },
      {
        layer: 'references',
        rule: 'component-reference-resolves',
        path: 'system-security-plan.control-implementation.implemented-requirements[0].by-components[0].component-uuid',
        message:
          'component-uuid aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee is not the uuid of any of system-implementation.components; add it there or fix the reference',
      },
      {
        layer: 'references',
        rule: 'role-reference-resolves',
        path: 'system-security-plan.metadata.responsible-parties[0].role-id',
        message: 'role-id "auditor" is not defined in metadata.roles; add {"id": "auditor", "title": ...} there',
      },
    ]);
  });

  it('checks control ids against the chosen baseline only when there is one', () => {
    const ssp = load('ssp_ifa_ssp-example.json');
    expect(checkReferences(ssp, { model: 'system-security-plan', baseline: MODERATE })).toEqual([]);
    ssp['system-security-plan']['control-implementation']['implemented-requirements'][0]['control-id'] = 'ac-2.6';
    expect(checkReferences(ssp, { model: 'system-security-plan' })).toEqual([]);
    expect(checkReferences(ssp, { model: 'system-security-plan', baseline: MODERATE })).toEqual([
      {
        layer: 'references',
        rule: 'control-in-baseline',
        path: 'system-security-plan.control-implementation.implemented-requirements[0].control-id',
        message: 'control ac-2.6 is not in the Test Moderate baseline; use a control the baseline selects or check --baseline',
      },
    ]);
  });

  it.each([null, 5, [], { 'system-security-plan': 'x' }, { 'system-security-plan': { metadata: [1, { uuid: 7 }] } }])(
    'never throws on odd shapes (%p)',
    (document) => {
      expect(checkReferences(document, { model: 'system-security-plan' })).toEqual([]);
    },
  );
});
