/** Text a spreadsheet would run as a formula when it opens the CSV (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One RFC 4180 field, the only way svc writes a CSV cell. Scanner and catalog text reaches these cells and ISSOs
 * open the files in Excel, so text Excel would evaluate (`=HYPERLINK(…)`, `+1`, `-1+2`, `@SUM(…)`, a leading tab or
 * CR) gets OWASP's leading apostrophe and stays text; a field holding `"`, `,`, CR or LF is quoted, `"` doubled.
 */
export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One RFC 4180 record: the cells through csvCell, comma-separated, ended by CRLF. */
export function csvRecord(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
