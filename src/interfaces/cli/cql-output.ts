import type { CqlValue } from '../../domain/cql/cql-fields';
import { csvRecord } from '../../domain/encoding/csv';
import { plural } from '../../domain/encoding/plural';

/** Rendering of `svc cql query` answers: pure string functions over columns and rows. */

/** A cell as text: lists joined with `, `, a missing value empty. */
export function cellText(value: CqlValue): string {
  return value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
}

/** Aligned columns under a header and a rule, then `(<n> rows)`; trailing blanks are trimmed. */
export function cqlTable(columns: readonly string[], rows: readonly (readonly CqlValue[])[]): string {
  const footer = `(${plural(rows.length, 'row')})`;
  return (
    [
      ...textTable(
        columns,
        rows.map((row) => row.map(cellText)),
      ),
      footer,
    ].join('\n') + '\n'
  );
}

/** The lines of a plain-text table: aligned columns under a header and a rule of dashes; trailing blanks trimmed. */
export function textTable(columns: readonly string[], cells: readonly (readonly string[])[]): string[] {
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
}

/** RFC 4180 through csvRecord: a header record, CRLF line breaks, quoted fields, formula-like cells made text. */
export function cqlCsv(columns: readonly string[], rows: readonly (readonly CqlValue[])[]): string {
  return [columns, ...rows.map((row) => row.map(cellText))].map(csvRecord).join('');
}
