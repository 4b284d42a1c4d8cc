import fc from 'fast-check';
import { firstMalformed, utf8Text } from '../../../../src/domain/encoding/utf8-text';
import { SEED } from '../../../property/bad-input';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const decodes = (bytes: Uint8Array) => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('utf8Text', () => {
  it('reads UTF-8 from an offset (after a byte-order mark), and names the file, byte, line and value of the first bad sequence', () => {
    expect(utf8Text(Buffer.from('\ufeffa\nb é ✓ 🔐'), 'f.md', 3)).toBe('a\nb é ✓ 🔐');
    expect(() => utf8Text(Buffer.from([0x61, 0x0a, 0x62, 0x0a, 0xff]), 'f.md')).toThrow(
      'f.md: not UTF-8 text: byte 4 (line 3), 0xFF, is not part of a UTF-8 character; save the file as UTF-8',
    );
  });

  it('firstMalformed agrees with a fatal TextDecoder on any bytes: the text before it decodes, and nothing is bad when it is the length', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 24 }),
      fc.string({ unit: 'binary', maxLength: 12 }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
      fc
        .array(fc.constantFrom(0x61, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff), { maxLength: 16 })
        .map((a) => Uint8Array.from(a)),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const at = firstMalformed(b);
        expect(at === b.length).toBe(decodes(b));
        expect(decodes(b.subarray(0, at))).toBe(true);
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});
