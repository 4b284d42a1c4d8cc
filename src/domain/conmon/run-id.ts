import { jsonText } from '../encoding/json-chunks';
import { IntegrityError } from '../errors';
import type { DecidedRun } from './run-record';

const RUN_ID = /^[0-9a-f]{64}$/;

/**
 * RFC 8785 canonical JSON: the same value is always the same bytes, whatever order its keys were built in (the
 * domain's writer, held to the `canonicalize` package by test/property/json-chunks.property.test.ts). A run's id is
 * the SHA-256 of its record's; every store keeps records and links as this text.
 */
export function canonicalText(value: unknown): string {
  return jsonText(value, 'canonical');
}

export function tampered(where: string, id: string, what = 'no longer matches its SHA-256'): IntegrityError {
  return new IntegrityError('run-store-tampered', `${where}: run ${id} ${what}; the store was modified outside svc. Restore it from backup`);
}

/** What `get` was asked for: a run id (64 hex digits, any case) or a seq (a positive integer, or its decimal digits). */
export function parseRunKey(key: string | number): { id: string } | { seq: number } | undefined {
  if (typeof key === 'number') return Number.isSafeInteger(key) && key > 0 ? { seq: key } : undefined;
  if (RUN_ID.test(key.toLowerCase())) return { id: key.toLowerCase() };
  return /^[1-9]\d{0,15}$/.test(key) ? parseRunKey(Number(key)) : undefined;
}

/**
 * Holds what `decide` returned to the port's terms before anything is written. A mismatch is a bug in the
 * caller, not a user error: storing it would make the run look tampered with on its next read.
 */
export function checkDecided(run: DecidedRun, id: string, seq: number): void {
  if (run.summary.seq !== seq || run.summary.id !== id) {
    throw new Error(`append(${id}): decide returned run ${run.summary.id} with seq ${run.summary.seq}, expected run ${id} with seq ${seq}`);
  }
  for (const field of ['recorded_at', 'as_of'] as const) {
    if (Number.isNaN(Date.parse(run.summary[field])))
      throw new Error(`append(${id}): summary.${field} ${JSON.stringify(run.summary[field])} is not an ISO-8601 time`);
  }
}
