import { UsFederalHolidays } from '../../src/infrastructure/calendar/us-federal-holidays';

describe("UsFederalHolidays: OPM's federal holidays on their observed dates, from @18f/us-federal-holidays", () => {
  const calendar = new UsFederalHolidays();

  it('knows the eleven holidays of 2026, Independence Day (a Saturday) observed on Friday July 3', () => {
    const days = [
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ];
    for (const day of days) expect([day, calendar.isHoliday(day)]).toEqual([day, true]);
    expect(calendar.isHoliday('2026-07-04')).toBe(false);
    expect(calendar.isHoliday('2026-11-25')).toBe(false);
  });

  it('observes a Saturday New Year’s Day on the Friday before, in the year before (2022-01-01 → 2021-12-31)', () => {
    expect(calendar.isHoliday('2021-12-31')).toBe(true);
    expect(calendar.isHoliday('2022-01-01')).toBe(false);
  });

  it('observes a Sunday holiday on the Monday after (Christmas 2022 → 2022-12-26)', () => {
    expect([calendar.isHoliday('2022-12-25'), calendar.isHoliday('2022-12-26')]).toEqual([false, true]);
  });
});
