import { allForYear } from '@18f/us-federal-holidays';
import type { BusinessCalendar } from '../../ports/business-calendar';

/**
 * US federal holidays as OPM defines them, with a Saturday holiday observed on the Friday before and a Sunday one on
 * the Monday after (@18f/us-federal-holidays, 18F's package); each year's list is built once.
 */
export class UsFederalHolidays implements BusinessCalendar {
  private readonly years = new Map<number, Set<string>>();

  isHoliday(day: string): boolean {
    const year = Number(day.slice(0, 4));
    // A Saturday January 1 is observed on the Friday before, in the year before: look at both years.
    return this.of(year).has(day) || this.of(year + 1).has(day);
  }

  private of(year: number): Set<string> {
    let days = this.years.get(year);
    if (days === undefined) {
      days = new Set(allForYear(year, { shiftSaturdayHolidays: true, shiftSundayHolidays: true }).map((h) => h.date.toISOString().slice(0, 10)));
      this.years.set(year, days);
    }
    return days;
  }
}
