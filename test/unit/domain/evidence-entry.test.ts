import fc from 'fast-check';
import { evidenceHash, serializeEvidenceEntry } from '../../../src/domain/evidence/evidence-entry';
import { EntryStore } from '../../../src/domain/assessment/entry-result';
import { assessor } from '../../../src/domain/assessment/assessment';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const digest = new PureJsHashing();
const catalog = builtInCatalog();

describe('evidence entries (DESIGN §5 hashing)', () => {
  const result: KsiResult = {
    ksi_id: 'KSI-AC-02',
    status: 'FAIL',
    title: 'Guests',
    observed_at: '2026-11-02T14:03:40Z',
    checks: [{ id: 'MS.AAD.8.1v1', status: 'FAIL' }],
    evidence: { z: 1, a: [true, null] },
    vendor_ref: 'X-1',
  };

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
    expect(entry).toEqual({
      ksi_id: 'KSI-ZZ-01',
      status: 'PASS',
      mapped: false,
      controls: [],
      policies: [],
      content_hash: `sha256:${digest.sha256('{"controls":[],"ksi_id":"KSI-ZZ-01","mapped":false,"policies":[],"status":"PASS"}')}`,
    });
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

describe('EntryStore (a run kept as its evidence entries)', () => {
  const policy = DEFAULT_GOVERNANCE_POLICY;
  const results: KsiResult[] = Array.from({ length: 40 }, (_, i) => ({
    ksi_id: `KSI-AC-${String(i).padStart(2, '0')}`,
    status: i % 3 === 0 ? 'FAIL' : 'PASS',
    evidence: { n: i },
  }));

  it('reads each result back as it was reported, made from its entry once for reads in a row, and again once others took its place', () => {
    const assess = assessor(catalog, policy);
    let made = 0;
    const store = new EntryStore((result) => {
      made += 1;
      return assess(result);
    });
    const kept = results.map((r) => {
      const { text, hash } = serializeEvidenceEntry(r, catalog.get(r.ksi_id), digest);
      return store.add(text, hash);
    });
    // A document reads one result several times in a row (its observation: uuid, title, time, evidence link).
    for (const entry of kept) for (let read = 0; read < 5; read++) expect(entry.item.result).toMatchObject(results[kept.indexOf(entry)]);
    expect(made).toBe(40);
    expect(kept[3].item).toBe(kept[3].item);
    // A second pass over the run makes each again: only the last few are kept, however large the run.
    for (const entry of kept) expect(entry.item.action).toEqual(assess(results[kept.indexOf(entry)]).action);
    expect(made).toBe(80);
    expect(kept[39].hash).toBe(serializeEvidenceEntry(results[39], catalog.get('KSI-AC-39'), digest).hash);
  });
});
