/**
 * Characters a terminal would act on or hide rather than show: C0 controls but tab and line feed (ESC starts colour
 * and cursor sequences, CR overwrites the line), DEL, C1 controls, the Unicode line and paragraph separators, the
 * bidirectional overrides and isolates (they reorder what is shown, CVE-2021-42574), and the zero-width no-break
 * space, the byte-order mark.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A message with every unprintable character written out: `\u001b` for ESC and the like, `U+FEFF` for a byte-order
 * mark (the name people search for). Applying it twice changes nothing.
 */
export function printableText(text: string): string {
  return text.replace(UNPRINTABLE, (c) => (c === '\ufeff' ? 'U+FEFF' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
