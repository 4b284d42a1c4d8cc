import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  bucketCount,
  bucketDocumentName,
  bucketOf,
  checkEvidenceIndexHeader,
  evidenceIndexHeader,
  EvidenceIndexBuilder,
  hashPrefix,
  positionsInBucket,
} from '../../../../src/domain/trust/evidence-index';

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

describe('the stored evidence index: a header and buckets by the first bits of the hash', () => {
  const indexOf = (hashes: readonly string[]) => {
    const builder = new EvidenceIndexBuilder(hashes.length);
    hashes.forEach((hex, i) => builder.add(hex, i));
    return builder.build();
  };
  /** Every bucket of the stored form of `hashes`, as evidenceIndexSources writes them. */
  const stored = (hashes: readonly string[]) => {
    const header = evidenceIndexHeader(hashes.length, 1000);
    const index = indexOf(hashes);
    return { header, buckets: Array.from({ length: bucketCount(header) }, (_, b) => index.bucketBytes(header.bucket_bits, b)) };
  };
  const lookup = ({ header, buckets }: ReturnType<typeof stored>, hex: string) => {
    const bucket = bucketOf(hex, header.bucket_bits);
    return positionsInBucket(buckets[bucket], hex, { bucket, bits: header.bucket_bits, entries: header.entries, what: 'run 1 bucket' });
  };

  it('cuts the index into 2^bits buckets of at most 4,096 entries on average (32 KB), up to 4,096 buckets', () => {
    expect([0, 1, 4096, 4097, 8192, 8193, 20_000, 1_000_000, 16_777_216, 16_777_217, 100_000_000].map((n) => evidenceIndexHeader(n, 1000).bucket_bits)).toEqual(
      [0, 0, 0, 1, 1, 2, 3, 8, 12, 12, 12],
    );
    expect(evidenceIndexHeader(1_000_000, 1000)).toEqual({
      schema: 'svc.evidence-index/v1',
      list: 'evidence',
      entries: 1_000_000,
      page_size: 1000,
      bucket_bits: 8,
    });
    expect([bucketCount(evidenceIndexHeader(0, 1000)), bucketCount(evidenceIndexHeader(1, 1000)), bucketCount(evidenceIndexHeader(1_000_000, 1000))]).toEqual([
      0, 1, 256,
    ]);
    expect([bucketDocumentName(0), bucketDocumentName(255), bucketDocumentName(4095)]).toEqual([
      'evidence-index.0000.bin',
      'evidence-index.0255.bin',
      'evidence-index.4095.bin',
    ]);
  });

  it('puts a hash in the bucket its first bits name', () => {
    expect([
      bucketOf('ffffffff' + '0'.repeat(56), 0),
      bucketOf('ffffffff' + '0'.repeat(56), 8),
      bucketOf('0fffffff' + '0'.repeat(56), 4),
      bucketOf('8000abcd' + '0'.repeat(56), 1),
      bucketOf('abc00000' + '0'.repeat(56), 12),
    ]).toEqual([0, 255, 0, 1, 0xabc]);
  });

  it('writes a bucket as big-endian (prefix, position) pairs in order: the bytes are the same on every machine', () => {
    const builder = new EvidenceIndexBuilder();
    builder.add(withPrefix('00000002', 1), 7);
    builder.add(withPrefix('00000001', 1), 258);
    builder.add(withPrefix('00000001', 2), 3);
    expect(Buffer.from(builder.build().bucketBytes(0, 0)).toString('hex')).toBe('00000001' + '00000003' + '00000001' + '00000102' + '00000002' + '00000007');
  });

  it('finds, through header and bucket, exactly the positions the in-memory index gives (property)', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
    // Prefixes drawn from a few values, so that shared prefixes and bucket edges come up.
    const clustered = fc.tuple(fc.constantFrom('00000000', 'ffffffff', '7fffffff', '80000000', 'abcdef01', '0000ffff'), hex).map(([p, h]) => p + h.slice(8));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(hex, clustered), { maxLength: 300 }),
        fc.array(fc.oneof(hex, clustered), { maxLength: 20 }),
        fc.integer({ min: 0, max: 12 }),
        (hashes, probes, bits) => {
          const index = indexOf(hashes);
          const header = { ...evidenceIndexHeader(hashes.length, 1000), bucket_bits: bits };
          const form = { header, buckets: Array.from({ length: 2 ** bits }, (_, b) => index.bucketBytes(bits, b)) };
          expect(form.buckets.reduce((sum, b) => sum + b.length, 0)).toBe(8 * hashes.length);
          for (const probe of [...hashes, ...probes]) expect(lookup(form, probe)).toEqual(index.positions(probe));
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });

  it('finds each entry of 20,000 in its bucket, and a hash not added in none', () => {
    const hashes = Array.from({ length: 20_000 }, (_, i) => hashOf(`entry ${i}`));
    const form = stored(hashes);
    expect([form.header.bucket_bits, form.buckets.length]).toEqual([3, 8]);
    expect(Math.max(...form.buckets.map((b) => b.length))).toBeLessThan(8 * 4096);
    // Two of 20,000 hashes share their first 4 bytes about once in twenty such runs: every position is among its hash's.
    const index = indexOf(hashes);
    expect(hashes.filter((hex, i) => !lookup(form, hex).includes(i) || lookup(form, hex).join() !== index.positions(hex).join())).toEqual([]);
    expect(lookup(form, hashOf('never added'))).toEqual([]);
  });

  it('refuses a bucket that is not one: cut, out of order, of another bucket, or naming a position past the list', () => {
    const form = stored(Array.from({ length: 9000 }, (_, i) => hashOf(`entry ${i}`)));
    const probe = hashOf('entry 1');
    const bucket = bucketOf(probe, 2);
    const check =
      (bytes: Uint8Array, at = bucket) =>
      () =>
        positionsInBucket(bytes, probe, { bucket: at, bits: 2, entries: 9000, what: '/store run 4 evidence-index.0001.bin' });
    const bytes = Buffer.from(form.buckets[bucket]);
    expect(check(bytes.subarray(0, 12))).toThrow(
      expect.objectContaining({
        code: 'run-store-tampered',
        message:
          '/store run 4 evidence-index.0001.bin is 12 bytes, not a whole number of 8-byte entries; the store was modified outside svc. Restore it from backup',
      }),
    );
    expect(check(Buffer.concat([bytes.subarray(8, 16), bytes.subarray(0, 8), bytes.subarray(16)]))).toThrow(
      '/store run 4 evidence-index.0001.bin is not in order',
    );
    expect(check(Buffer.concat([bytes.subarray(0, 8), bytes.subarray(0, 8)]))).toThrow('is not in order');
    expect(check(bytes, (bucket + 1) % 4)).toThrow(`/store run 4 evidence-index.0001.bin holds an entry of another bucket than ${(bucket + 1) % 4}`);
    const past = Buffer.from(bytes);
    past.writeUInt32BE(9000, 4);
    expect(check(past)).toThrow('/store run 4 evidence-index.0001.bin names position 9000, past the 9000 entries of the list');
    expect(check(new Uint8Array(0))()).toEqual([]);
  });

  it('reads back the header it writes, and refuses one that is not svc.evidence-index/v1 of the evidence list', () => {
    const header = evidenceIndexHeader(2500, 1000);
    expect(checkEvidenceIndexHeader(JSON.parse(JSON.stringify(header)), 'h')).toEqual(header);
    const refused =
      'run 2 evidence-index.json is not a svc.evidence-index/v1 index of the evidence list; the store was modified outside svc, or by a newer svc. Restore it from backup, or serve it with that svc';
    for (const bad of [
      undefined,
      null,
      [],
      'text',
      { ...header, schema: 'svc.evidence-index/v2' },
      { ...header, list: 'findings' },
      { ...header, entries: -1 },
      { ...header, entries: 1.5 },
      { ...header, page_size: 0 },
      { ...header, bucket_bits: 13 },
      { ...header, bucket_bits: '2' },
    ]) {
      expect([bad, () => checkEvidenceIndexHeader(bad, 'run 2 evidence-index.json')]).toEqual([bad, expect.any(Function)]);
      expect(() => checkEvidenceIndexHeader(bad, 'run 2 evidence-index.json')).toThrow(
        expect.objectContaining({ code: 'run-store-tampered', message: refused }),
      );
    }
  });
});
