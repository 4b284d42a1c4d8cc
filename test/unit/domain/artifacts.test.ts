import { assess, mergeResults, sortedById } from '../../../src/domain/assessment/assessment';
import { EVIDENCE_BUNDLE_HEAD, evidenceBundleTail, EvidenceEntries, readEvidenceBundle } from '../../../src/domain/artifacts/evidence-bundle';
import { GovernanceLines, governanceReportHead } from '../../../src/domain/artifacts/governance-report';
import { controlLineage, lineageHead, LINEAGE_TAIL, LineageRows } from '../../../src/domain/artifacts/lineage';
import { aggregateHash, buildManifest } from '../../../src/domain/artifacts/manifest';
import { POAM_HEAD, POAM_TAIL, PoamRows, poamRow } from '../../../src/domain/artifacts/poam';
import { SEVERITIES } from '../../../src/domain/governance/severity';
import type { RunContext } from '../../../src/domain/artifacts/run-context';
import { implementationStatus, writeSspNarrative } from '../../../src/domain/artifacts/ssp-narrative';
import { StringSink } from '../../../src/domain/artifacts/text-sink';
import { evidenceHash } from '../../../src/domain/evidence/evidence-entry';
import { merkleRoot } from '../../../src/domain/evidence/merkle';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { aResult, sampleResults } from '../../support/builders';

const digest = new PureJsHashing();
const catalog = builtInCatalog();
const context: RunContext = {
  input: { name: 'sample.json', sha256: 'ab'.repeat(32) },
  source: { tool: 'ScubaGear', version: '1.5.1', tenant: 'contoso.example' },
  generatedAt: '2026-11-02T14:05:00Z',
  runAt: new Date('2026-11-20T00:00:00Z'),
};
const { items, counts, unmapped } = assess(sampleResults(), catalog, DEFAULT_GOVERNANCE_POLICY);
const hashed = items.filter((i) => i.definition).map((item) => ({ item, hash: evidenceHash(item.result, item.definition, digest) }));

describe('assessment', () => {
  it('counts the sample: 5 results, 2 FAIL, 1 WARN, 2 PASS, 1 unmapped, in ksi_id order', () => {
    expect(counts).toEqual({ results: 5, pass: 2, warn: 1, fail: 2, mapped: 4, unmapped: 1 });
    expect(unmapped).toEqual(['KSI-CNA-01']);
    expect(items.map((i) => i.result.ksi_id)).toEqual(['KSI-AC-02', 'KSI-AU-02', 'KSI-CNA-01', 'KSI-IA-02', 'KSI-SC-08']);
  });

  it('keeps a sorted list as it is and sorts a copy otherwise', () => {
    const sorted = [aResult('KSI-AC-02'), aResult('KSI-AU-02')];
    expect(sortedById(sorted)).toBe(sorted);
    const unsorted = [aResult('KSI-SC-08'), aResult('KSI-AC-02')];
    expect(sortedById(unsorted).map((r) => r.ksi_id)).toEqual(['KSI-AC-02', 'KSI-SC-08']);
    expect(unsorted[0].ksi_id).toBe('KSI-SC-08');
  });

  it('merges reports with the worst status winning and the earlier report kept on a tie', () => {
    const a = { results: [aResult('KSI-AC-02', 'PASS', { source: 'a' }), aResult('KSI-AU-02', 'WARN', { source: 'a' })] };
    const b = { results: [aResult('KSI-AC-02', 'FAIL', { source: 'b' }), aResult('KSI-AU-02', 'WARN', { source: 'b' }), aResult('KSI-SC-08')] };
    expect(mergeResults([a, b]).map((r) => [r.ksi_id, r.status, r.source])).toEqual([
      ['KSI-AC-02', 'FAIL', 'b'],
      ['KSI-AU-02', 'WARN', 'a'],
      ['KSI-SC-08', 'PASS', undefined],
    ]);
  });
});

describe('evidence-bundle.json', () => {
  const sink = new StringSink();
  sink.write(EVIDENCE_BUNDLE_HEAD);
  const writer = new EvidenceEntries(sink, digest);
  const hashes = items.map((i) => writer.add(i));
  const root = merkleRoot(hashes, digest);
  sink.write(evidenceBundleTail(context.input, root));
  const bundle = JSON.parse(sink.text());

  it('is one canonical document with the entries in ksi_id order and the RFC 6962 root of their hashes', () => {
    expect(sink.text()).toBe(digest.canonicalize(bundle));
    expect(Object.keys(bundle)).toEqual(['entries', 'input', 'merkle_root', 'schema']);
    expect(bundle.schema).toBe('svc.evidence-bundle/v1');
    expect(bundle.input).toEqual({ name: 'sample.json', sha256: `sha256:${'ab'.repeat(32)}` });
    expect(bundle.entries.map((e: { content_hash: string }) => e.content_hash)).toEqual(hashes.map((h) => `sha256:${h}`));
    expect(root).toBe(merkleRoot(hashes, digest));
    expect(bundle.merkle_root).toBe(`sha256:${root}`);
  });

  it('reads back into the results it was made from', () => {
    const recorded = readEvidenceBundle(bundle, 'b.json');
    expect(recorded.results).toEqual(items.map((i) => i.result));
    expect(recorded.recordedHashes).toEqual(hashes);
    expect(recorded.merkleRoot).toBe(root);
    expect(() => readEvidenceBundle({ ...bundle, schema: 'x' }, 'b.json')).toThrow(
      'b.json: schema: expected "svc.evidence-bundle/v1"; pass an evidence-bundle.json written by svc',
    );
    expect(() => readEvidenceBundle({ ...bundle, merkle_root: 'md5:1' }, 'b.json')).toThrow('b.json: merkle_root: expected sha256:<64 hex digits>');
  });
});

describe('fragments joined in order', () => {
  it('give the same text as one writer, whether or not an earlier part wrote rows', () => {
    const whole = new StringSink();
    const rows = new PoamRows(whole, context);
    items.forEach((i) => rows.add(i));
    for (const cut of [0, 1, 2, 3, 5]) {
      const [a, b] = [new StringSink(), new StringSink()];
      const first = new PoamRows(a, context);
      items.slice(0, cut).forEach((i) => first.add(i));
      const second = new PoamRows(b, context, first.count > 0);
      items.slice(cut).forEach((i) => second.add(i));
      expect(a.text() + b.text()).toBe(whole.text());
    }
  });
});

describe('poam.json', () => {
  it('has a row only for FAIL and WARN, in ksi_id order, canonical', () => {
    const sink = new StringSink();
    sink.write(POAM_HEAD);
    const writer = new PoamRows(sink, context);
    items.forEach((i) => writer.add(i));
    sink.write(POAM_TAIL);
    const doc = JSON.parse(sink.text());
    expect(writer.count).toBe(3);
    expect(sink.text()).toBe(digest.canonicalize(doc));
    expect(doc.rows.map((r: { poam_id: string }) => r.poam_id)).toEqual(['POAM-KSI-AC-02', 'POAM-KSI-AU-02', 'POAM-KSI-IA-02']);
  });

  it('fills the FedRAMP template columns: detection from observed_at, completion after the SLA', () => {
    const ia = items.find((i) => i.result.ksi_id === 'KSI-IA-02');
    expect(ia && poamRow(ia, context)).toEqual({
      asset_identifier: 'contoso.example',
      controls: ['ia-2', 'ia-2.1', 'ia-2.2', 'ia-2.5', 'ia-2.6', 'ia-2.8', 'ia-2.12'],
      ksi_id: 'KSI-IA-02',
      milestones: [
        { description: 'Remediation plan agreed with identity-team@agency.example', due: '2026-11-06' },
        { description: 'KSI-IA-02 passes a new assessment', due: '2026-11-09' },
      ],
      original_detection_date: '2026-11-02',
      point_of_contact: 'identity-team@agency.example',
      poam_id: 'POAM-KSI-IA-02',
      remediation_plan: 'REMEDIATE within 7 days (Critical): fix MS.AAD.3.1v1 and re-run the assessment.',
      risk_rating: 'Critical',
      scheduled_completion_date: '2026-11-09',
      status: 'Open',
      weakness_description: 'KSI-IA-02 reported FAIL for ia-2, ia-2.1, ia-2.2, ia-2.5, ia-2.6, ia-2.8, ia-2.12.',
      weakness_name: 'KSI-IA-02 MFA',
      weakness_source: 'ScubaGear 1.5.1',
    });
  });

  it('falls back to the report time, then the run time, and rates Medium as Moderate', () => {
    const au = items.find((i) => i.result.ksi_id === 'KSI-AU-02');
    if (!au) throw new Error('sample changed');
    const bare = { ...au, result: { ksi_id: 'KSI-AU-02', status: 'WARN' as const } };
    expect(poamRow(bare, context)).toMatchObject({
      original_detection_date: '2026-11-02',
      scheduled_completion_date: '2026-12-02',
      risk_rating: 'Moderate',
      weakness_name: 'KSI-AU-02 Event Logging',
    });
    expect(poamRow(bare, { ...context, generatedAt: undefined, source: undefined })).toMatchObject({
      original_detection_date: '2026-11-20',
      asset_identifier: 'sample.json',
      weakness_source: 'sample.json',
    });
  });
});

describe('lineage.json', () => {
  it('traces each KSI to controls, evidence and action, and each control back, canonically', () => {
    const sink = new StringSink();
    sink.write(lineageHead(controlLineage(hashed, catalog), digest));
    const writer = new LineageRows(sink);
    items.forEach((i) => writer.add(i, evidenceHash(i.result, i.definition, digest)));
    sink.write(LINEAGE_TAIL);
    const doc = JSON.parse(sink.text());
    expect(sink.text()).toBe(digest.canonicalize(doc));
    const ac = hashed.find((h) => h.item.result.ksi_id === 'KSI-AC-02');
    expect(doc.ksis[0]).toEqual({
      action: { action: 'REMEDIATE', owner: 'identity-team@agency.example', severity: 'Critical', sla_days: 7 },
      controls: catalog.get('KSI-AC-02')?.controls,
      evidence_hash: `sha256:${ac?.hash}`,
      ksi_id: 'KSI-AC-02',
      poam_id: 'POAM-KSI-AC-02',
      policies: ['ac-1'],
      status: 'FAIL',
    });
    expect(doc.ksis[2]).toMatchObject({
      ksi_id: 'KSI-CNA-01',
      controls: [],
      policies: [],
      poam_id: null,
      action: { action: 'MONITOR', owner: 'compliance-team@agency.example' },
    });
    expect(doc.controls['ac-2.1']).toEqual({ ksis: ['KSI-AC-02'], evidence: [`sha256:${ac?.hash}`], actions: ['REMEDIATE KSI-AC-02 Critical 7d'] });
    expect(Object.keys(doc.controls)).toHaveLength(20);
  });
});

describe('governance-report.md', () => {
  it('lists one action per result, most severe first, then by ksi_id', () => {
    const writer = new GovernanceLines();
    items.forEach((i) => writer.add(i.action));
    const sink = new StringSink();
    sink.write(governanceReportHead(context.input, writer.totals));
    for (const severity of SEVERITIES) writer.write(sink, severity, (i) => items[i].action);
    expect(sink.text()).toBe(
      [
        '# Governance report',
        '',
        `Input: sample.json (sha256:${'ab'.repeat(32)})`,
        'Actions: 5 (REMEDIATE: 3, MONITOR: 2)',
        '',
        '- REMEDIATE | KSI-AC-02 | sev=Critical | owner=identity-team@agency.example | SLA=7d',
        '- REMEDIATE | KSI-IA-02 | sev=Critical | owner=identity-team@agency.example | SLA=7d',
        '- REMEDIATE | KSI-AU-02 | sev=Medium | owner=secops-team@agency.example | SLA=30d',
        '- MONITOR | KSI-CNA-01 | sev=Low | owner=compliance-team@agency.example | SLA=60d',
        '- MONITOR | KSI-SC-08 | sev=Low | owner=platform-team@agency.example | SLA=60d',
        '',
      ].join('\n'),
    );
  });
});

describe('ssp-narrative.md', () => {
  it('derives the implementation status: all PASS implemented, any WARN partial, any FAIL planned', () => {
    const of = (...statuses: ('PASS' | 'WARN' | 'FAIL')[]) => implementationStatus(statuses.map((s) => ({ ...items[0], result: aResult('KSI-AC-02', s) })));
    expect([of('PASS', 'PASS'), of('PASS', 'WARN'), of('WARN', 'FAIL'), of()]).toEqual(['implemented', 'partial', 'planned', 'implemented']);
  });

  it('writes one section per control touched, in catalog order, with KSIs, statuses and evidence hashes', () => {
    const sink = new StringSink();
    writeSspNarrative(sink, hashed, catalog, context.input);
    const text = sink.text();
    const sections = [...text.matchAll(/^## (\S+)/gm)].map((m) => m[1]);
    expect(sections.slice(0, 4)).toEqual(['ac-2', 'ac-2.1', 'ac-2.2', 'ac-2.3']);
    expect(sections).toHaveLength(20);
    expect(text).toContain('Controls: 20 (implemented: 2, partial: 1, planned: 17)');
    const sc = hashed.find((h) => h.item.result.ksi_id === 'KSI-SC-08');
    expect(text).toContain(
      `## sc-8 Transmission Confidentiality and Integrity\n\nImplementation status: implemented\n\n- KSI-SC-08 (Transmission Confidentiality and Integrity): PASS, evidence sha256:${sc?.hash}.\n`,
    );
    expect(text).toContain('- KSI-AU-02 (Event Logging): WARN (assessed at 2026-11-02T14:04:02Z), evidence sha256:');
  });
});

describe('manifest.json', () => {
  it('aggregates the five files as sha256sum lines in file-name order', () => {
    const files = [
      { name: 'poam.json', sha256: '22'.repeat(32), bytes: 2 },
      { name: 'evidence-bundle.json', sha256: '11'.repeat(32), bytes: 1 },
    ];
    expect(aggregateHash(files, digest)).toBe(digest.sha256(`${'11'.repeat(32)}  evidence-bundle.json\n${'22'.repeat(32)}  poam.json\n`));
    const manifest = buildManifest({
      tool: { name: 'svc', version: '0.5.0' },
      generatedAt: new Date('2026-01-01T00:00:00.123Z'),
      input: context.input,
      counts: { ...counts, evidence: 5, actions: 5, poam: 3 },
      merkleRoot: 'cd'.repeat(32),
      files,
      digest,
    });
    expect(manifest).toMatchObject({
      schema: 'svc.manifest/v1',
      generated_at: '2026-01-01T00:00:00Z',
      merkle_root: `sha256:${'cd'.repeat(32)}`,
      files: { 'poam.json': { sha256: `sha256:${'22'.repeat(32)}`, bytes: 2 } },
    });
  });
});
