const ISO_8601 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ]([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real calendar date and time in ISO-8601 form (the pattern does the work; Feb 29 is checked against the year). */
export function isIsoTime(value: string): boolean {
  const m = ISO_8601.exec(value);
  if (!m) return false;
  const day = Number(m[2]);
  const month = Number(m[1]);
  if (day > DAYS_IN_MONTH[month - 1]) return false;
  if (month === 2 && day === 29) {
    const year = Number(value.slice(0, 4));
    return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  }
  return true;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, safe description of a JSON value for an error message. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  return `${typeof value} ${String(value)}`;
}
