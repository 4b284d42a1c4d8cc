/**
 * An instant as every artifact svc writes it: ISO-8601 UTC to the second (`2026-11-24T21:00:03Z`), the milliseconds
 * JavaScript adds left out, so a time reads the same as the scanners' and FedRAMP's.
 */
export function isoSeconds(instant: Date): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
