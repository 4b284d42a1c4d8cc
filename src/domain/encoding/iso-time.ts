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

const DAY_MS = 86_400_000;

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
