import fc from 'fast-check';
import { evidenceHash, serializeEvidenceEntry } from '../../../src/domain/evidence/evidence-entry';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const digest = new PureJsHashing();
const catalog = builtInCatalog();

describe('evidence entries (DESIGN §5 hashing)', () => {
  const result: KsiResult = { ksi_id: 'KSI-AC-02', status: 'FAIL', title: 'Guests', observed_at: '2026-11-02T14:03:40Z', checks: [{ id: 'MS.AAD.8.1v1', status: 'FAIL' }], evidence: { z: 1, a: [true, null] }, vendor_ref: 'X-1' };

  it('writes the entry in RFC 8785 form: mapped fields added, unknown fields kept, content_hash in its place', () => {
    const { text, hash } = serializeEvidenceEntry(result, catalog.get('KSI-AC-02'), digest);
    const entry = { ...result, mapped: true, controls: catalog.get('KSI-AC-02')?.controls, policies: ['ac-1'], content_hash: `sha256:${hash}` };
    expect(text).toBe(digest.canonicalize(entry));
    expect(JSON.parse(text).vendor_ref).toBe('X-1');
  });

  it('hashes everything but content_hash and observed_at', () => {
    const { hash } = serializeEvidenceEntry(result, catalog.get('KSI-AC-02'), digest);
    const { observed_at: _ignored, ...rest } = result;
    expect(hash).toBe(digest.sha256(digest.canonicalize({ ...rest, mapped: true, controls: catalog.get('KSI-AC-02')?.controls, policies: ['ac-1'] })));
    expect(serializeEvidenceEntry({ ...result, observed_at: '2027-01-01T00:00:00Z' }, catalog.get('KSI-AC-02'), digest).hash).toBe(hash);
    expect(serializeEvidenceEntry({ ...result, details: 'changed' }, catalog.get('KSI-AC-02'), digest).hash).not.toBe(hash);
    expect(evidenceHash(result, catalog.get('KSI-AC-02'), digest)).toBe(hash);
  });

  it('marks an unmapped result as such', () => {
    const entry = JSON.parse(serializeEvidenceEntry({ ksi_id: 'KSI-ZZ-01', status: 'PASS' }, undefined, digest).text);
    expect(entry).toEqual({ ksi_id: 'KSI-ZZ-01', status: 'PASS', mapped: false, controls: [], policies: [], content_hash: `sha256:${digest.sha256('{"controls":[],"ksi_id":"KSI-ZZ-01","mapped":false,"policies":[],"status":"PASS"}')}` });
  });

  it('is canonical for any result shape, keys in any order', () => {
    const field = fc.string({ minLength: 1 }).filter((k) => !['mapped', 'controls', 'policies', 'content_hash', 'ksi_id', 'status', '__proto__'].includes(k));
    const results = fc.record({
      status: fc.constantFrom('PASS', 'WARN', 'FAIL' as const),
      extra: fc.dictionary(field, fc.jsonValue(), { maxKeys: 5 }),
      mapped: fc.boolean(),
    });
    fc.assert(
      fc.property(results, ({ status, extra, mapped }) => {
        const r = { ...extra, status, ksi_id: mapped ? 'KSI-AC-02' : 'KSI-ZZ-01' } as KsiResult;
        const definition = mapped ? catalog.get('KSI-AC-02') : undefined;
        const { text, hash } = serializeEvidenceEntry(r, definition, digest);
        const parsed = JSON.parse(text);
        expect(text).toBe(digest.canonicalize(parsed));
        expect(parsed.content_hash).toBe(`sha256:${hash}`);
      }),
      { numRuns: 300 },
    );
  });
});
