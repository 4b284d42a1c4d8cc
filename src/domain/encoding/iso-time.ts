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

/** The UTC day after `day` (`YYYY-MM-DD`). */
export function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
