import { csvCell, csvRecord } from '../../../../src/domain/encoding/csv';

describe('csvCell', () => {
  it("prefixes text a spreadsheet would evaluate with OWASP's apostrophe", () => {
    expect(['=1+2', '+1', '-1+2', '@SUM(A1)', '\tx'].map(csvCell)).toEqual(["'=1+2", "'+1", "'-1+2", "'@SUM(A1)", "'\tx"]);
  });

  it('quotes a field holding a quote, comma or LF (a CRLF line break becomes LF), and doubles its quotes', () => {
    expect(['plain', 'a,b', 'say "hi"', 'a\nb', 'a\r\nb', '=HYPERLINK("http://evil.example","x")', ''].map(csvCell)).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"a\nb"',
      '"a\nb"',
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
      '',
    ]);
  });

  it('writes control characters out (a lone CR, ESC, BEL, C1, NUL, DEL, the line separators) and keeps tab and LF', () => {
    expect(
      ['\rx', 'a\rb', '\u001b]8;;http://evil\u0007click\u001b]8;;\u0007', '\u001b[2J', '\u009b31m', 'a\u2028b\u2029', 'a\tb\nc', '\u0000\u007f'].map(csvCell),
    ).toEqual([
      '\\u000dx',
      'a\\u000db',
      '\\u001b]8;;http://evil\\u0007click\\u001b]8;;\\u0007',
      '\\u001b[2J',
      '\\u009b31m',
      'a\\u2028b\\u2029',
      '"a\tb\nc"',
      '\\u0000\\u007f',
    ]);
  });

  it('writes a record as cells joined by commas and ended by CRLF', () => {
    expect(csvRecord(['ksi_id', '=cmd|x', 'a,b'])).toBe(`ksi_id,'=cmd|x,"a,b"\r\n`);
  });
});
