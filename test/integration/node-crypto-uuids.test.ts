import { NodeCryptoUuids } from '../../src/infrastructure/hashing/node-crypto-uuids';
import { DeterministicUuids } from '../fakes/deterministic-uuids';

const DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('UUIDS', () => {
  it('NodeCryptoUuids gives the RFC 9562 appendix A.4 example', () => {
    expect(new NodeCryptoUuids().v5(DNS, 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it.each([['NodeCryptoUuids', new NodeCryptoUuids()], ['DeterministicUuids', new DeterministicUuids()]])('%s is stable, well-formed and name-sensitive', (_, uuids) => {
    const a = uuids.v5(DNS, 'ksi:KSI-AC-02');
    expect(a).toMatch(V5);
    expect(uuids.v5(DNS, 'ksi:KSI-AC-02')).toBe(a);
    expect(uuids.v5(DNS, 'ksi:KSI-AC-03')).not.toBe(a);
    expect(uuids.v5('6ba7b811-9dad-11d1-80b4-00c04fd430c8', 'ksi:KSI-AC-02')).not.toBe(a);
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => new NodeCryptoUuids().v5('dns', 'x')).toThrow('not a UUID: dns');
  });
});
