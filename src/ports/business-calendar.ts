import type { InjectionToken } from 'tsyringe';

/**
 * The days FedRAMP's business-day timeframes skip besides weekends (DESIGN §12.5): US federal holidays on their
 * observed dates, from the US government's own package rather than a hand-kept table.
 */
export interface BusinessCalendar {
  /** Whether a UTC day (`YYYY-MM-DD`) is a holiday. */
  isHoliday(day: string): boolean;
}

export const BUSINESS_CALENDAR: InjectionToken<BusinessCalendar> = Symbol('BusinessCalendar');
