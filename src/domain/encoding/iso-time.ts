/**
 * An instant as every artifact svc writes it: ISO-8601 UTC to the second (`2026-11-24T21:00:03Z`), the milliseconds
 * JavaScript adds left out, so a time reads the same as the scanners' and FedRAMP's.
 */
export function isoSeconds(instant: Date): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The last second of a UTC day (`YYYY-MM-DD`): a thing due that day is on time until then, late from the next. */
export function endOfDay(day: string): string {
  return `${day}T23:59:59Z`;
}

/** A day in milliseconds (24 hours: UTC has no daylight-saving days), for time arithmetic in whole days. */
export const DAY_MS = 86_400_000;

/** The UTC day `days` days after `day` (`YYYY-MM-DD`; negative: before). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day.slice(0, 10)}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day after `day` (`YYYY-MM-DD`). */
export function dayAfter(day: string): string {
  return addDays(day, 1);
}

/** Days since the epoch of a UTC day (`YYYY-MM-DD`, or a time whose first ten characters are one): days subtract. */
export function dayNumber(day: string): number {
  return Math.floor(Date.parse(`${day.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}

/**
 * The days svc reads in a date or time it is given (a flag, a profile date): 1970-01-01 through 2999-12-31, UTC. Every
 * day svc counts from one (a notice in business days, a due time in hours or days, the next OCR three months on, a
 * remediation 192 days on: at most a few years) then stays a four-digit-year ISO-8601 date, the form FedRAMP's
 * schemas, the federal holiday calendar and svc's own day arithmetic handle; `9999-12-31` plus ten business days
 * would not. Nothing FedRAMP asks for lies outside it.
 */
export const FIRST_DAY = '1970-01-01';
export const LAST_DAY = '2999-12-31';
const FIRST_MS = Date.parse(`${FIRST_DAY}T00:00:00Z`);
const LAST_MS = Date.parse(`${LAST_DAY}T23:59:59.999Z`);

/** Whether an instant (ms since the epoch) lies within FIRST_DAY through LAST_DAY, UTC. */
export function withinSupportedDays(time: number): boolean {
  return time >= FIRST_MS && time <= LAST_MS;
}

/** Whether `day` (`YYYY-MM-DD`) is a day of the calendar: 2027-02-29 and 2026-04-31 are not (Date.parse rolls them over). */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}
