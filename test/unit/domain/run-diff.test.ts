import fc from 'fast-check';
import { sortedById } from '../../../src/domain/assessment/assessment';
import { diffMarkdown, diffRuns, sameEvidence } from '../../../src/domain/drift/run-diff';
import { evidenceHash } from '../../../src/domain/evidence/evidence-entry';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { aResult } from '../../support/builders';

const digest = new PureJsHashing();
const catalog = builtInCatalog();
const hashOf = (r: KsiResult) => evidenceHash(r, catalog.get(r.ksi_id), digest);
const side = (results: KsiResult[]) => sortedById(results);

describe('diffRuns', () => {
  const a = side([
    aResult('KSI-AC-02', 'FAIL'),
    aResult('KSI-AU-02', 'WARN'),
    aResult('KSI-IA-02', 'FAIL'),
    aResult('KSI-SC-08', 'PASS', { evidence: { v: 1 } }),
    aResult('KSI-ZZ-01', 'FAIL'),
  ]);
  const b = side([
    aResult('KSI-AC-02', 'PASS'),
    aResult('KSI-AU-02', 'WARN'),
    aResult('KSI-CM-02', 'PASS'),
    aResult('KSI-IA-02', 'FAIL'),
    aResult('KSI-SC-08', 'PASS', { evidence: { v: 2 } }),
  ]);
  const diff = diffRuns(a, b, hashOf);

  it('lists status transitions, with NONE for a KSI in only one run, in ksi_id order', () => {
    expect(diff.transitions).toEqual([
      { ksi_id: 'KSI-AC-02', from: 'FAIL', to: 'PASS' },
      { ksi_id: 'KSI-CM-02', from: 'NONE', to: 'PASS' },
      { ksi_id: 'KSI-ZZ-01', from: 'FAIL', to: 'NONE' },
    ]);
  });

  it('lists one hash delta per changed evidence hash, a same-status change included', () => {
    expect(diff.hash_deltas.map((d) => d.ksi_id)).toEqual(['KSI-AC-02', 'KSI-CM-02', 'KSI-SC-08', 'KSI-ZZ-01']);
    expect(diff.hash_deltas[1].from).toBeNull();
    expect(diff.hash_deltas[3].to).toBeNull();
  });

  it('counts statuses on both sides', () => {
    expect(diff.counts).toEqual({ FAIL: { from: 3, to: 1 }, WARN: { from: 1, to: 1 }, PASS: { from: 1, to: 3 } });
  });

  it('writes the three Markdown sections of DESIGN §5', () => {
    const sc = (s: typeof a) => hashOf(s.find((r) => r.ksi_id === 'KSI-SC-08') as KsiResult).slice(0, 12);
    const text = [...diffMarkdown(diff, { name: 'a.json', sha256: '0'.repeat(64) }, { name: 'b.json', sha256: '1'.repeat(64) })].join('');
    expect(text).toContain('## KSI transitions\n\n- KSI-AC-02: FAIL -> PASS\n- KSI-CM-02: NONE -> PASS\n- KSI-ZZ-01: FAIL -> NONE\n');
    expect(text).toContain(`- KSI-SC-08: ${sc(a)} -> ${sc(b)}\n`);
    expect(text).toMatch(/- KSI-CM-02: NONE -> [0-9a-f]{12}\n/);
    expect(text.endsWith('## Status counts\n\n- FAIL: 3 -> 1\n- WARN: 1 -> 1\n- PASS: 1 -> 3\n')).toBe(true);
  });

  it('says so when nothing changed', () => {
    const text = [...diffMarkdown(diffRuns(a, a, hashOf), { name: 'a.json', sha256: '0'.repeat(64) }, { name: 'a.json', sha256: '0'.repeat(64) })].join('');
    expect(text).toContain('## KSI transitions\n\n(none)\n\n## Evidence hash deltas\n\n(none)\n');
  });
});

describe('sameEvidence', () => {
  it('holds exactly when the content hashes are equal', () => {
    const value = fc.jsonValue({ maxDepth: 2 });
    const result = fc.record({
      status: fc.constantFrom('PASS', 'FAIL' as const),
      details: fc.option(fc.string(), { nil: undefined }),
      evidence: fc.option(fc.dictionary(fc.constantFrom('a', 'b', 'c'), value, { maxKeys: 3 }), { nil: undefined }),
      observed_at: fc.constantFrom(undefined, '2026-01-01', '2026-01-02'),
    });
    fc.assert(
      fc.property(result, result, (x, y) => {
        const clean = (r: object) => JSON.parse(JSON.stringify({ ksi_id: 'KSI-AC-02', ...r }));
        const [a, b] = [clean(x), clean(y)];
        expect(sameEvidence(a, b)).toBe(hashOf(a) === hashOf(b));
        expect(sameEvidence(a, JSON.parse(JSON.stringify(a)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('ignores key order and observed_at, and sees a missing field', () => {
    expect(
      sameEvidence(aResult('KSI-AC-02', 'PASS', { evidence: { a: 1, b: [1, { c: 2 }] }, observed_at: '2026-01-01' }), {
        evidence: { b: [1, { c: 2 }], a: 1 },
        status: 'PASS',
        ksi_id: 'KSI-AC-02',
      }),
    ).toBe(true);
    expect(sameEvidence(aResult('KSI-AC-02', 'PASS', { details: 'x' }), aResult('KSI-AC-02', 'PASS'))).toBe(false);
    expect(sameEvidence(aResult('KSI-AC-02', 'PASS', { evidence: { a: [1] } }), aResult('KSI-AC-02', 'PASS', { evidence: { a: { 0: 1 } } }))).toBe(false);
  });
});
