import type { ReportSource } from '../ksi/ksi-result';
import { isoSeconds } from '../encoding/iso-time';

/** What an artifact says about where its results came from. */
export interface InputRef {
  name: string;
  /** Hex SHA-256 of the input file's bytes. */
  sha256: string;
}

export interface RunContext {
  input: InputRef;
  /** Report-level facts (DESIGN §3 object form); empty for a bare array. */
  source?: ReportSource;
  generatedAt?: string;
  /** The run's own time (SOURCE_DATE_EPOCH when set): detection date of results that carry no date. */
  runAt: Date;
}

const UTC_OR_DATE = /^\d{4}-\d{2}-\d{2}(?:$|[T ][\d:.]*Z$)/;

/** `YYYY-MM-DD` of an ISO-8601 time, in UTC. A date or a UTC time is cut, not parsed (the common case, 10^6 times a run). */
export function isoDate(value: string | Date): string {
  if (typeof value === 'string' && UTC_OR_DATE.test(value)) return value.slice(0, 10);
  const date = typeof value === 'string' ? new Date(value) : value;
  return date.toISOString().slice(0, 10);
}

const sums = new Map<string, string>();

/** `isoDay` plus `days` calendar days. A run asks for few distinct sums, so they are remembered. */
export function addDays(isoDay: string, days: number): string {
  const key = `${isoDay}+${days}`;
  let sum = sums.get(key);
  if (sum === undefined) {
    const date = new Date(`${isoDay}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + days);
    sum = date.toISOString().slice(0, 10);
    if (sums.size > 100_000) sums.clear();
    sums.set(key, sum);
  }
  return sum;
}

/** The time a run speaks for (ISO-8601 UTC, whole seconds): its report's generated_at, else the run's own time. */
export function runAsOf(context: RunContext): string {
  return isoSeconds(new Date(context.generatedAt ?? context.runAt));
}

/** The day a run speaks for (YYYY-MM-DD, UTC): POA&M due dates, SLA buckets and overdue checks count from it. */
export function runDay(context: RunContext): string {
  return isoDate(context.generatedAt ?? context.runAt);
}
