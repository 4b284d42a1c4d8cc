import { markdownLiteral, markdownText } from '../../../../src/domain/encoding/markdown';

describe('markdownText', () => {
  it('flattens LF, CRLF, a lone CR and other white space runs to one space, and trims the ends', () => {
    expect(['a\nb', 'a\r\nb', 'a\rb', 'a \r\n\t b', '\u2028a\u2029b ', '  indented code', 'x\n# INJECTED-TITLE-HEADING'].map(markdownText)).toEqual([
      'a b',
      'a b',
      'a b',
      'a b',
      'a b',
      'indented code',
      'x # INJECTED-TITLE-HEADING',
    ]);
  });

  it('escapes a block marker at the start, after flattening', () => {
    expect(
      [
        '\n# INJECTED-TITLE-HEADING',
        '## h',
        '- item',
        '+ item',
        '* item',
        '---',
        '===',
        '___',
        '```js',
        '~~~',
        ':---',
        '1. item',
        '12) item',
        '3.',
        '1.5 GB',
        '2026-11-02',
      ].map(markdownText),
    ).toEqual([
      '\\# INJECTED-TITLE-HEADING',
      '\\## h',
      '\\- item',
      '\\+ item',
      '\\* item',
      '\\---',
      '\\===',
      '\\___',
      '\\```js',
      '\\~~~',
      '\\:---',
      '1\\. item',
      '12\\) item',
      '3\\.',
      '1.5 GB',
      '2026-11-02',
    ]);
  });

  it('writes & and < as entities, so raw HTML and autolinks stay text; > only at the start, where it quotes', () => {
    expect(markdownText('<img src=x onerror=alert(1)> & <script>')).toBe('&lt;img src=x onerror=alert(1)> &amp; &lt;script>');
    expect(markdownText('<https://evil.example>')).toBe('&lt;https://evil.example>');
    expect(markdownText('> quoted')).toBe('&gt; quoted');
    expect(markdownText('\n>> quoted')).toBe('&gt;> quoted');
    expect(markdownText('content hash 0a1b -> 2c3d')).toBe('content hash 0a1b -> 2c3d');
    expect(markdownText('&lt;')).toBe('&amp;lt;');
  });

  it('escapes backslashes, pipes and brackets, so a cell cannot split and text cannot link or embed an image', () => {
    expect(markdownText('a | b')).toBe('a \\| b');
    expect(markdownText('a \\| b')).toBe('a \\\\\\| b');
    expect(markdownText('![x](https://tracker.example/p.gif) [click](javascript:alert(1))')).toBe(
      '!\\[x\\](https://tracker.example/p.gif) \\[click\\](javascript:alert(1))',
    );
    expect(markdownText('C:\\scans\\out.json')).toBe('C:\\\\scans\\\\out.json');
  });

  it('leaves ordinary text as it is', () => {
    expect(
      ['Phishing-resistant MFA for all users', 'KSI-IA-02', 'ac-2.1', 'identity-team@agency.example', 'TLS 1.2 or newer (ScubaGear 1.5.1)', ''].map(
        markdownText,
      ),
    ).toEqual(['Phishing-resistant MFA for all users', 'KSI-IA-02', 'ac-2.1', 'identity-team@agency.example', 'TLS 1.2 or newer (ScubaGear 1.5.1)', '']);
  });
});

describe('markdownLiteral (svc text in a JSON field FedRAMP renders as Markdown)', () => {
  it('backslash-escapes what CommonMark would read as HTML, an entity, a link, code or emphasis, and reads plainly in JSON', () => {
    expect(markdownLiteral('Prowler <prowler_version>')).toBe('Prowler \\<prowler_version>');
    expect(markdownLiteral('a <!-- c --> & &amp; [x](y) `code` *em* ~del~')).toBe('a \\<!-- c --> \\& \\&amp; \\[x\\](y) \\`code\\` \\*em\\* \\~del\\~');
  });

  it('leaves an underscore inside a word alone (no emphasis there), and escapes one at a word edge', () => {
    expect(markdownLiteral('iam_root_mfa_enabled _x_ __init__')).toBe('iam_root_mfa_enabled \\_x\\_ \\_\\_init\\_\\_');
  });

  it('escapes a backslash only before ASCII punctuation, so a Windows path stays as written', () => {
    expect(markdownLiteral('C:\\Users\\ada \\* \\<')).toBe('C:\\Users\\ada \\\\\\* \\\\\\<');
  });

  it('flattens white space and escapes a block marker at the start', () => {
    expect(['# h', '> q', '- i', '1. i', 'a\n- b', '  x  '].map(markdownLiteral)).toEqual(['\\# h', '\\> q', '\\- i', '1\\. i', 'a - b', 'x']);
  });
});
