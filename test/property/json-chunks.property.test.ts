import fc from 'fast-check';
import canonicalizeJcs from 'canonicalize';
import { InvalidInputError } from '../../src/domain/errors';
import { jsonChunks, jsonText, lazyArray, LazyArray, materialize, sortedCopy, type JsonForm } from '../../src/domain/encoding/json-chunks';
import { NodeCryptoHashing } from '../../src/infrastructure/hashing/node-crypto-hashing';
import { SEED } from './bad-input';

const hashing = new NodeCryptoHashing();
const joined = (value: unknown, form: JsonForm, chunkChars?: number) => [...jsonChunks(value, form, chunkChars)].join('');

/** JSON values, with keys that sort differently by code unit than by code point or locale, and array-index keys. */
const key = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('1', '10', '2', '', 'a', 'B', '\u20ac', '\ud83d\ude00', '\uffff', '__proto__'),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object')),
  leaf: fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'binary' }),
    fc.string(),
  ),
  array: fc.array(tie('value'), { maxLength: 6 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
})).value;

/** The same JSON value twice: as plain arrays, and with some arrays (at any depth) made LazyArrays. */
interface Twin {
  plain: unknown;
  lazy: unknown;
}
const twins = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object')),
  leaf: fc.oneof(fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()).map((v): Twin => ({ plain: v, lazy: v })),
  array: fc.tuple(fc.array(tie('value') as fc.Arbitrary<Twin>, { maxLength: 6 }), fc.boolean()).map(([items, lazy]): Twin => ({
    plain: items.map((i) => i.plain),
    lazy: lazy
      ? lazyArray(function* () {
          for (const item of items) yield item.lazy;
        })
      : items.map((i) => i.lazy),
  })),
  object: fc.array(fc.tuple(key, tie('value') as fc.Arbitrary<Twin>), { maxLength: 6 }).map((members): Twin => {
    const plain: Record<string, unknown> = {};
    const lazy: Record<string, unknown> = {};
    for (const [k, v] of members) {
      Object.defineProperty(plain, k, { value: v.plain, enumerable: true, writable: true, configurable: true });
      Object.defineProperty(lazy, k, { value: v.lazy, enumerable: true, writable: true, configurable: true });
    }
    return { plain, lazy };
  }),
})).value as fc.Arbitrary<Twin>;

describe('jsonChunks', () => {
  it('pretty: the joined chunks are JSON.stringify(value, null, 2), whatever the chunk size', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 64 }), (value, chunkChars) => {
        expect(joined(value, 'pretty')).toBe(JSON.stringify(value, null, 2));
        expect(joined(value, 'pretty', chunkChars)).toBe(JSON.stringify(value, null, 2));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("canonical: the joined chunks are the project's Hashing.canonicalize and the canonicalize package's text", () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 64 }), (value, chunkChars) => {
        const expected = hashing.canonicalize(value);
        expect(joined(value, 'canonical')).toBe(expected);
        expect(joined(value, 'canonical', chunkChars)).toBe(expected);
        expect(expected).toBe(canonicalizeJcs(value));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('canonical: a value read back from its canonical text (its keys in order: JSON.stringify writes it) is written as that text', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 64 }), (value, chunkChars) => {
        const text = canonicalizeJcs(value) as string;
        const read = JSON.parse(text) as unknown;
        expect(joined(read, 'canonical')).toBe(text);
        expect(joined(read, 'canonical', chunkChars)).toBe(text);
        expect(joined({ b: [read, read], a: read }, 'canonical')).toBe(`{"a":${text},"b":[${text},${text}]}`);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("sortedCopy: JSON.stringify of the copy is the canonicalize package's text, or there is no copy (array-index and __proto__ keys only)", () => {
    const special = (value: unknown): boolean =>
      typeof value === 'object' &&
      value !== null &&
      (Array.isArray(value)
        ? value.some(special)
        : Object.keys(value).some((k) => k === '__proto__' || /^(?:0|[1-9]\d*)$/.test(k) || special((value as Record<string, unknown>)[k])));
    let copied = 0;
    fc.assert(
      fc.property(json, (value) => {
        const copy = sortedCopy(value);
        expect(copy === undefined).toBe(special(value));
        if (copy !== undefined) {
          copied++;
          expect(JSON.stringify(copy)).toBe(canonicalizeJcs(value));
        }
      }),
      { seed: SEED, numRuns: 500 },
    );
    expect(copied).toBeGreaterThan(250);
    // What JSON.stringify would write differently from RFC 8785, or not as JSON at all, is left to the writers.
    for (const refused of [
      { a: NaN },
      [Infinity],
      { a: undefined },
      [() => 1],
      { a: Symbol('s') },
      { a: 1n },
      { when: new Date(0) },
      lazyArray(() => [1]),
      { '10': 1, '9': 2 },
      JSON.parse('{"__proto__":1}'),
    ]) {
      expect(sortedCopy(refused)).toBeUndefined();
    }
    expect(sortedCopy([1, 2, 3], 2)).toBeUndefined();
    expect(sortedCopy({ a: [1, 2] }, 2)).toEqual({ a: [1, 2] });
    expect(Object.keys(sortedCopy({ b: 1, a: { d: 1, c: 2 }, '\u20ac': 0, Z: 1 }) as object)).toEqual(['Z', 'a', 'b', '\u20ac']);
  });

  it('writes a value holding LazyArrays as the same value with those arrays materialized, in both forms', () => {
    fc.assert(
      fc.property(twins, fc.integer({ min: 1, max: 64 }), ({ plain, lazy }, chunkChars) => {
        expect(joined(lazy, 'pretty', chunkChars)).toBe(JSON.stringify(plain, null, 2));
        expect(joined(lazy, 'canonical', chunkChars)).toBe(hashing.canonicalize(plain));
        expect(materialize(lazy)).toEqual(plain);
        // What reaches a one-string serializer (toJSON) is written right too.
        expect(JSON.stringify(lazy, null, 2)).toBe(JSON.stringify(plain, null, 2));
        expect(hashing.canonicalize(lazy)).toBe(hashing.canonicalize(plain));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('writes numbers as the canonicalize package does, and refuses NaN and Infinity in canonical form like Hashing.canonicalize', () => {
    const numbers = [0, -0, 1, -1, 1e21, 1e-7, 123456789012345680000, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, -1.5e-10, 333333333.3333333];
    expect(jsonText(numbers, 'canonical')).toBe(canonicalizeJcs(numbers));
    expect(jsonText(numbers, 'canonical')).toBe(
      '[0,0,1,-1,1e+21,1e-7,123456789012345680000,5e-324,1.7976931348623157e+308,0.30000000000000004,-1.5e-10,333333333.3333333]',
    );
    for (const bad of [NaN, Infinity, -Infinity]) {
      for (const value of [bad, [1, bad], { a: { b: bad } }, lazyArray(() => [bad])]) {
        expect(() => jsonText(value, 'canonical')).toThrow(InvalidInputError);
        expect(() => hashing.canonicalize(value)).toThrow(InvalidInputError);
      }
      expect(() => jsonText(bad, 'canonical')).toThrow(`cannot write a canonical JSON form: ${Number.isNaN(bad) ? 'NaN' : 'Infinity'} is not allowed`);
      expect(jsonText([bad], 'pretty')).toBe(JSON.stringify([bad], null, 2));
    }
  });

  it('leaves out undefined members and writes null for undefined items, as JSON.stringify does', () => {
    const value = { a: undefined, b: [undefined, 1], c: lazyArray(() => [undefined]), d: { e: undefined } };
    expect(jsonText(value, 'pretty')).toBe(JSON.stringify(materialize(value), null, 2));
    expect(jsonText(value, 'canonical')).toBe('{"b":[null,1],"c":[null],"d":{}}');
  });

  it('writes an empty LazyArray as [] and reads a LazyArray again each time it is written', () => {
    let produced = 0;
    const value = { list: lazyArray(() => (produced++, [1, 2])), empty: lazyArray(() => []) };
    expect(jsonText(value, 'canonical')).toBe('{"empty":[],"list":[1,2]}');
    expect(jsonText(value, 'pretty')).toBe('{\n  "list": [\n    1,\n    2\n  ],\n  "empty": []\n}');
    expect(produced).toBe(2);
  });

  it('writes a million-item LazyArray in bounded chunks, each item made only when it is written', () => {
    const n = 1_000_000;
    let made = 0;
    let live = 0;
    let mostLive = 0;
    const items = lazyArray(function* () {
      for (let i = 0; i < n; i++) {
        made++;
        live = made - written;
        mostLive = Math.max(mostLive, live);
        yield { i, id: `item-${i}` };
      }
    });
    let written = 0;
    const chunkChars = 64 * 1024;
    let total = 0;
    let longest = 0;
    let chunks = 0;
    for (const chunk of jsonChunks({ items, count: n }, 'canonical', chunkChars)) {
      chunks++;
      total += chunk.length;
      longest = Math.max(longest, chunk.length);
      written = made;
    }
    expect(made).toBe(n);
    // Items are consumed while the array is being written: at most one chunk's worth are made before a chunk is handed on.
    expect(mostLive).toBeLessThan(chunkChars / 20);
    expect(longest).toBeLessThan(chunkChars + 64);
    expect(chunks).toBeGreaterThan(n / (chunkChars / 20));
    const expectedLength =
      '{"count":1000000,"items":[]}'.length + n - 1 + Array.from({ length: n }, (_, i) => `{"i":${i},"id":"item-${i}"}`.length).reduce((a, b) => a + b, 0);
    expect(total).toBe(expectedLength);
  });

  it('is a LazyArray only by class: a plain array or iterable object is written as JSON.stringify writes it', () => {
    expect(lazyArray(() => [])).toBeInstanceOf(LazyArray);
    const set = new Set([1, 2]);
    expect(jsonText({ set }, 'pretty')).toBe(JSON.stringify({ set }, null, 2));
  });
});
