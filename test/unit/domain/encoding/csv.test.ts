import { csvCell, csvRecord } from '../../../../src/domain/encoding/csv';

describe('csvCell', () => {
  it("prefixes text a spreadsheet would evaluate with OWASP's apostrophe", () => {
    expect(['=1+2', '+1', '-1+2', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual(["'=1+2", "'+1", "'-1+2", "'@SUM(A1)", "'\tx", `"'\rx"`]);
  });

  it('quotes a field holding a quote, comma, CR or LF, and doubles its quotes', () => {
    expect(['plain', 'a,b', 'say "hi"', 'a\nb', 'a\rb', '=HYPERLINK("http://evil.example","x")', ''].map(csvCell)).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"a\nb"',
      '"a\rb"',
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
      '',
    ]);
  });

  it('writes a record as cells joined by commas and ended by CRLF', () => {
    expect(csvRecord(['ksi_id', '=cmd|x', 'a,b'])).toBe(`ksi_id,'=cmd|x,"a,b"\r\n`);
  });
});
