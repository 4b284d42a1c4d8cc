import fc from 'fast-check';
import { markdownText } from '../../src/domain/encoding/markdown';
import { printableText } from '../../src/domain/encoding/printable-text';
import { SEED } from './bad-input';

/** The text a reader sees: backslash escapes and the three entities undone. */
const rendered = (markdown: string) =>
  markdown.replace(
    /\\(.)|&(amp|lt|gt);/g,
    (_, escaped: string | undefined, entity: string | undefined) => escaped ?? { amp: '&', lt: '<', gt: '>' }[entity as 'amp' | 'lt' | 'gt'],
  );

/** What markdownText makes of a text, as read: its white space collapsed, its control characters written out (`\u001b`). */
const shown = (t: string) => printableText(t.replace(/\s+/g, ' ').trim());

/** Characters that are syntax somewhere in Markdown, and the white space that breaks lines or indents. */
const SYNTAX = [
  '\u001b',
  '\u009b',
  '\u0007',
  '\u007f',
  '\u0085',
  '\u202e',
  '#',
  '>',
  '<',
  '-',
  '+',
  '*',
  '=',
  '_',
  '`',
  '~',
  ':',
  '|',
  '\\',
  '[',
  ']',
  '(',
  ')',
  '!',
  '&',
  ';',
  '.',
  '1',
  '9',
  ' ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u2028',
  'a',
  'é',
  '😀',
];
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.array(fc.constantFrom(...SYNTAX), { maxLength: 16 }).map((cs) => cs.join('')),
  fc.constantFrom('\n# INJECTED-TITLE-HEADING', '<img src=x onerror=alert(1)>', '1. item', '---', '    code', '```', '| a | b |', '&amp;'),
);

/** The cells of a table row, split at the pipes no backslash escapes, as GFM splits them. */
function cellsOf(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '\\' && i + 1 < row.length) cell += row[i] + row[++i];
    else if (row[i] === '|') {
      cells.push(cell);
      cell = '';
    } else cell += row[i];
  }
  cells.push(cell);
  return cells.slice(1, -1).map((c) => c.trim());
}

describe('markdownText', () => {
  it('stays on one line, holds no < (no tag, no autolink) and no control character, starts no block, and reads as the text with its white space collapsed and its controls written out', () => {
    fc.assert(
      fc.property(text, (t) => {
        const md = markdownText(t);
        expect(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(md)).toBe(false);
        expect(md.includes('<')).toBe(false);
        expect(/&(?!amp;|lt;|gt;)/.test(md)).toBe(false);
        expect(/^(?:\s|[#>+\-*=_`~:|[<]|\d{1,9}[.)](?: |$))/.test(md)).toBe(false);
        expect(rendered(md)).toBe(shown(t));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('keeps a table row at its number of cells, each reading as its text', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (texts) => {
        const row = `| ${texts.map(markdownText).join(' | ')} |`;
        expect(cellsOf(row).map(rendered)).toEqual(texts.map(shown));
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });
});
