/**
 * Characters a terminal would act on or hide rather than show: C0 controls but tab and line feed (ESC starts colour
 * and cursor sequences, CR overwrites the line), DEL, C1 controls, the Unicode line and paragraph separators, the
 * bidirectional overrides and isolates (they reorder what is shown, CVE-2021-42574), and the zero-width no-break
 * space, the byte-order mark.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
/** The same set, to test for (no `g`: no lastIndex): most text holds none, and is returned as it is without a copy. */
const HAS_UNPRINTABLE = new RegExp(UNPRINTABLE.source);

/**
 * What JSON.stringify leaves raw of UNPRINTABLE (it escapes every C0 control itself): DEL, C1, the separators, the
 * bidirectional controls and the byte-order mark.
 */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A character as its `\u` escape: `\u001b`. */
function escaped(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One unprintable character written out: `\u001b` for ESC and the like, `U+FEFF` for a byte-order mark (the name people search for). */
function visible(c: string): string {
  return c === '\ufeff' ? 'U+FEFF' : escaped(c);
}

/**
 * A message with every unprintable character written out (tab and line feed kept): `\u001b` for ESC and the like,
 * `U+FEFF` for a byte-order mark. Applying it twice changes nothing. The one rule for control characters in the text
 * svc writes for people: Markdown (markdownText), CSV (csvCell), calendars and the terminal (terminalText) build on it.
 */
export function printableText(text: string): string {
  return HAS_UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE, visible) : text;
}

/**
 * Text for the terminal (everything a command prints on stdout or stderr): every character printableText writes out,
 * as its `\u` escape (the byte-order mark too, `\ufeff`), except that a carriage return right before a line feed
 * stays, so a CSV or calendar printed whole keeps its CRLF line ends (the pair only ends a line; a lone CR, which
 * would let the text overwrite what came before it, is written out). Every replacement is a JSON escape of the
 * character it replaces, so JSON printed through it means the same JSON.
 */
export function terminalText(text: string): string {
  if (!HAS_UNPRINTABLE.test(text)) return text;
  return text.replace(UNPRINTABLE, (c: string, at: number, whole: string) => (c === '\r' && whole.charCodeAt(at + 1) === 0x0a ? c : escaped(c)));
}

/**
 * JSON text (as JSON.stringify writes it) for the terminal: DEL, C1 controls, the separators, the bidirectional
 * controls and the byte-order mark, which JSON.stringify leaves raw inside strings, as `\u` escapes. The JSON value is
 * the same (an escape means the character it names); only what the terminal is sent changes. ESC and the other C0
 * controls are escaped by JSON.stringify already, so a theme's colour sequences around the tokens are left alone.
 */
export function terminalJson(json: string): string {
  return json.replace(RAW_IN_JSON, escaped);
}
