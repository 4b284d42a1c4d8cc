import { printableText } from './printable-text';

/** Text a spreadsheet would run as a formula when it opens the CSV (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One RFC 4180 field, the only way svc writes a CSV cell. Scanner and catalog text reaches these cells and ISSOs
 * open the files in Excel (or print them with `cat`), so control characters are written out as printableText writes
 * them (`\u001b`; a CRLF line break inside the text becomes LF, a lone CR `\u000d`; tab and LF stay, inside quotes),
 * text Excel would evaluate (`=HYPERLINK(…)`, `+1`, `-1+2`, `@SUM(…)`, a leading tab) gets OWASP's leading apostrophe
 * and stays text, and a field holding `"`, `,` or LF is quoted, `"` doubled.
 */
export function csvCell(text: string): string {
  const shown = printableText(text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text);
  const safe = FORMULA_START.test(shown) ? `'${shown}` : shown;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One RFC 4180 record: the cells through csvCell, comma-separated, ended by CRLF. */
export function csvRecord(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
