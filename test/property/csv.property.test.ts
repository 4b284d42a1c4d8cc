import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { csvCell, csvRecord } from '../../src/domain/encoding/csv';
import { printableText } from '../../src/domain/encoding/printable-text';
import { SEED } from './bad-input';

const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'];
/** What a cell holds: control characters written out (a CRLF line break as LF), then formula-like text behind one apostrophe. */
const guarded = (text: string) => {
  const shown = printableText(text.replace(/\r\n/g, '\n'));
  return FORMULA_START.some((c) => shown.startsWith(c)) ? `'${shown}` : shown;
};

/** Any text, weighted towards what breaks CSV: formula triggers, quotes, commas and line breaks. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .array(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', '"', ',', "'", ' ', 'a', '1', '😀', '\u001b', '\u009b', '\u2028', '\u0000'), {
      maxLength: 12,
    })
    .map((cs) => cs.join('')),
);

describe('csvCell', () => {
  it('reads back through csv-parse as the guarded text, never starts with a formula trigger, and holds no control but tab and LF', () => {
    fc.assert(
      fc.property(text, (t) => {
        const cell = csvCell(t);
        expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/.test(cell)).toBe(false);
        const unquoted = cell.startsWith('"') ? cell.slice(1) : cell;
        expect(FORMULA_START.some((c) => unquoted.startsWith(c))).toBe(false);
        expect(parse(`${cell}\r\n`, { relax_column_count: false })).toEqual([[guarded(t)]]);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('keeps the cells of a record apart: csv-parse reads the records back cell by cell', () => {
    fc.assert(
      fc.property(fc.array(fc.array(text, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 4 }), (rows) => {
        const width = rows[0].length;
        const table = rows.map((row) => [...row, ...Array<string>(width).fill('')].slice(0, width));
        expect(parse(table.map(csvRecord).join(''))).toEqual(table.map((row) => row.map(guarded)));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
