import { applicability, effectiveState, type ApplicabilityProfile, type Applicability } from '../../../../src/domain/fedramp/applicability';
import { deferredPilot, type Cr26Effective, type Cr26Rule, type Cr26Rules, type Cr26Subset } from '../../../../src/domain/fedramp/cr26-rules';

const ALL_TYPES = ['20x', 'rev5'];
const BOTH_PATHS = ['program', 'agency'];

const subset = (id: string, classes: string[], over: Partial<Cr26Subset['applicability']> = {}, type: Cr26Subset['type'] = 'all'): Cr26Subset => ({
  id,
  type,
  name: id,
  applicability: { types: ALL_TYPES, paths: BOTH_PATHS, classes: classes as Cr26Subset['applicability']['classes'], affects: ['Providers'], ...over },
});

const rule = (id: string, over: Partial<Cr26Rule> = {}): Cr26Rule => {
  const [family, sub] = id.split('-');
  return { id, family, subset: sub, type: 'all', name: `Rule ${id}`, force: 'MUST', affects: ['Providers'], related: [], ...over };
};

const VDR_DATES: Cr26Effective = {
  is: 'required',
  optional_adoption: '2026-07-04',
  obtain: '2026-12-07',
  maintain: '2026-12-07',
  grace: '2027-03-07',
  grace_until_next_assessment: false,
};
const FRC_20X: Cr26Effective = {
  is: 'required',
  optional_adoption: '2026-07-04',
  obtain: '2026-07-04',
  maintain: '2027-01-01',
  grace: '2027-01-01',
  grace_until_next_assessment: true,
};
const FRC_REV5: Cr26Effective = {
  is: 'required',
  optional_adoption: '2026-07-04',
  obtain: '2027-01-01',
  maintain: '2027-01-01',
  grace: '2027-06-01',
  grace_until_next_assessment: false,
};

/**
 * A small release: FRC (per-type dates; CSO for every class, CLA for Class A with its three lists, CSX 20x-only for
 * B–D, CCL Rev5 agency path), VDR (one date set; CSO for B–D, AGM for agencies, TFR with 20x and Rev5 rules),
 * MKT (an assessors' subset without applicability) and two KSIs.
 */
function release(): Cr26Rules {
  return {
    info: { version: '2099.01.01.01', date: '2099-01-01', default_artifacts: { rules: [], ksis: [] } },
    families: [
      {
        id: 'FRC',
        name: 'Certification',
        effective: { '20x': FRC_20X, rev5: FRC_REV5 },
        subsets: [
          subset('CCL', ['A', 'B', 'C', 'D'], { types: ['rev5'], paths: ['agency'] }),
          subset('CLA', ['A'], { types: ['20x'], paths: ['program'] }),
          subset('CSO', ['A', 'B', 'C', 'D']),
          subset('CSX', ['B', 'C', 'D'], { types: ['20x'], paths: ['program'] }, '20x'),
        ],
      },
      {
        id: 'MKT',
        name: 'Marketplace',
        effective: { all: VDR_DATES },
        subsets: [subset('IAS', [], { types: [], paths: [], affects: ['Assessors'] })],
      },
      {
        id: 'VDR',
        name: 'Vulnerabilities',
        effective: { all: VDR_DATES },
        subsets: [subset('AGM', ['B', 'C', 'D'], { affects: ['Agencies'] }), subset('CSO', ['B', 'C', 'D']), subset('TFR', ['B', 'C', 'D'])],
      },
    ],
    themes: [{ id: 'IAM', name: 'Identity' }],
    rules: [
      rule('FRC-CCL-CHG'),
      rule('FRC-CLA-ASF'),
      rule('FRC-CLA-MFR', { related: ['FRC-CSO-PKG', 'VDR-CSO-DET', 'FRC-CSX-AIA', 'VDR-TFR-MVF', 'KSI-IAM-APM'] }),
      rule('FRC-CLA-OFR', { force: 'MAY', related: ['FRC-CSO-FIA', 'VDR-CSO-SIR'] }),
      rule('FRC-CLA-RFR', { force: 'SHOULD', related: ['VDR-TFR-MVX', 'VDR-TFR-PVR'] }),
      rule('FRC-CSO-FIA', { force: undefined, varies_by_class: { A: { force: 'MAY' }, B: { force: 'MUST' }, C: { force: 'MUST' }, D: { force: 'MUST' } } }),
      rule('FRC-CSO-PKG'),
      rule('FRC-CSX-AIA', {
        type: '20x',
        force: undefined,
        varies_by_class: { A: { force: 'MUST' }, B: { force: 'MUST', timeframe: { unit: 'years', num: 1 } }, C: { force: 'MUST' }, D: { force: 'MUST' } },
      }),
      rule('MKT-IAS-WEB', { affects: ['Assessors'] }),
      rule('VDR-AGM-RVR', { affects: ['Agencies'] }),
      rule('VDR-CSO-DET'),
      rule('VDR-CSO-SIR', { force: 'MAY' }),
      rule('VDR-TFR-MVF', {
        type: 'rev5',
        force: undefined,
        varies_by_class: { B: { force: 'SHOULD', timeframe: { unit: 'months', num: 1 } }, C: { force: 'MUST' }, D: { force: 'MUST' } },
      }),
      rule('VDR-TFR-MVX', {
        type: '20x',
        force: undefined,
        varies_by_class: {
          A: { force: 'SHOULD', timeframe: { unit: 'months', num: 1 } },
          B: { force: 'MUST', timeframe: { unit: 'days', num: 7 } },
          C: { force: 'MUST', timeframe: { unit: 'days', num: 3 } },
        },
      }),
      rule('VDR-TFR-PVR', {
        force: undefined,
        varies_by_class: {
          A: { force: 'SHOULD', pain_timeframes: {} },
          B: { force: 'SHOULD', pain_timeframes: {} },
          C: { force: 'MUST' },
          D: { force: 'MUST', deferred_to: '20x Phase 4 Pilot' },
        },
      }),
      rule('VDR-XXX-TRC', { affects: ['Trust Centers'], subset: 'CSO' }),
    ],
    ksis: [
      { id: 'KSI-IAM-APM', theme: 'IAM', name: 'Passwordless', controls: ['ia-2'] },
      { id: 'KSI-IAM-ELP', theme: 'IAM', name: 'Least Privilege', controls: ['ac-6'] },
    ],
    aliases: {},
    retired: [],
  };
}

const profile = (over: Partial<ApplicabilityProfile> = {}): ApplicabilityProfile => ({ type: '20x', class: 'B', path: 'program', status: 'applying', ...over });
const AT = new Date('2027-02-01T00:00:00Z');
const ids = (list: { rule: Cr26Rule }[]) => list.map((a) => a.rule.id);
const find = (found: Applicability, id: string) => [...found.rules, ...found.recommended, ...found.optional].find((a) => a.rule.id === id)!;

describe('applicability (DESIGN §12.1): type, path, class and affects', () => {
  it('20x Class B, program path: provider rules of the type whose subset lists B, all KSIs, the others apart', () => {
    const found = applicability(release(), profile(), AT);
    expect(ids(found.rules)).toEqual(['FRC-CSO-FIA', 'FRC-CSO-PKG', 'FRC-CSX-AIA', 'VDR-CSO-DET', 'VDR-CSO-SIR', 'VDR-TFR-MVX', 'VDR-TFR-PVR', 'VDR-XXX-TRC']);
    expect(found.ksis.map((k) => [k.ksi.id, k.via])).toEqual([
      ['KSI-IAM-APM', 'type'],
      ['KSI-IAM-ELP', 'type'],
    ]);
    expect([found.recommended, found.optional]).toEqual([[], []]);
    expect(found.apart.map((r) => [r.id, r.affects])).toEqual([
      ['MKT-IAS-WEB', ['Assessors']],
      ['VDR-AGM-RVR', ['Agencies']],
    ]);
  });

  it("Rev5: the Rev5 rules instead of the 20x ones, the agency path's subsets on that path, and no KSI", () => {
    expect(ids(applicability(release(), profile({ type: 'rev5' }), AT).rules)).toEqual([
      'FRC-CSO-FIA',
      'FRC-CSO-PKG',
      'VDR-CSO-DET',
      'VDR-CSO-SIR',
      'VDR-TFR-MVF',
      'VDR-TFR-PVR',
      'VDR-XXX-TRC',
    ]);
    const agency = applicability(release(), profile({ type: 'rev5', path: 'agency' }), AT);
    expect(ids(agency.rules)).toContain('FRC-CCL-CHG');
    expect(agency.ksis).toEqual([]);
    // The 20x-only CSX subset is on the program path only.
    expect(ids(applicability(release(), profile({ path: 'agency' }), AT).rules)).not.toContain('FRC-CSX-AIA');
  });

  it('takes force and timeframe from the class variant where the rule varies by class', () => {
    const b = applicability(release(), profile(), AT);
    expect(find(b, 'VDR-TFR-MVX')).toMatchObject({ force: 'MUST', timeframe: { unit: 'days', num: 7 }, by_rating: false });
    expect(find(b, 'VDR-TFR-PVR')).toMatchObject({ force: 'SHOULD', by_rating: true });
    expect(find(applicability(release(), profile({ class: 'C' }), AT), 'VDR-TFR-MVX')).toMatchObject({ force: 'MUST', timeframe: { unit: 'days', num: 3 } });
  });
});

describe('applicability: Class A through FRC-CLA-MFR, RFR and OFR', () => {
  const found = applicability(release(), profile({ class: 'A' }), AT);

  it('requires the rules of subsets that list A and the rules MFR names (of the type), with the KSIs it names', () => {
    expect(found.rules.map((a) => [a.rule.id, a.via])).toEqual([
      ['FRC-CLA-ASF', 'subset'],
      ['FRC-CLA-MFR', 'subset'],
      ['FRC-CLA-OFR', 'subset'],
      ['FRC-CLA-RFR', 'subset'],
      ['FRC-CSO-PKG', 'subset'],
      ['FRC-CSX-AIA', 'FRC-CLA-MFR'],
      ['VDR-CSO-DET', 'FRC-CLA-MFR'],
    ]);
    // VDR-TFR-MVF is named too, but it is a Rev5 rule.
    expect(found.ksis.map((k) => [k.ksi.id, k.via])).toEqual([['KSI-IAM-APM', 'FRC-CLA-MFR']]);
  });

  it('lists what RFR names as recommended and what OFR names as optional, even where a subset lists A', () => {
    expect(found.recommended.map((a) => [a.rule.id, a.force])).toEqual([
      ['VDR-TFR-MVX', 'SHOULD'],
      ['VDR-TFR-PVR', 'SHOULD'],
    ]);
    expect(found.optional.map((a) => [a.rule.id, a.force])).toEqual([
      ['FRC-CSO-FIA', 'MAY'],
      ['VDR-CSO-SIR', 'MAY'],
    ]);
  });

  it('names nothing where FRC-CLA-MFR does not apply: Rev5 Class A has no Class A lists and no KSI', () => {
    const rev5 = applicability(release(), profile({ type: 'rev5', class: 'A' }), AT);
    expect(ids(rev5.rules)).toEqual(['FRC-CSO-FIA', 'FRC-CSO-PKG']);
    expect([rev5.ksis, rev5.recommended, rev5.optional]).toEqual([[], [], []]);
  });

  it('follows the ids the release writes in related, not a list of its own', () => {
    const rules = release();
    rules.rules.find((r) => r.id === 'FRC-CLA-MFR')!.related = ['VDR-CSO-SIR', 'KSI-IAM-ELP'];
    const changed = applicability(rules, profile({ class: 'A' }), AT);
    expect(ids(changed.rules)).toContain('VDR-CSO-SIR');
    expect(ids(changed.optional)).toEqual(['FRC-CSO-FIA']);
    expect(changed.ksis.map((k) => k.ksi.id)).toEqual(['KSI-IAM-ELP']);
  });
});

describe('applicability: classes not yet defined', () => {
  it('a class whose text defers to a pilot is not yet defined, naming the pilot', () => {
    expect(find(applicability(release(), profile({ class: 'D' }), AT), 'VDR-TFR-PVR').effective).toEqual({
      state: 'not_yet_defined',
      class: 'D',
      pilot: '20x Phase 4 Pilot',
    });
  });

  it('a rule that varies by class but gives no variant for the class is not defined for it', () => {
    expect(find(applicability(release(), profile({ class: 'D' }), AT), 'VDR-TFR-MVX')).toMatchObject({ effective: { state: 'not_yet_defined', class: 'D' } });
    expect(find(applicability(release(), profile({ class: 'D' }), AT), 'VDR-TFR-MVX').force).toBeUndefined();
  });

  it('deferredPilot reads the pilot from a deferral, and not from a mere mention', () => {
    expect(
      deferredPilot(
        'Providers with 20x Class D Certifications MUST significantly supersede the minimum requirements for lower Classes, with specifics to be set during the 20x Phase 4 Pilot.',
      ),
    ).toBe('20x Phase 4 Pilot');
    expect(
      deferredPilot('Assessors MUST ... unless FedRAMP publishes a specific exception for a limited pilot or other explicitly scoped process.'),
    ).toBeUndefined();
  });
});

describe('effective dates against --now and the status', () => {
  const at = (iso: string) => new Date(iso);

  it('applying: in force from the obtain date (from its first instant, UTC); before it, required from that date', () => {
    expect(effectiveState(VDR_DATES, { status: 'applying' }, at('2026-12-06T23:59:59Z'))).toEqual({
      state: 'required_from',
      date: '2026-12-07',
      optional_from: '2026-07-04',
    });
    expect(effectiveState(VDR_DATES, { status: 'applying' }, at('2026-12-07T00:00:00Z'))).toEqual({ state: 'in_force', since: '2026-12-07' });
  });

  it('certified: required from the maintain date, then in force within the grace period, then in force', () => {
    expect(effectiveState(FRC_REV5, { status: 'certified' }, at('2026-12-31T12:00:00Z'))).toEqual({
      state: 'required_from',
      date: '2027-01-01',
      optional_from: '2026-07-04',
    });
    expect(effectiveState(FRC_REV5, { status: 'certified' }, at('2027-03-01T00:00:00Z'))).toEqual({
      state: 'in_force',
      since: '2027-01-01',
      grace_until: '2027-06-01',
    });
    expect(effectiveState(FRC_REV5, { status: 'certified' }, at('2027-06-01T00:00:00Z'))).toEqual({ state: 'in_force', since: '2027-01-01' });
  });

  it("certified, a grace until the next assessment: it ends at the profile's next_assessment", () => {
    expect(effectiveState(FRC_20X, { status: 'certified', next_assessment: '2027-05-15' }, at('2027-03-01T00:00:00Z'))).toEqual({
      state: 'in_force',
      since: '2027-01-01',
      grace_until: '2027-05-15',
    });
    expect(effectiveState(FRC_20X, { status: 'certified', next_assessment: '2027-05-15' }, at('2027-05-15T00:00:00Z'))).toEqual({
      state: 'in_force',
      since: '2027-01-01',
    });
    // Without a next_assessment date the default end holds (here the maintain date itself: no grace).
    expect(effectiveState(FRC_20X, { status: 'certified' }, at('2027-03-01T00:00:00Z'))).toEqual({ state: 'in_force', since: '2027-01-01' });
  });

  it("uses the dates of the profile's type where the family gives them per type", () => {
    const now = at('2026-11-25T00:00:00Z');
    expect(find(applicability(release(), profile(), now), 'FRC-CSO-PKG').effective).toEqual({ state: 'in_force', since: '2026-07-04' });
    expect(find(applicability(release(), profile({ type: 'rev5' }), now), 'FRC-CSO-PKG').effective).toEqual({
      state: 'required_from',
      date: '2027-01-01',
      optional_from: '2026-07-04',
    });
    expect(find(applicability(release(), profile(), now), 'VDR-CSO-DET').effective).toEqual({
      state: 'required_from',
      date: '2026-12-07',
      optional_from: '2026-07-04',
    });
  });

  it('a family without dates is in force', () => {
    expect(effectiveState(undefined, { status: 'certified' }, at('2020-01-01T00:00:00Z'))).toEqual({ state: 'in_force' });
  });
});
