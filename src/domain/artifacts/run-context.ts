import type { ReportSource } from '../ksi/ksi-result';

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

/** `YYYY-MM-DD` of an ISO-8601 time, in UTC. */
export function isoDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return date.toISOString().slice(0, 10);
}

export function addDays(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return isoDate(date);
}
