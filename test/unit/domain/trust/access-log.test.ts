import { checkAccessEvent, summarizeAccess, type AccessEvent } from '../../../../src/domain/trust/access-log';

const event = (at: string, over: Partial<AccessEvent> = {}): AccessEvent => ({ at, principal: 'alice@AGENCY.GOV', agency: 'Agency One', document: 'sdr', outcome: 'served', status: 200, ...over });

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
      { day: '2026-11-24', principal: 'alice@AGENCY.GOV', agency: 'Agency One', document: 'sdr', served: 1, denied: 0, first: '2026-11-24T12:00:00Z', last: '2026-11-24T12:00:00Z' },
      { day: '2026-11-25', principal: 'alice@AGENCY.GOV', agency: 'Agency One', document: 'cpo', served: 1, denied: 0, first: '2026-11-25T12:00:00Z', last: '2026-11-25T12:00:00Z' },
      { day: '2026-11-25', principal: 'alice@AGENCY.GOV', agency: 'Agency One', document: 'sdr', served: 2, denied: 1, first: '2026-11-25T09:00:00Z', last: '2026-11-25T11:00:00Z' },
      { day: '2026-11-25', principal: 'bob@contractor.example', document: 'access', served: 0, denied: 1, first: '2026-11-25T12:00:00Z', last: '2026-11-25T12:00:00Z' },
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
