import fc from 'fast-check';
import canonicalize from 'canonicalize';
import type { Hashing } from '../../src/ports/hashing';

/** What every HASHING adapter must do: FIPS 180-4 / RFC 8785 / RFC 6962 test vectors and JCS equivalence. */
export function hashingContract(name: string, make: () => Hashing): void {
  describe(`${name} (HASHING contract)`, () => {
    const hashing = make();

    it('computes the FIPS 180-4 SHA-256 test vectors', () => {
      expect(hashing.sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      expect(hashing.sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(hashing.sha256('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
        '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      );
      expect(hashing.sha256(new Uint8Array([0x61, 0x62, 0x63]))).toBe(hashing.sha256('abc'));
    });

    it('hashes strings as UTF-8', () => {
      expect(hashing.sha256('é')).toBe(hashing.sha256(new Uint8Array([0xc3, 0xa9])));
    });

    it('hashes pieces one after another as the text they make, strings as UTF-8', () => {
      expect(hashing.sha256Pieces([])).toBe(hashing.sha256(''));
      expect(hashing.sha256Pieces(['a', new Uint8Array([0x62]), 'c'])).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(hashing.sha256Pieces(['caf', 'é', new Uint8Array([0xc3, 0xa9])])).toBe(hashing.sha256('caféé'));
      // A generator is read once, piece by piece.
      function* pieces(): Generator<string> {
        for (let i = 0; i < 3; i++) yield 'abc'.slice(i, i + 1);
      }
      expect(hashing.sha256Pieces(pieces())).toBe(hashing.sha256('abc'));
    });

    it('hashes what a hasher is given, piece by piece, as the bytes they make one after another, strings as UTF-8', () => {
      expect(hashing.sha256Hasher().digest()).toBe(hashing.sha256(''));
      const abc = hashing.sha256Hasher();
      for (const piece of ['a', new Uint8Array([0x62]), 'c']) abc.update(piece);
      expect(abc.digest()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      // FIPS 180-4's million times 'a', given in pieces that straddle the 64-byte blocks.
      const million = hashing.sha256Hasher();
      const pieces = ['a'.repeat(37), new Uint8Array(1000).fill(0x61), 'a'.repeat(6963)];
      for (let n = 0; n < 1_000_000; n += 8000) for (const piece of pieces) million.update(piece);
      expect(million.digest()).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
    });

    it('gives a hasher fed any cut of a text the SHA-256 of the whole, multibyte UTF-8 cut between or inside characters', () => {
      const encoder = new TextEncoder();
      const strict = new TextDecoder('utf-8', { fatal: true });
      const text = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ unit: fc.constantFrom('a', '"', 'é', '€', '😀', '\u0000'), maxLength: 300 }),
      );
      fc.assert(
        fc.property(text, fc.array(fc.nat(), { maxLength: 10 }), fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }), (s, cuts, asText) => {
          const bytes = encoder.encode(s);
          const at = [...new Set([0, ...cuts.map((n) => n % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
          const bytesHasher = hashing.sha256Hasher();
          for (let i = 0; i + 1 < at.length; i++) {
            // Cut at byte offsets: a piece of whole characters goes in as a string when asText says so, any other as bytes.
            const piece = bytes.subarray(at[i], at[i + 1]);
            let whole: string | undefined;
            try {
              whole = asText[i] ? strict.decode(piece) : undefined;
            } catch {
              whole = undefined;
            }
            bytesHasher.update(whole ?? piece);
          }
          expect(bytesHasher.digest()).toBe(hashing.sha256(s));
          // Cut between characters (code points): every piece a string.
          const characters = Array.from(s);
          const textHasher = hashing.sha256Hasher();
          let from = 0;
          for (const cut of [...cuts.map((n) => n % (characters.length + 1)), characters.length].sort((a, b) => a - b)) {
            textHasher.update(characters.slice(from, cut).join(''));
            from = Math.max(from, cut);
          }
          expect(textHasher.digest()).toBe(hashing.sha256(bytes));
        }),
        { numRuns: 300 },
      );
    });

    it('hashes a prefix byte followed by raw digest bytes (RFC 6962 leaves and nodes)', () => {
      const d = hashing.sha256('abc');
      const bytes = new Uint8Array(33);
      bytes[0] = 0;
      bytes.set(Buffer.from(d, 'hex'), 1);
      expect(hashing.sha256Tagged(0, d)).toBe(hashing.sha256(bytes));
      const both = new Uint8Array(65);
      both[0] = 1;
      both.set(Buffer.from(d, 'hex'), 1);
      both.set(Buffer.from(hashing.sha256(''), 'hex'), 33);
      expect(hashing.sha256Tagged(1, d, hashing.sha256(''))).toBe(hashing.sha256(both));
    });

    it('writes the RFC 8785 examples', () => {
      // RFC 8785 §3.2.2 (numbers) and §3.2.3 (key order by UTF-16 code units).
      const numbers = JSON.parse(
        '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
      );
      expect(hashing.canonicalize(numbers)).toBe(
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
      );
      const sorted = JSON.parse(
        '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
      );
      expect(hashing.canonicalize(sorted)).toBe(
        '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis","€":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
      );
    });

    it('agrees with the canonicalize package on any JSON value', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          expect(hashing.canonicalize(value)).toBe(canonicalize(value));
        }),
        { numRuns: 300 },
      );
    });

    it('agrees with the canonicalize package on objects whose keys arrive in any order, array-index keys included', () => {
      const key = fc.oneof(fc.string(), fc.constantFrom('0', '1', '10', '2', 'a', 'B', '__proto__', 'é'));
      const value = fc.letrec((tie) => ({
        node: fc.oneof(
          { depthSize: 'small' },
          fc.string(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.boolean(),
          fc.constant(null),
          fc.array(tie('node'), { maxLength: 4 }),
          tie('object'),
        ),
        object: fc.array(fc.tuple(key, tie('node')), { maxLength: 6 }).map((pairs) => Object.fromEntries(pairs)),
      })).node;
      fc.assert(
        fc.property(value, (v) => {
          expect(hashing.canonicalize(v)).toBe(canonicalize(v));
        }),
        { numRuns: 300 },
      );
    });
  });
}
