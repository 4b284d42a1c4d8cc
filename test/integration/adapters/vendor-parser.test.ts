import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawInput } from '../../../src/infrastructure/scans/raw-input';
import { asText, clip, entry, isoTime, shapeError } from '../../../src/infrastructure/scans/vendor-parser';
import { scubagear } from '../../../src/infrastructure/scans/vendors/scubagear';
import { readWith } from '../../support/adapters';

describe('isoTime', () => {
  it.each([
    ['2026-05-04T17:15:48.307Z', '2026-05-04T17:15:48.307Z'],
    ['2026-05-04T17:15:48', '2026-05-04T17:15:48Z'],
    ['2026-05-04 17:15:48', '2026-05-04T17:15:48Z'],
    ['2026-05-04T19:15:48+02:00', '2026-05-04T17:15:48Z'],
    ['Thu, 6 Dec 2018 21:29:46', '2018-12-06T21:29:46Z'],
    ['Thu Mar 23 14:05:41 2023', '2023-03-23T14:05:41Z'],
    [1767225600000, '2026-01-01T00:00:00Z'],
  ])('reads %j as %s, a time without a zone as UTC', (value, iso) => expect(isoTime(value)).toBe(iso));

  it.each(['0001-01-01T00:00:00Z', 'yesterday', '', null, {}])('is undefined for %j', (value) => expect(isoTime(value)).toBeUndefined());
});

describe('clip', () => {
  it('squeezes whitespace and cuts long text with an ellipsis', () => {
    expect(clip('  a \n\t b  ')).toBe('a b');
    expect(clip('x'.repeat(400))).toBe(`${'x'.repeat(299)}…`);
    expect(clip('abcdef', 4)).toBe('abc…');
  });
});

describe('entry', () => {
  it("finds only a table's own entries, whatever word a file supplies", () => {
    const table = { pass: 1 };
    expect([entry(table, 'pass'), entry(table, 'constructor'), entry(table, '__proto__'), entry(table, 'toString')]).toEqual([
      1,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('keeps a tool word such as "constructor" a shape error, not a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proto-'));
    const path = join(dir, 'ScubaResults.json');
    writeFileSync(
      path,
      JSON.stringify({
        MetaData: { Tool: 'ScubaGear' },
        Results: { AAD: [{ Controls: [{ 'Control ID': 'MS.AAD.1.1v1', Result: 'constructor', Criticality: 'Shall' }] }] },
      }),
    );
    await expect(readWith(scubagear, path)).rejects.toMatchObject({
      code: 'invalid-scan',
      message: expect.stringContaining('Results.AAD[0].Controls[0].Result: "constructor" is not a ScubaGear result'),
    });
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('asText', () => {
  it('is String() of a scalar and the JSON of an object or array, even one with its own toString', () => {
    expect([asText('a'), asText(7), asText(true), asText(null), asText(undefined), asText([1, 'b']), asText({ toString: 1, valueOf: 1 })]).toEqual([
      'a',
      '7',
      'true',
      'null',
      'undefined',
      '[1,"b"]',
      '{"toString":1,"valueOf":1}',
    ]);
  });
});

describe('shapeError', () => {
  // Found by test/property/vendor-adapters.property.test.ts: a key or value with a line break made the message two lines.
  it('escapes line breaks and control characters quoted from the file, so the message is one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-shape-'));
    const path = join(dir, 'ScubaResults.json');
    writeFileSync(
      path,
      JSON.stringify({
        MetaData: { Tool: 'ScubaGear' },
        Results: { 'AAD\nEXO': [{ Controls: [{ 'Control ID': 'MS.AAD.1.1v1', Result: 'Pass\r\n\u2028\u0007', Criticality: 'Shall' }] }] },
      }),
    );
    await expect(readWith(scubagear, path)).rejects.toMatchObject({
      code: 'invalid-scan',
      message: `${path}: Results.AAD\\nEXO[0].Controls[0].Result: "Pass\\r\\n\\u2028\\u0007" is not a ScubaGear result (Pass, Fail, Warning, N/A, Omitted, Error, Incorrect result); this is not ScubaGear output as svc knows it (docs/adapters.md)`,
    });
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('RawInput.text', () => {
  it('refuses a file larger than one string can hold, naming it, before reading a byte', async () => {
    await expect(new RawInput('/scans/huge.json', 0x20000000).json()).rejects.toMatchObject({
      code: 'input-too-large',
      message: '/scans/huge.json: 536870912 bytes is more than this format can be read in one piece (512 MiB); split the scan into smaller runs',
    });
  });
});

describe('RawInput.xml', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-xml-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('streams elements and text, keeping a character cut between two chunks whole, and digests the bytes', async () => {
    const path = join(dir, 'a.xml');
    const text = `<r>${'<i>é€</i>'.repeat(200_000)}</r>`;
    writeFileSync(path, text);
    const input = new RawInput(path, Buffer.byteLength(text));
    let items = 0;
    let chars = '';
    await input.xml({ open: (tag) => void (tag.local === 'i' && items++), text: (t) => void (chars.length < 10 && (chars += t)) });
    expect(items).toBe(200_000);
    expect(chars.startsWith('é€é€')).toBe(true);
    expect(input.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports truncated XML with its place, and lets a shape error from the visitor out unchanged', async () => {
    const cut = join(dir, 'cut.xml');
    writeFileSync(cut, '<r><i>1</i><i>');
    await expect(new RawInput(cut, 14).xml({})).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'invalid-xml',
      message: expect.stringMatching(/cut\.xml: invalid XML: .*; the file is damaged or cut short, export it again$/),
    });
    const good = join(dir, 'good.xml');
    writeFileSync(good, '<r><bad/></r>');
    const input = new RawInput(good, 13);
    const visitor = {
      open: (tag: { local: string }) => {
        if (tag.local === 'bad') throw shapeError(input, 'Tool', 'r.bad', 'not expected');
      },
    };
    await expect(input.xml(visitor)).rejects.toMatchObject({
      code: 'invalid-scan',
      message: `${good}: r.bad: not expected; this is not Tool output as svc knows it (docs/adapters.md)`,
    });
  });
});
