import { InvalidInputError } from '../errors';

/** The runs a store lists: those whose `as_of` is within the bounds. */
export interface RunRange {
  /** Inclusive bounds on `as_of` (ISO-8601). */
  from?: string;
  to?: string;
}

/** A RunRange as instants (ms since the epoch): `as_of` values with different offsets compare by the time they name. */
export interface Instants {
  from?: number;
  to?: number;
}

export function instantsOf(range: RunRange = {}): Instants {
  return { from: instant(range.from, 'from'), to: instant(range.to, 'to') };
}

export function isWithin(asOf: string, { from, to }: Instants): boolean {
  const at = Date.parse(asOf);
  return (from === undefined || at >= from) && (to === undefined || at <= to);
}

function instant(value: string | undefined, bound: string): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at))
    throw new InvalidInputError('bad-run-range', `${bound} ${JSON.stringify(value)}: not an ISO-8601 time; write e.g. 2026-11-01 or 2026-11-01T00:00:00Z`);
  return at;
}
