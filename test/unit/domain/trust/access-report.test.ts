import type { Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import { AccessTallies, tallyAccess, type AccessEvent } from '../../../../src/domain/trust/access-log';
import {
  ACCESS_RULES,
  accessDayOf,
  accessDays,
  accessRange,
  accessReport,
  accessScope,
  denialRule,
  inAccessScope,
  isAgencyDenial,
  isFederalIdentity,
  isFederalPrincipal,
  notifyFedrampBy,
  summarizeAccessDay,
  type AccessReportInput,
  type AccessScope,
} from '../../../../src/domain/trust/access-report';
import { builtInRules } from '../../../fakes/fixed-rules-source';

/** The federal holidays these tests meet (the real calendar is the BUSINESS_CALENDAR adapter's). */
const HOLIDAYS = new Set(['2027-01-01', '2027-01-18', '2026-10-12', '2026-12-25']);
const holiday = (day: string) => HOLIDAYS.has(day);

const EXAMPLES = {
  name: 'Department of Examples',
  realms: ['SVC.TEST'],
  issuers: ['CN=Examples CA,O=Department of Examples,C=US'],
  domains: ['examples.gov', 'EXAMPLES'],
};
const SAMPLES = { name: 'Agency of Samples', realms: [], issuers: [], domains: ['samples.gov'] };

const event = (at: string, principal: string, over: Partial<AccessEvent> = {}): AccessEvent => ({
  at,
  principal,
  document: 'cpo',
  outcome: 'served',
  status: 200,
  ...over,
});
const denied = (at: string, principal: string, over: Partial<AccessEvent> = {}) => event(at, principal, { outcome: 'denied', status: 403, ...over });

/** Two days of a log with both agencies, a named principal, an auditor and two unrecognized federal principals. */
const LOG: AccessEvent[][] = [
  [
    event('2027-01-14T09:00:00Z', 'dana@examples.gov', { agency: 'Department of Examples' }),
    event('2027-01-14T10:00:00Z', 'dana@examples.gov', { agency: 'Department of Examples', document: 'sdr' }),
    event('2027-01-14T11:00:00Z', 'sam@samples.gov', { agency: 'Agency of Samples', document: 'vdr' }),
    event('2027-01-14T12:00:00Z', 'frank@partner.gov', { document: 'avi' }),
    event('2027-01-14T13:00:00Z', 'alice@SVC.TEST', { document: 'access' }),
    denied('2027-01-14T14:00:00Z', 'carol@contractor.example'),
  ],
  [
    denied('2027-01-15T16:00:00Z', 'zoe@treasury.gov'),
    denied('2027-01-15T16:30:00Z', 'zoe@treasury.gov'),
    denied('2027-01-15T17:00:00Z', 'sam@samples.gov', { agency: 'Agency of Samples', document: 'incidents' }),
    event('2027-01-15T18:00:00Z', 'Dana@Examples.gov', { agency: 'Department of Examples' }),
    event('2027-01-15T19:00:00Z', 'FRANK@partner.gov'),
    event('2027-01-15T20:00:00Z', 'frank@partner.gov', { agency: 'Agency of Samples', document: 'ocr' }),
  ],
];

const report = (scope: AccessScope, over: Partial<AccessReportInput> = {}) =>
  accessReport({
    range: { from: '2027-01-14', to: '2027-01-15' },
    scope,
    days: LOG.map(summarizeAccessDay),
    agencies: [SAMPLES, EXAMPLES],
    named: ['frank@partner.gov', 'grace@partner.gov'],
    rules: ACCESS_RULES,
    denial: denialRule(builtInRules()),
    holiday,
    ...over,
  });

describe('isFederalPrincipal (CDS-UTC-AAD: an agency principal the profile does not recognize)', () => {
  it.each([
    ['zoe@treasury.gov', true],
    ['zoe@TREASURY.GOV', true],
    ['zed@NAVY.MIL', true],
    ['a@b@army.mil', true],
    ['CN=Pat Doe,OU=Treasury,O=U.S. Government,C=US', true],
    ['cn=Pat Doe, o=u.s. government, c=US', true],
    ['zoe@treasury.gov.example.com', false],
    ['zoe@gov', false],
    ['1234567890@mil', true],
    ['1234567890@MIL', true],
    ['1234567890@amil', false],
    ['zoe@notgov', false],
    ['TREASURY\\zoe', false],
    ['zoe', false],
    ['CN=Pat Doe,O=Government Contractor Inc,C=US', false],
    ['CN=O=U.S. Government', false],
    ['O=U.S. Government;broken', false],
  ])('%s: %s', (name, federal) => {
    expect(isFederalPrincipal(name)).toBe(federal);
  });

  it.each([
    [
      {
        name: 'DOE.JOHN.1234567890',
        subject: 'CN=DOE.JOHN.1234567890,OU=USA,OU=PKI,OU=DoD,O=U.S. Government,C=US',
        issuer: 'CN=DOD ID CA-59,OU=PKI,OU=DoD,O=U.S. Government,C=US',
      },
      true,
    ],
    [{ name: 'pat@contractor.example', subject: 'CN=Pat,O=Contractor,C=US', issuer: 'CN=DOD ID CA-59,OU=PKI,OU=DoD,O=U.S. Government,C=US' }, true],
    [{ name: 'pat@contractor.example', subject: 'CN=Pat,OU=Treasury,O=U.S. Government,C=US', issuer: 'CN=Contractor CA' }, true],
    [{ name: 'pat@contractor.example', subject: 'CN=Pat,O=Contractor,C=US', issuer: 'CN=Contractor CA,O=Contractor' }, false],
    [{ name: 'pat@contractor.example' }, false],
    [{ name: 'zoe@treasury.gov' }, true],
  ])("isFederalIdentity %j: %s (the certificate's subject and issuer count as well as the name)", (identity, federal) => {
    expect(isFederalIdentity(identity)).toBe(federal);
  });
});

describe('isAgencyDenial', () => {
  it('is a denial of a recognized agency principal, or of an unrecognized federal one; nothing served, nobody else', () => {
    expect(isAgencyDenial(denied('2027-01-15T00:00:00Z', 'sam@samples.gov', { agency: 'Agency of Samples' }))).toBe(true);
    expect(isAgencyDenial(denied('2027-01-15T00:00:00Z', 'zoe@treasury.gov'))).toBe(true);
    expect(isAgencyDenial(denied('2027-01-15T00:00:00Z', 'carol@contractor.example'))).toBe(false);
    expect(isAgencyDenial(event('2027-01-15T00:00:00Z', 'zoe@treasury.gov'))).toBe(false);
  });
});

describe('accessRange', () => {
  it('defaults to today and the same day six months before, clamped to the month', () => {
    expect(accessRange({}, '2027-01-20')).toEqual({ from: '2026-07-20', to: '2027-01-20' });
    expect(accessRange({}, '2026-08-31')).toEqual({ from: '2026-02-28', to: '2026-08-31' });
    expect(accessRange({}, '2028-08-31')).toEqual({ from: '2028-02-29', to: '2028-08-31' });
    expect(accessRange({ to: '2026-12-31' }, '2027-01-20')).toEqual({ from: '2026-06-30', to: '2026-12-31' });
    expect(accessRange({ from: '2027-01-01' }, '2027-01-20')).toEqual({ from: '2027-01-01', to: '2027-01-20' });
  });

  it('takes up to 400 days, both ends counted, and one day', () => {
    expect(accessRange({ from: '2025-12-17', to: '2027-01-20' }, '2027-01-20')).toEqual({ from: '2025-12-17', to: '2027-01-20' });
    expect(accessRange({ from: '2027-01-20', to: '2027-01-20' }, '2027-01-20')).toEqual({ from: '2027-01-20', to: '2027-01-20' });
  });

  it.each([
    [{ from: '2027-02-01', to: '2027-01-20' }, 'from 2027-02-01 is after to 2027-01-20; give a from on or before 2027-01-20'],
    [{ from: '2027-02-01' }, 'from 2027-02-01 is after to 2027-01-20 (today, the default); give a from on or before 2027-01-20'],
    [
      { from: '2025-12-16', to: '2027-01-20' },
      'from 2025-12-16 to 2027-01-20 is 401 days; ask for at most 400 days at a time (from 2025-12-17 or later for this to), and for older days in further requests',
    ],
    [{ from: '2026-02-30' }, 'from "2026-02-30" is not a day of the calendar; write YYYY-MM-DD, e.g. 2027-01-20'],
    [{ to: '2027-1-2' }, 'to "2027-1-2" is not a day of the calendar; write YYYY-MM-DD, e.g. 2027-01-20'],
  ])('%j: invalid-range, one line saying the fix', (query, message) => {
    expect(() => accessRange(query, '2027-01-20')).toThrow(message);
    try {
      accessRange(query, '2027-01-20');
    } catch (error) {
      expect((error as { code: string }).code).toBe('invalid-range');
    }
  });

  it('lists the days of a range in order, across a month and a leap day', () => {
    expect(accessDays({ from: '2028-02-28', to: '2028-03-01' })).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(accessDays({ from: '2026-07-20', to: '2027-01-20' })).toHaveLength(185);
  });

  it('ends at the last day of the calendar (the day after 9999-12-31 sorts before it) and at the first', () => {
    expect(accessDays(accessRange({ to: '9999-12-31' }, '2027-01-20'))).toHaveLength(185);
    expect(accessDays(accessRange({ to: '9999-12-31' }, '2027-01-20')).at(-1)).toBe('9999-12-31');
    expect(accessDays(accessRange({ from: '0001-01-01', to: '0001-01-03' }, '2027-01-20'))).toEqual(['0001-01-01', '0001-01-02', '0001-01-03']);
  });
});

describe('denialRule and notifyFedrampBy (CDS-UTC-AAD)', () => {
  it('reads the timeframe from the rules data: 5 business days in 2026.10.05.01', () => {
    expect(denialRule(builtInRules())).toEqual({
      rule: 'CDS-UTC-AAD',
      timeframe: { unit: 'bizdays', num: 5 },
      channel: {
        party: 'FedRAMP',
        method: 'form',
        target: 'https://help.fedramp.gov/hc/en-us/requests/new?ticket_form_id=51829826617243',
        name: '[CSP] Agency Access Denial',
      },
    });
  });

  it("counts business days after the denial's day, skipping weekends and holidays, to the end of the day", () => {
    const five = denialRule(builtInRules()).timeframe;
    // Wednesday: Thursday, Friday, Monday, Tuesday, Wednesday.
    expect(notifyFedrampBy('2027-01-20', five, holiday)).toBe('2027-01-27T23:59:59Z');
    // Friday before Martin Luther King Jr. Day (Monday 2027-01-18): Tuesday is the first.
    expect(notifyFedrampBy('2027-01-15', five, holiday)).toBe('2027-01-25T23:59:59Z');
    expect(notifyFedrampBy('2027-01-15', five, () => false)).toBe('2027-01-22T23:59:59Z');
    // A Saturday denial counts from Monday; Christmas on a Friday moves the fifth day to the Monday after.
    expect(notifyFedrampBy('2027-01-16', five, holiday)).toBe('2027-01-25T23:59:59Z');
    expect(notifyFedrampBy('2026-12-21', five, holiday)).toBe('2026-12-29T23:59:59Z');
  });

  it('follows another release: a changed timeframe, a range (its shorter end), the channel it names', () => {
    const rules = builtInRules();
    const rule = rules.rules.find((r) => r.id === 'CDS-UTC-AAD')!;
    rule.timeframe = { unit: 'bizdays', num: 3 };
    expect(notifyFedrampBy('2027-01-15', denialRule(rules).timeframe, holiday)).toBe('2027-01-21T23:59:59Z');
    rule.timeframe = { unit: 'days', min: 2, max: 4 };
    expect(denialRule(rules).timeframe).toEqual({ unit: 'days', num: 2 });
    rule.notification = [{ party: 'FedRAMP', method: 'email', target: 'denials@fedramp.gov' }];
    expect(denialRule(rules).channel).toEqual({ party: 'FedRAMP', method: 'email', target: 'denials@fedramp.gov' });
    delete rule.notification;
    expect(denialRule(rules)).not.toHaveProperty('channel');
  });

  it('a release without the rule or its timeframe is an error naming the rule', () => {
    const rules = builtInRules();
    const rule = rules.rules.find((r) => r.id === 'CDS-UTC-AAD')!;
    delete rule.timeframe;
    expect(() => denialRule(rules)).toThrow(
      `CR26 ${rules.info.version}: CDS-UTC-AAD gives no timeframe, so svc cannot date when FedRAMP must be told of a denied agency request; use a release that gives it (SVC_FEDRAMP_RULES)`,
    );
    const without: Cr26Rules = { ...rules, rules: rules.rules.filter((r) => r.id !== 'CDS-UTC-AAD') };
    expect(() => denialRule(without)).toThrow('no rule CDS-UTC-AAD');
  });
});

describe('accessScope', () => {
  it('everything for operators and auditors, the agency for a recognized principal, itself for a named one', () => {
    expect(accessScope({ name: 'bob@SVC.TEST' }, true)).toBe('all');
    expect(accessScope({ name: 'dana@examples.gov', agency: 'Department of Examples' }, true)).toBe('all');
    expect(accessScope({ name: 'dana@examples.gov', agency: 'Department of Examples' }, false)).toEqual({ agency: 'Department of Examples' });
    expect(accessScope({ name: 'frank@partner.gov' }, false)).toEqual({ principal: 'frank@partner.gov' });
  });

  it("a named principal's rows are those under its name (any case) without an agency", () => {
    const scope = { principal: 'frank@partner.gov' };
    expect(inAccessScope(scope, { principal: 'FRANK@partner.gov' })).toBe(true);
    expect(inAccessScope(scope, { principal: 'frank@partner.gov', agency: 'Agency of Samples' })).toBe(false);
    expect(inAccessScope({ agency: 'Agency of Samples' }, { principal: 'frank@partner.gov', agency: 'Agency of Samples' })).toBe(true);
    expect(inAccessScope({ agency: 'Agency of Samples' }, { principal: 'dana@examples.gov', agency: 'Department of Examples' })).toBe(false);
  });
});

describe('accessReport', () => {
  it('gives operators and auditors every summary, the whole inventory and every agency denial with its notice date', () => {
    const all = report('all');
    expect(all.summaries).toEqual(LOG.flatMap((day) => summarizeAccessDay(day).summaries));
    expect(all.summaries).toHaveLength(11);
    expect(all.inventory).toEqual({
      agencies: [SAMPLES, EXAMPLES].sort((a, b) => (a.name < b.name ? -1 : 1)),
      named: ['frank@partner.gov', 'grace@partner.gov'],
      observed: [
        {
          principal: 'Dana@Examples.gov',
          agency: 'Department of Examples',
          basis: 'recognized',
          first: '2027-01-15T18:00:00Z',
          last: '2027-01-15T18:00:00Z',
          documents: ['cpo'],
          served: 1,
          denied: 0,
        },
        {
          principal: 'FRANK@partner.gov',
          basis: 'named',
          first: '2027-01-15T19:00:00Z',
          last: '2027-01-15T19:00:00Z',
          documents: ['cpo'],
          served: 1,
          denied: 0,
        },
        {
          principal: 'dana@examples.gov',
          agency: 'Department of Examples',
          basis: 'recognized',
          first: '2027-01-14T09:00:00Z',
          last: '2027-01-14T10:00:00Z',
          documents: ['cpo', 'sdr'],
          served: 2,
          denied: 0,
        },
        {
          principal: 'frank@partner.gov',
          basis: 'named',
          first: '2027-01-14T12:00:00Z',
          last: '2027-01-14T12:00:00Z',
          documents: ['avi'],
          served: 1,
          denied: 0,
        },
        {
          principal: 'frank@partner.gov',
          agency: 'Agency of Samples',
          basis: 'recognized',
          first: '2027-01-15T20:00:00Z',
          last: '2027-01-15T20:00:00Z',
          documents: ['ocr'],
          served: 1,
          denied: 0,
        },
        {
          principal: 'sam@samples.gov',
          agency: 'Agency of Samples',
          basis: 'recognized',
          first: '2027-01-14T11:00:00Z',
          last: '2027-01-15T17:00:00Z',
          documents: ['vdr'],
          served: 1,
          denied: 1,
        },
        { principal: 'zoe@treasury.gov', basis: 'federal', first: '2027-01-15T16:00:00Z', last: '2027-01-15T16:30:00Z', documents: [], served: 0, denied: 2 },
      ],
    });
    expect(all.denials).toEqual([
      {
        day: '2027-01-15',
        at: '2027-01-15T17:00:00Z',
        last: '2027-01-15T17:00:00Z',
        count: 1,
        principal: 'sam@samples.gov',
        agency: 'Agency of Samples',
        document: 'incidents',
        notify_fedramp_by: '2027-01-25T23:59:59Z',
      },
      {
        day: '2027-01-15',
        at: '2027-01-15T16:00:00Z',
        last: '2027-01-15T16:30:00Z',
        count: 2,
        principal: 'zoe@treasury.gov',
        document: 'cpo',
        notify_fedramp_by: '2027-01-25T23:59:59Z',
      },
    ]);
    expect(all).toMatchObject({
      from: '2027-01-14',
      to: '2027-01-15',
      scope: 'all',
      rules: ['CDS-TRC-ACL', 'CDS-TRC-AAI', 'CDS-UTC-AAD'],
      notify_fedramp: { rule: 'CDS-UTC-AAD', within: { unit: 'bizdays', num: 5 } },
    });
  });

  it("cites only the rules the release in use holds: without CDS-UTC-AAD, no denial is dated and FedRAMP's notice is left out (issue 34)", () => {
    const all = report('all', { rules: ['CDS-TRC-ACL'], denial: undefined });
    expect(all.rules).toEqual(['CDS-TRC-ACL']);
    expect(all).not.toHaveProperty('notify_fedramp');
    expect(all.denials.map((d) => [d.principal, d.count, 'notify_fedramp_by' in d])).toEqual([
      ['sam@samples.gov', 1, false],
      ['zoe@treasury.gov', 2, false],
    ]);
  });

  it("gives an agency's principal its agency's rows only: nothing of another agency, of named or of unrecognized principals", () => {
    const samples = report({ agency: 'Agency of Samples' });
    expect(samples.summaries.map((s) => [s.day, s.principal, s.document])).toEqual([
      ['2027-01-14', 'sam@samples.gov', 'vdr'],
      ['2027-01-15', 'frank@partner.gov', 'ocr'],
      ['2027-01-15', 'sam@samples.gov', 'incidents'],
    ]);
    expect(samples.inventory.agencies).toEqual([SAMPLES]);
    expect(samples.inventory.named).toEqual([]);
    expect(samples.inventory.observed.map((o) => [o.principal, o.agency])).toEqual([
      ['frank@partner.gov', 'Agency of Samples'],
      ['sam@samples.gov', 'Agency of Samples'],
    ]);
    expect(samples.denials.map((d) => [d.principal, d.agency])).toEqual([['sam@samples.gov', 'Agency of Samples']]);
    const text = JSON.stringify(samples);
    for (const other of ['Department of Examples', 'examples.gov', 'treasury', 'alice', 'carol', 'grace'])
      expect([other, text.includes(other)]).toEqual([other, false]);
    const examples = JSON.stringify(report({ agency: 'Department of Examples' }));
    for (const other of ['Agency of Samples', 'samples.gov', 'frank', 'treasury']) expect([other, examples.includes(other)]).toEqual([other, false]);
  });

  it("gives a principal named under roles.agency its own rows only, in any case, and not those it made as an agency's", () => {
    const frank = report({ principal: 'frank@partner.gov' });
    expect(frank.summaries.map((s) => [s.day, s.principal, s.agency, s.document])).toEqual([
      ['2027-01-14', 'frank@partner.gov', undefined, 'avi'],
      ['2027-01-15', 'FRANK@partner.gov', undefined, 'cpo'],
    ]);
    expect(frank.inventory).toEqual({
      agencies: [],
      named: ['frank@partner.gov'],
      observed: [
        {
          principal: 'FRANK@partner.gov',
          basis: 'named',
          first: '2027-01-15T19:00:00Z',
          last: '2027-01-15T19:00:00Z',
          documents: ['cpo'],
          served: 1,
          denied: 0,
        },
        {
          principal: 'frank@partner.gov',
          basis: 'named',
          first: '2027-01-14T12:00:00Z',
          last: '2027-01-14T12:00:00Z',
          documents: ['avi'],
          served: 1,
          denied: 0,
        },
      ],
    });
    expect(frank.denials).toEqual([]);
    expect(JSON.stringify(frank)).not.toMatch(/Agency of Samples|Department of Examples|treasury|grace/);
    expect(report({ principal: 'anyone@partner.gov' }, { named: ['*'] }).inventory.named).toEqual(['*']);
  });

  it('carries the channel the rules data names for telling FedRAMP', () => {
    const denial = {
      rule: 'CDS-UTC-AAD',
      timeframe: { unit: 'bizdays' as const, num: 5 },
      channel: { party: 'FedRAMP', method: 'form', target: 'https://help.fedramp.gov/form' },
    };
    expect(report('all', { denial }).notify_fedramp).toEqual({
      rule: 'CDS-UTC-AAD',
      within: { unit: 'bizdays', num: 5 },
      party: 'FedRAMP',
      method: 'form',
      target: 'https://help.fedramp.gov/form',
    });
  });
});

describe('accessDayOf: the report from summaries alone (the raw events pruned)', () => {
  it('gives the same day as the events did, whatever summaries they were tallied into', () => {
    for (const day of LOG) {
      const halves = [tallyAccess(day.slice(0, 3)), tallyAccess(day.slice(3))];
      const merged = new AccessTallies([...halves[1], ...halves[0]]).list();
      expect(accessDayOf(merged)).toEqual(summarizeAccessDay(day));
    }
  });

  it('honours the federal flag kept with the summaries: a principal judged federal by its certificate is `federal` in the inventory and its denials are listed, with the first and last denial', () => {
    const cac = 'DOE.JOHN.1234567890';
    const day = [
      event('2027-01-15T08:00:00Z', cac, { federal: true }),
      denied('2027-01-15T09:00:00Z', cac, { federal: true, document: 'sdr' }),
      denied('2027-01-15T10:00:00Z', cac, { federal: true, document: 'sdr' }),
      // The same name without the flag (another certificate): counted, but not an agency denial.
      denied('2027-01-15T11:00:00Z', cac, { document: 'sdr' }),
      denied('2027-01-15T12:00:00Z', 'carol@contractor.example'),
    ];
    const days = [accessDayOf(tallyAccess(day))];
    const all = report('all', { days, range: { from: '2027-01-15', to: '2027-01-15' } });
    expect(all.summaries).toEqual([
      { day: '2027-01-15', principal: cac, document: 'cpo', served: 1, denied: 0, first: '2027-01-15T08:00:00Z', last: '2027-01-15T08:00:00Z' },
      { day: '2027-01-15', principal: cac, document: 'sdr', served: 0, denied: 3, first: '2027-01-15T09:00:00Z', last: '2027-01-15T11:00:00Z' },
      {
        day: '2027-01-15',
        principal: 'carol@contractor.example',
        document: 'cpo',
        served: 0,
        denied: 1,
        first: '2027-01-15T12:00:00Z',
        last: '2027-01-15T12:00:00Z',
      },
    ]);
    expect(all.inventory.observed).toEqual([
      { principal: cac, basis: 'federal', first: '2027-01-15T08:00:00Z', last: '2027-01-15T11:00:00Z', documents: ['cpo'], served: 1, denied: 3 },
    ]);
    expect(all.denials).toEqual([
      {
        day: '2027-01-15',
        at: '2027-01-15T09:00:00Z',
        last: '2027-01-15T10:00:00Z',
        count: 2,
        principal: cac,
        document: 'sdr',
        notify_fedramp_by: '2027-01-25T23:59:59Z',
      },
    ]);
    expect(JSON.stringify(all)).not.toContain('"federal":true');
  });
});
