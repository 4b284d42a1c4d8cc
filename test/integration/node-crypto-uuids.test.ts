import { createHash } from 'node:crypto';
import { NodeCryptoUuids } from '../../src/infrastructure/hashing/node-crypto-uuids';
import { DeterministicUuids } from '../fakes/deterministic-uuids';

const DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('UUIDS', () => {
  it('NodeCryptoUuids gives the RFC 9562 appendix A.4 example', () => {
    expect(new NodeCryptoUuids().v5(DNS, 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it.each([
    ['NodeCryptoUuids', new NodeCryptoUuids()],
    ['DeterministicUuids', new DeterministicUuids()],
  ])('%s is stable, well-formed and name-sensitive', (_, uuids) => {
    const a = uuids.v5(DNS, 'ksi:KSI-AC-02');
    expect(a).toMatch(V5);
    expect(uuids.v5(DNS, 'ksi:KSI-AC-02')).toBe(a);
    expect(uuids.v5(DNS, 'ksi:KSI-AC-03')).not.toBe(a);
    expect(uuids.v5('6ba7b811-9dad-11d1-80b4-00c04fd430c8', 'ksi:KSI-AC-02')).not.toBe(a);
  });

  it('names of any length and script hash their UTF-8 after the namespace bytes (the short buffer and the long way agree)', () => {
    const uuids = new NodeCryptoUuids();
    // RFC 9562 §5.5 written out with a Hash object, for comparison.
    const reference = (namespace: string, name: string) => {
      const bytes = createHash('sha1')
        .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
        .update(name, 'utf8')
        .digest();
      bytes[6] = (bytes[6] & 0x0f) | 0x50;
      bytes[8] = (bytes[8] & 0x3f) | 0x80;
      const hex = bytes.toString('hex', 0, 16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    // More names than are kept: a name asked for again after the kept ones were let go is hashed again, the same.
    const many = Array.from({ length: 5_000 }, (_, i) => `observation:KSI-AC-${i}`);
    const first = many.map((name) => uuids.v5(DNS, name));
    expect(many.map((name) => uuids.v5(DNS, name))).toEqual(many.map((name) => reference(DNS, name)));
    expect(first).toEqual(many.map((name) => reference(DNS, name)));
    const names = ['', 'ksi:KSI-AC-02', 'système-€-😀', 'x'.repeat(1_359), 'é'.repeat(1_360), '😀'.repeat(700), 'y'.repeat(100_000)];
    for (const name of names) {
      expect(uuids.v5(DNS, name)).toBe(reference(DNS, name));
      // A long name does not leave bytes behind for the next short one.
      expect(uuids.v5(DNS, 'a')).toBe(reference(DNS, 'a'));
    }
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => new NodeCryptoUuids().v5('dns', 'x')).toThrow('not a UUID: dns');
  });
});
