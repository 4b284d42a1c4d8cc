import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../../domain/encoding/json-array-items';

/**
 * Finds where a normalized report's results array lies in the raw bytes and where it can be cut into
 * parts at element boundaries, so each part can be parsed on its own thread with JSON.parse('[' + part + ']').
 *
 * The report-level fields before the array are walked with a small state machine; the cuts and the end of
 * the array are guesses checked by parsing (see cutPoints). Nothing here validates JSON: a wrong guess
 * leaves some part unparsable, anything unexpected makes it give up (undefined), and either way the caller
 * parses the whole document the ordinary way, which reports any error properly.
 */
export interface ReportLayout {
  /** Byte offsets [start, end) of the array's contents, between `[` and `]`. */
  start: number;
  end: number;
  /** Offsets of the commas that end part i (cut points, ascending); parts = cuts + 1. */
  cuts: number[];
  /** The document with the results array replaced by `[]` (the report-level fields), or undefined for a bare array. */
  header?: string;
}

export function splitReport(bytes: Buffer, from: number, parts: number): ReportLayout | undefined {
  const open = resultsArrayOpen(bytes, from);
  if (open === undefined) return undefined;
  if (open === skipSpace(bytes, from)) {
    const end = lastByte(bytes, bytes.length);
    if (bytes[end] !== CLOSE_ARRAY) return undefined;
    return { start: open + 1, end, cuts: cutPoints(bytes, open + 1, end, parts) };
  }
  const end = arrayEnd(bytes, open);
  if (end === undefined) return undefined;
  const cuts = cutPoints(bytes, open + 1, end, parts);
  const header = `${Buffer.from(bytes.buffer, bytes.byteOffset + from, open - from).toString('utf8')}[]${Buffer.from(bytes.buffer, bytes.byteOffset + end + 1, bytes.length - end - 1).toString('utf8')}`;
  return { start: open + 1, end, cuts, header };
}

/**
 * Offset of the `[` that opens a normalized report's results array: the document's own for a bare array, else that of
 * the "results" member of the top-level object, whose members before it are walked with a small state machine.
 * Undefined when the bytes (the whole file, or only its start) do not show one.
 */
export function resultsArrayOpen(bytes: Uint8Array, from: number): number | undefined {
  let i = skipSpace(bytes, from);
  if (bytes[i] === OPEN_ARRAY) return i;
  if (bytes[i] !== OPEN_OBJECT) return undefined;
  // An object: find the "results" member at depth 1.
  i += 1;
  while (i < bytes.length) {
    i = skipSpace(bytes, i);
    if (bytes[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(bytes, i);
    if (keyEnd === undefined) return undefined;
    const isResults = keyEnd - i === 8 && Buffer.from(bytes.buffer, bytes.byteOffset + i + 1, 7).toString('latin1') === 'results';
    i = skipSpace(bytes, keyEnd + 1);
    if (bytes[i] !== COLON) return undefined;
    i = skipSpace(bytes, i + 1);
    if (isResults) return bytes[i] === OPEN_ARRAY ? i : undefined;
    const valueEnd = valueEndAt(bytes, i);
    if (valueEnd === undefined) return undefined;
    i = skipSpace(bytes, valueEnd);
    if (bytes[i] === COMMA) i += 1;
    else return undefined;
  }
  return undefined;
}

/** The `]` closing the array at `open`: `]}` at the end of the file, else found by walking the array. */
function arrayEnd(bytes: Uint8Array, open: number): number | undefined {
  const brace = lastByte(bytes, bytes.length);
  const bracket = lastByte(bytes, brace);
  if (bytes[brace] === CLOSE_OBJECT && bytes[bracket] === CLOSE_ARRAY && bracket > open) return bracket;
  return closing(bytes, open);
}

/** Offset of the last non-space byte before `end`. */
export function lastByte(bytes: Uint8Array, end: number): number {
  let i = end - 1;
  while (i >= 0 && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i -= 1;
  return i;
}

/**
 * A cut point near each 1/parts of the span: a comma between `}` and `{`, as between two results. It is only
 * a guess (the comma could sit inside a string or a nested value), and it does not need to be more:
 * `JSON.parse('[' + part + ']')` of the part before a cut succeeds only if the part is a list of whole values,
 * that is only if the comma really separates two results. The caller parses every part and falls back to
 * parsing the whole document when one fails, so no byte before the cut is ever looked at here.
 */
function cutPoints(bytes: Buffer, start: number, end: number, parts: number): number[] {
  const cuts: number[] = [];
  for (let k = 1; k < parts; k++) {
    let at = bytes.indexOf(COMMA, Math.max(start + Math.floor(((end - start) * k) / parts), (cuts.at(-1) ?? start) + 1));
    while (at !== -1 && at < end && !(bytes[lastByte(bytes, at)] === CLOSE_OBJECT && bytes[skipSpace(bytes, at + 1)] === OPEN_OBJECT))
      at = bytes.indexOf(COMMA, at + 1);
    if (at === -1 || at >= end) break;
    cuts.push(at);
  }
  return cuts;
}

/**
 * Offset of the quote that closes the string opening at `i`. Strings are most of a report's bytes, so the
 * next quote is found with indexOf (memchr) and only the backslashes before it are looked at.
 */
function stringEnd(bytes: Uint8Array, i: number): number | undefined {
  for (let j = (bytes as Buffer).indexOf(QUOTE, i + 1); j !== -1; j = (bytes as Buffer).indexOf(QUOTE, j + 1)) {
    let backslashes = 0;
    while (bytes[j - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return j;
  }
  return undefined;
}

/** Offset of the bracket that closes the array or object opening at `i`. */
function closing(bytes: Uint8Array, i: number): number | undefined {
  let depth = 0;
  for (let j = i; j < bytes.length; j++) {
    const c = bytes[j];
    if (c === QUOTE) {
      const close = stringEnd(bytes, j);
      if (close === undefined) return undefined;
      j = close;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth -= 1;
      if (depth === 0) return j;
    }
  }
  return undefined;
}

/** Offset just past the JSON value starting at `i` (a scalar ends at the next comma or closing bracket). */
function valueEndAt(bytes: Uint8Array, i: number): number | undefined {
  const c = bytes[i];
  if (c === QUOTE) {
    const close = stringEnd(bytes, i);
    return close === undefined ? undefined : close + 1;
  }
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    const close = closing(bytes, i);
    return close === undefined ? undefined : close + 1;
  }
  let j = i;
  while (j < bytes.length && bytes[j] !== COMMA && bytes[j] !== CLOSE_OBJECT && bytes[j] !== CLOSE_ARRAY) j += 1;
  return j;
}

export function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i += 1;
  return i;
}
