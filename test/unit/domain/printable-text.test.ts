import { jsonSyntaxProblem } from '../../../src/domain/encoding/json-syntax-problem';
import { printableText, terminalJson, terminalText } from '../../../src/domain/encoding/printable-text';

describe('printableText', () => {
  it('writes out ESC and the other C0 controls as \\u escapes', () => {
    expect(printableText('a\u001b[31mred\u001b[0m')).toBe('a\\u001b[31mred\\u001b[0m');
    expect(printableText('\u0000\u0007\u0008\r\u000b\u000c\u001f')).toBe('\\u0000\\u0007\\u0008\\u000d\\u000b\\u000c\\u001f');
  });

  it('keeps tab and line feed: oclif usage messages span lines', () => {
    expect(printableText('Missing 1 required arg:\ninput\tthe report')).toBe('Missing 1 required arg:\ninput\tthe report');
  });

  it('writes a byte-order mark as U+FEFF', () => {
    expect(printableText("Unexpected token '\ufeff'")).toBe("Unexpected token 'U+FEFF'");
  });

  it('writes out DEL, C1 controls, line separators and bidirectional controls', () => {
    expect(printableText('\u007f\u0080\u009b\u2028\u2029')).toBe('\\u007f\\u0080\\u009b\\u2028\\u2029');
    expect(printableText('admin\u202e\u2066txt.exe\u2069\u202a\u202d')).toBe('admin\\u202e\\u2066txt.exe\\u2069\\u202a\\u202d');
  });

  it('leaves printable text, non-ASCII letters and emoji alone', () => {
    const text = 'KSI-AC-02: "Zugriffsprüfung" — 検証 ✓ 🔐 \u00a0\u00ff\u200d';
    expect(printableText(text)).toBe(text);
  });

  it('changes nothing the second time', () => {
    const once = printableText('\u001b\ufeff\u202e\r');
    expect(once).toBe('\\u001b' + 'U+FEFF' + '\\u202e' + '\\u000d');
    expect(printableText(once)).toBe(once);
  });
});

describe('terminalText', () => {
  it('writes out what a terminal would act on: an OSC 8 link, a screen clear, an 8-bit CSI, a lone CR, the separators, a BOM', () => {
    expect(terminalText('\u001b]8;;http://evil\u0007click\u001b]8;;\u0007')).toBe('\\u001b]8;;http://evil\\u0007click\\u001b]8;;\\u0007');
    expect(terminalText('a\u001b[2Jb\u009b31mc\rd\u2028e\u2029\ufeff\u202e')).toBe('a\\u001b[2Jb\\u009b31mc\\u000dd\\u2028e\\u2029\\ufeff\\u202e');
  });

  it('keeps tab, LF and a CRLF line end (a CSV or calendar printed whole)', () => {
    expect(terminalText('a,b\r\nc\td\ne')).toBe('a,b\r\nc\td\ne');
    expect(terminalText('a\r\r\n')).toBe('a\\u000d\r\n');
  });
});

describe('terminalJson', () => {
  it('escapes what JSON.stringify leaves raw, and the JSON means the same', () => {
    const value = { title: 'a\u009b31m\u0085\u007f\u2028\u2029\ufeff\u202eb', esc: '\u001b[2J' };
    const json = terminalJson(JSON.stringify(value));
    expect(json).toBe('{"title":"a\\u009b31m\\u0085\\u007f\\u2028\\u2029\\ufeff\\u202eb","esc":"\\u001b[2J"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('jsonSyntaxProblem', () => {
  const problem = (text: string): string => {
    try {
      JSON.parse(text);
    } catch (error) {
      return jsonSyntaxProblem((error as Error).message);
    }
    throw new Error(`${text} parsed`);
  };

  it('names an ESC and a second byte-order mark as printable text', () => {
    expect(problem('[\u001b]')).toBe("Unexpected token '\\u001b'");
    expect(problem('\ufeff[]')).toBe("Unexpected token 'U+FEFF'");
  });
});
