import { InvalidInputError } from '../../domain/errors';
import { isPlainObject } from '../../domain/encoding/json-values';
import type { ParsedScan } from '../../domain/scan/scan';
import type { VendorInfo } from '../../ports/scan-reader';
import type { RawInput } from './raw-input';

/**
 * One scanner's output format. `looksLike` decides from the first 64 KiB of a file whether it is this
 * format (it is also asked when a file was given to another vendor, to say what the file looks like);
 * `parse` reads the whole file and throws InvalidInputError naming the file and the place for a file of the
 * right kind but the wrong shape.
 */
export interface VendorParser {
  readonly info: VendorInfo;
  looksLike(head: string): boolean;
  /**
   * Vendors whose format is a narrower form of this one's (HDF is InSpec's JSON and more): when this parser and only
   * such vendors claim a file, `svc adapter run auto` picks this one.
   */
  readonly generalizes?: readonly string[];
  parse(input: RawInput): Promise<ParsedScan>;
}

/**
 * An InvalidInputError for a file of the right kind but the wrong shape, naming the place. Keys and values quoted from
 * the file may hold line breaks and other control characters: they are escaped, so the message stays one line.
 */
export function shapeError(input: RawInput, tool: string, path: string, problem: string): InvalidInputError {
  return new InvalidInputError(
    'invalid-scan',
    `${input.path}: ${oneLine(path)}: ${oneLine(problem)}; this is not ${tool} output as svc knows it (docs/adapters.md)`,
  );
}

function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) =>
    c < ' ' ? JSON.stringify(c).slice(1, -1) : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * String(value) for a value a file supplied. A JSON object may carry its own "toString" or "valueOf" member, which
 * String() and Number() would try to call and fail on: objects and arrays read as their JSON text instead.
 */
export function asText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

const ZONED = /(z|utc|gmt|[+-]\d{2}:?\d{2})$/i;
const ISO_LOCAL = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * ISO-8601 of a time a tool wrote in any form Date understands (epoch milliseconds for numbers). A time written
 * without a zone is taken as UTC, so a scan reads the same on every machine; a time before 1970 (Go's zero time
 * `0001-01-01`) is no time at all.
 */
export function isoTime(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  let written: string | number = value;
  if (typeof value === 'string') {
    const text = value.trim();
    written = ZONED.test(text) ? text : ISO_LOCAL.test(text) ? `${text.replace(' ', 'T')}Z` : `${text} UTC`;
  }
  const time = new Date(written);
  if (Number.isNaN(time.getTime()) || time.getUTCFullYear() < 1970) return undefined;
  return time.toISOString().replace(/\.000Z$/, 'Z');
}

/**
 * Text a check may keep: whitespace squeezed, at most `max` characters, and a copy of its own. A string from the
 * streaming XML parser can be a slice of the megabyte it was read from, and keeping the slice keeps the megabyte.
 */
export function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return Buffer.from(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat, 'utf8').toString('utf8');
}

/** `table[key]` for a key a file supplied: only the table's own entries count, never `constructor` or `__proto__`. */
export function entry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** A JSON object a tool wrote. */
export type Json = Record<string, unknown>;

/** `value` when it is a JSON object, else an empty one: for optional parts of a tool's document. */
export function obj(value: unknown): Json {
  return isPlainObject(value) ? value : {};
}

/** `value` when it is a list, else an empty one. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `value` trimmed when it is text with something in it, else undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
