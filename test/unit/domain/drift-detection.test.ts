import { assess, type HashedResult } from '../../../src/domain/assessment/assessment';
import { KsiCatalog } from '../../../src/domain/catalog/ksi-catalog';
import { countDrift, detectDrift, driftMarkdown, reachesSeverity, type DriftSide, type RunMeta } from '../../../src/domain/drift/drift-detection';
import { evidenceHash } from '../../../src/domain/evidence/evidence-entry';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { aResult } from '../../support/builders';

const digest = new PureJsHashing();
const builtIn = builtInCatalog();
/** KSI-IA-05 and KSI-AC-03 lowered to High, KSI-SC-08 to Medium: the non-Critical rows of the table. */
const catalog = new KsiCatalog({
  ...builtIn.data,
  ksis: builtIn.data.ksis.map((k) =>
    k.id === 'KSI-IA-05' || k.id === 'KSI-AC-03' ? { ...k, severity: 'High' as const } : k.id === 'KSI-SC-08' ? { ...k, severity: 'Medium' as const } : k,
  ),
});

function side(results: KsiResult[], meta: RunMeta = {}): DriftSide {
  const { items } = assess(results, catalog, DEFAULT_GOVERNANCE_POLICY);
  return { meta, results: items.map((item): HashedResult => ({ item, hash: evidenceHash(item.result, item.definition, digest) })) };
}

const one = (from: KsiResult, to: KsiResult) => detectDrift(side([from]), side([to]));

describe('detectDrift reads each result once', () => {
  it('takes each item of both runs once, gathering the result fields on the way, also of results only one run has', () => {
    const counted = (d: DriftSide) => {
      const reads = new Map<string, number>();
      const results = d.results.map((r) => ({
        get item() {
          reads.set(r.item.result.ksi_id, (reads.get(r.item.result.ksi_id) ?? 0) + 1);
          return r.item;
        },
        hash: r.hash,
      }));
      return { side: { meta: d.meta, results }, reads };
    };
    const a = counted(side([aResult('KSI-AC-02', 'PASS'), aResult('KSI-IA-02', 'PASS', { checks: [{ id: 'c', status: 'PASS' }] })]));
    const b = counted(side([aResult('KSI-AC-02', 'PASS'), aResult('KSI-SC-08', 'WARN', { details: 'new field' })]));
    expect(detectDrift(a.side, b.side).map((f) => `${f.ksi_id} ${f.reason}`)).toEqual([
      'null result fields added details; removed checks',
      'KSI-IA-02 missing from the later run (was PASS)',
      'KSI-SC-08 new in the later run (WARN)',
    ]);
    expect([...a.reads.values(), ...b.reads.values()]).toEqual([1, 1, 1, 1]);
  });
});

describe('detectDrift: DESIGN §5 drift table, one row at a time', () => {
  it.each([
    ['KSI-IA-02', 'PASS', 'FAIL', 'DRIFT-IDENTITY', 'P1'],
    ['KSI-IA-02', 'WARN', 'FAIL', 'DRIFT-IDENTITY', 'P1'],
    ['KSI-IA-05', 'PASS', 'WARN', 'DRIFT-IDENTITY', 'P2'],
    ['KSI-AC-02', 'PASS', 'FAIL', 'DRIFT-AUTHZ', 'P1'],
    ['KSI-AC-03', 'PASS', 'FAIL', 'DRIFT-AUTHZ', 'P2'],
    ['KSI-AU-02', 'PASS', 'WARN', 'DRIFT-SEMANTIC', 'P2'],
    ['KSI-SC-08', 'PASS', 'FAIL', 'DRIFT-SEMANTIC', 'P3'],
    ['KSI-AT-02', 'WARN', 'FAIL', 'DRIFT-SEMANTIC', 'P3'],
    ['KSI-ZZ-01', 'PASS', 'FAIL', 'DRIFT-SEMANTIC', 'P3'],
    ['KSI-IA-02', 'FAIL', 'PASS', 'DRIFT-SEMANTIC', 'P4'],
    ['KSI-AC-02', 'FAIL', 'WARN', 'DRIFT-SEMANTIC', 'P4'],
  ] as const)('%s %s -> %s is %s %s', (id, from, to, driftClass, severity) => {
    const [finding] = one(aResult(id, from), aResult(id, to));
    expect(finding).toMatchObject({ ksi_id: id, class: driftClass, severity, from, to });
  });

  it('says why: the controls and the FAIL severity of a worsened KSI', () => {
    expect(one(aResult('KSI-IA-02', 'PASS'), aResult('KSI-IA-02', 'FAIL'))[0].reason).toBe(
      'status worsened PASS -> FAIL on identity controls ia-2, ia-2.1, ia-2.2, ia-2.5 and 3 more (FAIL severity Critical)',
    );
    expect(one(aResult('KSI-ZZ-01', 'WARN'), aResult('KSI-ZZ-01', 'FAIL'))[0].reason).toBe('status worsened WARN -> FAIL (unmapped KSI)');
  });

  it('classifies a same-status change of evidence or of the result source as DRIFT-PROVENANCE P3', () => {
    const evidence = one(aResult('KSI-SC-08', 'PASS', { evidence: { tls: '1.2' } }), aResult('KSI-SC-08', 'PASS', { evidence: { tls: '1.3' } }));
    expect(evidence).toEqual([expect.objectContaining({ class: 'DRIFT-PROVENANCE', severity: 'P3', from: 'PASS', to: 'PASS' })]);
    expect(evidence[0].reason).toMatch(/^evidence changed: content hash [0-9a-f]{12} -> [0-9a-f]{12}$/);
    const source = one(aResult('KSI-SC-08', 'FAIL', { source: 'ScubaGear' }), aResult('KSI-SC-08', 'FAIL', { source: 'Prowler' }));
    expect(source).toEqual([
      { ksi_id: 'KSI-SC-08', class: 'DRIFT-PROVENANCE', severity: 'P3', from: 'FAIL', to: 'FAIL', reason: 'source changed "ScubaGear" -> "Prowler"' },
    ]);
  });

  it('finds nothing when only observed_at changed (what was observed, not when)', () => {
    expect(
      one(aResult('KSI-SC-08', 'PASS', { observed_at: '2026-11-01T00:00:00Z' }), aResult('KSI-SC-08', 'PASS', { observed_at: '2026-11-04T00:00:00Z' })),
    ).toEqual([]);
  });

  it('classifies a KSI in one run only as DRIFT-SCHEMA: P2 when a FAIL disappears, else P3', () => {
    const findings = detectDrift(side([aResult('KSI-AC-02', 'FAIL'), aResult('KSI-AU-02', 'WARN')]), side([aResult('KSI-CM-02', 'FAIL')]));
    expect(findings).toEqual([
      { ksi_id: 'KSI-AC-02', class: 'DRIFT-SCHEMA', severity: 'P2', from: 'FAIL', to: 'NONE', reason: 'missing from the later run (was FAIL)' },
      { ksi_id: 'KSI-AU-02', class: 'DRIFT-SCHEMA', severity: 'P3', from: 'WARN', to: 'NONE', reason: 'missing from the later run (was WARN)' },
      { ksi_id: 'KSI-CM-02', class: 'DRIFT-SCHEMA', severity: 'P3', from: 'NONE', to: 'FAIL', reason: 'new in the later run (FAIL)' },
    ]);
  });

  it('reports run-level changes with ksi_id null: schema_version, source tool/version, result fields', () => {
    const a = side([aResult('KSI-AU-02', 'PASS', { title: 'x' })], { schema_version: '1', source: { tool: 'ScubaGear', version: '1.5.0' } });
    const b = side([aResult('KSI-AU-02', 'PASS', { title: 'x', checks: [] })], { schema_version: '2', source: { tool: 'ScubaGear', version: '1.6.0' } });
    const findings = detectDrift(a, b).filter((f) => f.ksi_id === null);
    expect(findings).toEqual([
      {
        ksi_id: null,
        class: 'DRIFT-PROVENANCE',
        severity: 'P3',
        from: 'ScubaGear 1.5.0',
        to: 'ScubaGear 1.6.0',
        reason: 'source tool changed "ScubaGear 1.5.0" -> "ScubaGear 1.6.0"',
      },
      { ksi_id: null, class: 'DRIFT-SCHEMA', severity: 'P3', from: '1', to: '2', reason: 'schema_version changed "1" -> "2"' },
      {
        ksi_id: null,
        class: 'DRIFT-SCHEMA',
        severity: 'P3',
        from: 'ksi_id,status,title',
        to: 'checks,ksi_id,status,title',
        reason: 'result fields added checks',
      },
    ]);
  });

  it('orders findings by severity, then ksi_id, and counts them by severity and class', () => {
    const findings = detectDrift(
      side([aResult('KSI-SC-08', 'PASS'), aResult('KSI-IA-02', 'PASS'), aResult('KSI-AC-02', 'FAIL'), aResult('KSI-AU-02', 'PASS')]),
      side([aResult('KSI-SC-08', 'FAIL'), aResult('KSI-IA-02', 'FAIL'), aResult('KSI-AC-02', 'PASS'), aResult('KSI-AU-02', 'WARN')]),
    );
    expect(findings.map((f) => `${f.severity} ${f.ksi_id}`)).toEqual(['P1 KSI-IA-02', 'P2 KSI-AU-02', 'P3 KSI-SC-08', 'P4 KSI-AC-02']);
    expect(countDrift(findings)).toEqual({
      total: 4,
      severity: { P1: 1, P2: 1, P3: 1, P4: 1 },
      class: { 'DRIFT-IDENTITY': 1, 'DRIFT-AUTHZ': 0, 'DRIFT-SEMANTIC': 3, 'DRIFT-PROVENANCE': 0, 'DRIFT-SCHEMA': 0 },
    });
    expect(findings.filter((f) => reachesSeverity(f, 'P2')).map((f) => f.severity)).toEqual(['P1', 'P2']);
  });

  it('writes the Markdown table with escaped cells and the counts line', () => {
    const findings = one(aResult('KSI-SC-08', 'PASS', { source: 'a|b' }), aResult('KSI-SC-08', 'PASS', { source: 'c' }));
    const text = driftMarkdown(findings, { name: 'a.json', sha256: '0'.repeat(64) }, { name: 'b.json', sha256: '1'.repeat(64) });
    expect(text).toBe(
      [
        '# Drift findings: a.json -> b.json',
        '',
        `Run A: a.json (sha256:${'0'.repeat(64)})`,
        `Run B: b.json (sha256:${'1'.repeat(64)})`,
        '',
        '| Severity | Class | KSI | From | To | Reason |',
        '|---|---|---|---|---|---|',
        '| P3 | DRIFT-PROVENANCE | KSI-SC-08 | PASS | PASS | source changed "a\\|b" -> "c" |',
        '',
        'Findings: 1 (P1 0, P2 0, P3 1, P4 0)',
        '',
      ].join('\n'),
    );
    expect(driftMarkdown([], { name: 'a', sha256: '0'.repeat(64) }, { name: 'b', sha256: '0'.repeat(64) })).toContain(
      'No drift: the runs report the same statuses and evidence.\n\nFindings: 0 (P1 0, P2 0, P3 0, P4 0)\n',
    );
  });
});
