import fc from 'fast-check';
import ICAL from 'ical.js';
import { assess } from '../../src/domain/assessment/assessment';
import { csvCell, csvRecord } from '../../src/domain/encoding/csv';
import { markdownText } from '../../src/domain/encoding/markdown';
import { printableText, terminalJson, terminalText } from '../../src/domain/encoding/printable-text';
import { quotedMarkdown } from '../../src/domain/fedramp/twin';
import { assessFreshness } from '../../src/domain/freshness/freshness';
import { scheduleCalendar } from '../../src/domain/freshness/ics-calendar';
import { DEFAULT_GOVERNANCE_POLICY } from '../../src/domain/governance/governance-policy';
import { builtInCatalog } from '../fakes/fixed-catalog-source';
import { aResult } from '../support/builders';
import { SEED } from './bad-input';

/*
 * The control-character rule of every text output svc writes (docs/decisions.md): for any string, what the shared
 * encoders make of it holds no C0 control (but tab and line feed where the format allows them), no DEL, no C1
 * control and no U+2028/U+2029; each is written out as its `\u` escape instead, so it stays visible.
 */

/** Any text, weighted towards the characters a terminal acts on: ESC sequences (OSC 8 links, CSI), C1 controls, separators. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .array(
      fc.constantFrom(
        '\u001b',
        '\u001b[2J',
        '\u001b]8;;http://evil\u0007',
        '\u009b',
        '\u0085',
        '\u0080',
        '\u009f',
        '\u007f',
        '\u0000',
        '\u0007',
        '\b',
        '\t',
        '\n',
        '\r',
        '\r\n',
        '\u000b',
        '\u000c',
        '\u2028',
        '\u2029',
        '\u202e',
        '\ufeff',
        'a',
        ' ',
        '|',
        '\\',
        'é',
        '😀',
      ),
      { maxLength: 16 },
    )
    .map((cs) => cs.join('')),
);

/** C0 but tab and LF, DEL, C1, U+2028, U+2029. */
const CONTROL_BUT_TAB_LF = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

describe('every text encoder writes control characters out', () => {
  it('markdownText: no control character at all (the text is one line), and every control of the input reads as its escape', () => {
    fc.assert(
      fc.property(text, (t) => {
        const md = markdownText(t);
        expect(ANY_CONTROL.test(md)).toBe(false);
        for (const c of t.replace(/\s+/g, ' ').match(/[\u0000-\u001f\u007f-\u009f]/g) ?? []) expect(md).toContain(printableText(c).replace(/\\/g, '\\\\'));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it("quotedMarkdown (the provider's Markdown in a twin): every line a quote line, holding no control but tab", () => {
    fc.assert(
      fc.property(text, (t) => {
        for (const line of quotedMarkdown(t)) {
          expect(line.startsWith('>')).toBe(true);
          expect(/[\u0000-\u0008\n-\u001f\u007f-\u009f\u2028\u2029]/.test(line)).toBe(false);
        }
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('csvCell: no control but tab and LF; csvRecord: no CR but the CRLF that ends the record', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (cells) => {
        for (const cell of cells) expect(CONTROL_BUT_TAB_LF.test(csvCell(cell))).toBe(false);
        const record = csvRecord(cells);
        expect(record.endsWith('\r\n')).toBe(true);
        expect(CONTROL_BUT_TAB_LF.test(record.slice(0, -2))).toBe(false);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('terminalText: no control but tab, LF and a CR right before an LF; the same text when it held none', () => {
    fc.assert(
      fc.property(text, (t) => {
        const shown = terminalText(t);
        expect(CONTROL_BUT_TAB_LF.test(shown.replace(/\r\n/g, '\n'))).toBe(false);
        if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/.test(t)) expect(shown).toBe(t);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('terminalText and terminalJson keep JSON the same JSON, with no raw control character', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 })), (value) => {
        const json = JSON.stringify(value, null, 2);
        for (const shown of [terminalJson(json), terminalText(json)]) {
          expect(JSON.parse(shown)).toEqual(value);
          expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(shown)).toBe(false);
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('an ICS schedule: no control but its CRLF line ends, and a real iCalendar parser reads the text back with its controls written out', () => {
    const catalog = builtInCatalog();
    const now = new Date('2026-11-21T12:00:00Z');
    fc.assert(
      fc.property(text, text, (title, scope) => {
        const items = assess([aResult('KSI-AC-02', 'PASS', { observed_at: '2026-11-19T08:00:00Z', title })], catalog, DEFAULT_GOVERNANCE_POLICY).items;
        const ics = scheduleCalendar(assessFreshness(items, undefined, now), { scope, scopeKey: '0123456789abcdef', tool: { name: 'svc', version: '0.5.0' } });
        expect(CONTROL_BUT_TAB_LF.test(ics.replace(/\r\n/g, ''))).toBe(false);
        expect(ics.replace(/\r\n/g, '')).not.toContain('\n');
        expect(new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent')).toHaveLength(1);
        // RFC 5545 §3.3.11 TEXT read back: lines unfolded, then \\ \; \, \n undone.
        const calname = /^X-WR-CALNAME:(.*)$/m.exec(ics.replace(/\r\n /g, '').replace(/\r\n/g, '\n'))![1];
        const read = calname.replace(/\\([\\;,n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
        expect(read).toBe(printableText(`FedRAMP evidence due: ${scope}`.replace(/\r\n/g, '\n')));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
