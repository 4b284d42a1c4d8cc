import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { csvCell, csvRecord } from '../../src/domain/encoding/csv';
import { SEED } from './bad-input';

const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'];
/** What a cell holds after the guard: formula-like text behind one apostrophe, other text as it was. */
const guarded = (text: string) => (FORMULA_START.some((c) => text.startsWith(c)) ? `'${text}` : text);

/** Any text, weighted towards what breaks CSV: formula triggers, quotes, commas and line breaks. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.array(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', '"', ',', "'", ' ', 'a', '1', '😀'), { maxLength: 12 }).map((cs) => cs.join('')),
);

describe('csvCell', () => {
  it('reads back through csv-parse as the guarded text, and never starts with a formula trigger', () => {
    fc.assert(
      fc.property(text, (t) => {
        const cell = csvCell(t);
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
