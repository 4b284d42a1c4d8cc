import { createHash } from 'node:crypto';
import { EvidenceIndexBuilder, hashPrefix } from '../../../../src/domain/trust/evidence-index';

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
/** A hash that starts with `prefix` (8 hex digits) and differs from its siblings after it. */
const withPrefix = (prefix: string, n: number) => prefix + hashOf(`tail ${n}`).slice(8);

describe('EvidenceIndex: entry positions by the first 4 bytes of the content hash', () => {
  it('gives the position of each hash added, and none for a hash not added', () => {
    const hashes = Array.from({ length: 5000 }, (_, i) => hashOf(`entry ${i}`));
    const builder = new EvidenceIndexBuilder(hashes.length);
    hashes.forEach((hex, i) => builder.add(hex, i));
    const index = builder.build();
    expect(index.size).toBe(5000);
    expect(hashes.map((hex) => index.positions(hex))).toEqual(hashes.map((_, i) => [i]));
    expect(index.positions(hashOf('never added'))).toEqual([]);
  });

  it('gives every position whose hash shares the prefix, ascending: the caller tells them apart by the full hash', () => {
    const builder = new EvidenceIndexBuilder(6);
    builder.add(withPrefix('8000000a', 1), 2500);
    builder.add(hashOf('other'), 7);
    builder.add(withPrefix('8000000a', 2), 12);
    builder.add(withPrefix('8000000b', 3), 3);
    builder.add(withPrefix('8000000a', 1), 999); // the same entry recorded twice
    builder.add(withPrefix('80000009', 4), 1);
    const index = builder.build();
    expect(index.positions(withPrefix('8000000a', 1))).toEqual([12, 999, 2500]);
    expect(index.positions(withPrefix('8000000a', 77))).toEqual([12, 999, 2500]);
    expect(index.positions(withPrefix('8000000b', 3))).toEqual([3]);
    expect(index.positions(withPrefix('80000009', 4))).toEqual([1]);
    expect(index.positions(withPrefix('8000000c', 4))).toEqual([]);
  });

  it('orders prefixes as unsigned numbers, the lowest and highest included', () => {
    const builder = new EvidenceIndexBuilder();
    const ends = ['ffffffff', '00000000', '7fffffff', '80000000', '00000001', 'fffffffe'];
    ends.forEach((prefix, i) => builder.add(withPrefix(prefix, i), 4_000_000_000 + i));
    const index = builder.build();
    ends.forEach((prefix, i) => expect([prefix, index.positions(withPrefix(prefix, 99))]).toEqual([prefix, [4_000_000_000 + i]]));
    expect(hashPrefix('ffffffff' + '0'.repeat(56))).toBe(2 ** 32 - 1);
  });

  it('grows past the expected count, and builds an empty index', () => {
    const builder = new EvidenceIndexBuilder(1);
    for (let i = 0; i < 100; i++) builder.add(hashOf(String(i)), i);
    const index = builder.build();
    expect([index.size, index.positions(hashOf('42'))]).toEqual([100, [42]]);
    const empty = new EvidenceIndexBuilder(0).build();
    expect([empty.size, empty.positions(hashOf('x'))]).toEqual([0, []]);
  });

  it('refuses a hash that is not 64 lower-case hex digits and a position that is not a 32-bit count', () => {
    const builder = new EvidenceIndexBuilder();
    expect(() => builder.add(hashOf('a').toUpperCase(), 0)).toThrow('expected 64 lower-case hex digits');
    expect(() => builder.add(`sha256:${hashOf('a')}`, 0)).toThrow(expect.objectContaining({ code: 'bad-content-hash' }));
    expect(() => builder.add(hashOf('a'), -1)).toThrow(expect.objectContaining({ code: 'bad-evidence-position' }));
    expect(() => builder.add(hashOf('a'), 2 ** 32)).toThrow('evidence position 4294967296: expected an integer from 0 to 4294967295');
  });
});
