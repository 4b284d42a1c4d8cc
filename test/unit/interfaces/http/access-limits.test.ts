import fc from 'fast-check';
import { readApiConfig } from '../../../../src/interfaces/http/config/api-config';
import { DEFAULT_ACCESS_LOG_DAYS, DEFAULT_ACCESS_SUMMARY_DAYS, MIN_ACCESS_SUMMARY_DAYS } from '../../../../src/domain/trust/access-log';

const read = (limits: Record<string, unknown>) => readApiConfig({ limits }, 'api.json', '/srv/svc').limits;

describe('API config: how long the access log keeps raw events and summaries (limits.access_log_days, limits.access_summary_days)', () => {
  it('defaults to 90 days of raw events and 400 days of summaries', () => {
    expect(read({})).toEqual({
      body_bytes: 1048576,
      requests_per_minute: 6000,
      access_log_days: DEFAULT_ACCESS_LOG_DAYS,
      access_summary_days: DEFAULT_ACCESS_SUMMARY_DAYS,
    });
    expect([DEFAULT_ACCESS_LOG_DAYS, DEFAULT_ACCESS_SUMMARY_DAYS, MIN_ACCESS_SUMMARY_DAYS]).toEqual([90, 400, 187]);
    expect(read({ access_log_days: 2, access_summary_days: 187 })).toMatchObject({ access_log_days: 2, access_summary_days: 187 });
    expect(read({ access_log_days: 1000, access_summary_days: 1000 })).toMatchObject({ access_log_days: 1000, access_summary_days: 1000 });
  });

  it.each([
    [
      { access_summary_days: 186 },
      'api.json: limits.access_summary_days: expected at least 187 days (the six months CDS-TRC-ACL asks summaries of access be kept), got 186; write e.g. 400',
    ],
    [
      { access_log_days: 401 },
      'api.json: limits.access_log_days: expected 2 days (today and yesterday, still written to) to limits.access_summary_days (400), got 401; write e.g. 90',
    ],
    [
      { access_log_days: 1 },
      'api.json: limits.access_log_days: expected 2 days (today and yesterday, still written to) to limits.access_summary_days (400), got 1; write e.g. 90',
    ],
    [{ access_log_days: 0 }, 'api.json: limits.access_log_days: expected a positive integer, got number 0; write e.g. 90'],
    [{ access_summary_days: '400' }, 'api.json: limits.access_summary_days: expected a positive integer, got "400"; write e.g. 400'],
    [{ access_days: 30 }, 'api.json: limits.access_days: unknown setting; use body_bytes, requests_per_minute, access_log_days or access_summary_days'],
  ])('%j: invalid-api-config, one line naming the key and the fix', (limits, message) => {
    expect(() => read(limits)).toThrow(message);
    expect(() => read(limits)).toThrow(expect.objectContaining({ code: 'invalid-api-config' }));
  });

  it('takes any whole numbers of days with summaries of at least six months and raw events from 2 days to as long as the summaries', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 2000 }), fc.integer({ min: -5, max: 2000 }), (log, summary) => {
        const ok = log >= 2 && summary >= MIN_ACCESS_SUMMARY_DAYS && log <= summary;
        if (ok) expect(read({ access_log_days: log, access_summary_days: summary })).toMatchObject({ access_log_days: log, access_summary_days: summary });
        else expect(() => read({ access_log_days: log, access_summary_days: summary })).toThrow(/^api\.json: limits\.access_(log|summary)_days: /);
      }),
      { seed: 42, numRuns: 500 },
    );
  });
});
