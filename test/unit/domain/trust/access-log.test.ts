import {
  accessCutoffs,
  checkAccessEvent,
  isAccessTally,
  MAX_RAW_DENIALS,
  rawAccessEvents,
  splitAccessBatch,
  summarizeAccess,
  tallyAccess,
  type AccessEvent,
} from '../../../../src/domain/trust/access-log';

const event = (at: string, over: Partial<AccessEvent> = {}): AccessEvent => ({
  at,
  principal: 'alice@AGENCY.GOV',
  agency: 'Agency One',
  document: 'sdr',
  outcome: 'served',
  status: 200,
  ...over,
});

describe('summarizeAccess (CDS-TRC-ACL)', () => {
  it('summarizes per day, principal, agency and document: served and denied counts, first and last time', () => {
    const events = [
      event('2026-11-25T10:00:00Z'),
      event('2026-11-25T09:00:00Z'),
      event('2026-11-25T11:00:00Z', { outcome: 'denied', status: 403 }),
      event('2026-11-25T12:00:00Z', { document: 'cpo' }),
      event('2026-11-24T12:00:00Z'),
      event('2026-11-25T12:00:00Z', { principal: 'bob@contractor.example', agency: undefined, document: 'access', outcome: 'denied', status: 403 }),
    ];
    expect(summarizeAccess(events)).toEqual([
      {
        day: '2026-11-24',
        principal: 'alice@AGENCY.GOV',
        agency: 'Agency One',
        document: 'sdr',
        served: 1,
        denied: 0,
        first: '2026-11-24T12:00:00Z',
        last: '2026-11-24T12:00:00Z',
      },
      {
        day: '2026-11-25',
        principal: 'alice@AGENCY.GOV',
        agency: 'Agency One',
        document: 'cpo',
        served: 1,
        denied: 0,
        first: '2026-11-25T12:00:00Z',
        last: '2026-11-25T12:00:00Z',
      },
      {
        day: '2026-11-25',
        principal: 'alice@AGENCY.GOV',
        agency: 'Agency One',
        document: 'sdr',
        served: 2,
        denied: 1,
        first: '2026-11-25T09:00:00Z',
        last: '2026-11-25T11:00:00Z',
      },
      {
        day: '2026-11-25',
        principal: 'bob@contractor.example',
        document: 'access',
        served: 0,
        denied: 1,
        first: '2026-11-25T12:00:00Z',
        last: '2026-11-25T12:00:00Z',
      },
    ]);
  });
});

describe('checkAccessEvent', () => {
  it.each([
    [{ ...event('2026-11-25T10:00:00+01:00') }, 'at is not an ISO-8601 UTC time'],
    [{ ...event('2026-11-25T10:00:00Z'), principal: '' }, 'principal is not a name'],
    [{ ...event('2026-11-25T10:00:00Z'), agency: 3 }, 'agency is not a name'],
    [{ ...event('2026-11-25T10:00:00Z'), document: '../etc/passwd' }, 'document is not a document name'],
    [{ ...event('2026-11-25T10:00:00Z'), outcome: 'ok' }, 'outcome is neither served nor denied'],
    [{ ...event('2026-11-25T10:00:00Z'), status: 42 }, 'status is not an HTTP status'],
    ['an event', 'not an object'],
  ])('refuses %j: %s', (value, problem) => {
    expect(() => checkAccessEvent(value)).toThrow(`access event: ${problem}`);
  });
});

describe('checkAccessEvent: the principal name rule authentication applies (principalNameProblem)', () => {
  it.each([
    [`${'k'.repeat(590)}@EVIL.TEST`, 'principal is not a name: it is 600 characters long, more than 256'],
    ['mallory\u202E@EVIL.TEST', 'principal is not a name: it holds U+202E, a control, format or line-separator character'],
    ['fran\u212Ak@partner.gov', 'principal is not a name: it is not in Unicode normalization form C (NFC)'],
    ['alice@AGENCY.GOV ', 'principal is not a name: it begins or ends with white space'],
    ['', 'principal is not a name: it is empty'],
  ])('refuses %j: %s, never quoting the name', (principal, problem) => {
    expect(() => checkAccessEvent(event('2026-11-25T10:00:00Z', { principal }))).toThrow(`access event: ${problem}`);
  });

  it('takes a name of 256 code points (astral ones counted once), and refuses a field it does not know', () => {
    const long = `${'😀'.repeat(245)}@AGENCY.GOV`;
    expect(checkAccessEvent(event('2026-11-25T10:00:00Z', { principal: long })).principal).toBe(long);
    expect(() => checkAccessEvent({ ...event('2026-11-25T10:00:00Z'), secret: 'x' })).toThrow('access event: secret is not a field of an access event');
  });
});

describe('splitAccessBatch', () => {
  it('keeps the valid events in order and names the first refused one by its place, with how many more', () => {
    const good = event('2026-11-25T10:00:00Z');
    const { valid, refusal } = splitAccessBatch([good, { ...good, principal: 'x'.repeat(300) }, good, { ...good, status: 42 }, 'junk']);
    expect(valid).toEqual([good, good]);
    expect(refusal).toMatchObject({
      code: 'bad-access-event',
      message:
        'access event 2 of 5: principal is not a name: it is 300 characters long, more than 256 (and 2 more refused); the other 2 of the batch were logged',
    });
    expect(splitAccessBatch([good])).toEqual({ valid: [good] });
  });
});

describe(`rawAccessEvents: a principal's first ${MAX_RAW_DENIALS} denials of a day`, () => {
  it('keeps every served event and the denials while the principal has fewer than the bound that day, counting what the store holds', () => {
    const denied = (at: string, principal = 'carol@SVC.TEST') => event(at, { principal, agency: undefined, outcome: 'denied', status: 403 });
    const batch = [
      denied('2026-11-25T10:00:00Z'),
      event('2026-11-25T10:00:01Z'),
      denied('2026-11-25T10:00:02Z'),
      denied('2026-11-25T10:00:03Z'),
      denied('2026-11-26T00:00:00Z'),
      denied('2026-11-25T10:00:04Z', 'zoe@treasury.gov'),
    ];
    const held = { '2026-11-25 carol@SVC.TEST': MAX_RAW_DENIALS - 2 } as Record<string, number>;
    expect(rawAccessEvents(batch, (day, principal) => held[`${day} ${principal}`] ?? 0)).toEqual([batch[0], batch[1], batch[2], batch[4], batch[5]]);
    expect(rawAccessEvents(batch, () => MAX_RAW_DENIALS)).toEqual([batch[1]]);
  });
});

describe('tallies (AccessTally): what the stores keep for good', () => {
  it('tallies an event per day, principal, agency, document and federal flag, with the first and last denial', () => {
    expect(
      tallyAccess([
        event('2026-11-25T10:00:00Z', { outcome: 'denied', status: 403 }),
        event('2026-11-25T09:00:00Z'),
        event('2026-11-25T11:00:00Z', { outcome: 'denied', status: 403, federal: true }),
      ]),
    ).toEqual([
      {
        day: '2026-11-25',
        principal: 'alice@AGENCY.GOV',
        agency: 'Agency One',
        document: 'sdr',
        served: 1,
        denied: 1,
        first: '2026-11-25T09:00:00Z',
        last: '2026-11-25T10:00:00Z',
        denied_first: '2026-11-25T10:00:00Z',
        denied_last: '2026-11-25T10:00:00Z',
      },
      {
        day: '2026-11-25',
        principal: 'alice@AGENCY.GOV',
        agency: 'Agency One',
        federal: true,
        document: 'sdr',
        served: 0,
        denied: 1,
        first: '2026-11-25T11:00:00Z',
        last: '2026-11-25T11:00:00Z',
        denied_first: '2026-11-25T11:00:00Z',
        denied_last: '2026-11-25T11:00:00Z',
      },
    ]);
  });

  it.each([
    [{ served: -1 }, 'a negative count'],
    [{ served: 0, denied: 0 }, 'no event'],
    [{ first: '2026-11-24T10:00:00Z' }, 'a time of another day'],
    [{ first: '2026-11-25T12:00:00Z' }, 'first after last'],
    [{ denied: 1 }, 'denials without their times'],
    [{ denied_first: '2026-11-25T10:00:00Z', denied_last: '2026-11-25T10:00:00Z' }, 'denial times without denials'],
    [{ federal: false }, 'a federal flag that is not true'],
    [{ agency: '' }, 'an empty agency'],
    [{ extra: 1 }, 'an unknown field'],
  ] as [Record<string, unknown>, string][])('isAccessTally refuses %j (%s)', (over) => {
    const tally = {
      day: '2026-11-25',
      principal: 'alice@AGENCY.GOV',
      document: 'sdr',
      served: 1,
      denied: 0,
      first: '2026-11-25T10:00:00Z',
      last: '2026-11-25T11:00:00Z',
    };
    expect(isAccessTally(tally)).toBe(true);
    expect(isAccessTally({ ...tally, ...over })).toBe(false);
  });

  it('accessCutoffs: raw events and summaries counted back from today, today included; settled before yesterday', () => {
    expect(accessCutoffs('2026-11-25', { log_days: 90, summary_days: 400 })).toEqual({
      raw_from: '2026-08-28',
      summaries_from: '2025-10-22',
      settled_before: '2026-11-24',
    });
    expect(accessCutoffs('2026-11-25', { log_days: 2, summary_days: 187 })).toEqual({
      raw_from: '2026-11-24',
      summaries_from: '2026-05-23',
      settled_before: '2026-11-24',
    });
  });
});
