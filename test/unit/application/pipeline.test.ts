import { ListKsis } from '../../../src/application/catalog/list-ksis';
import { CheckCanon } from '../../../src/application/catalog/check-canon';
import { DiffRuns } from '../../../src/application/drift/diff-runs';
import { BuildEvidenceBundle } from '../../../src/application/evidence/build-evidence-bundle';
import { TraceEvidence } from '../../../src/application/evidence/trace-evidence';
import { TransformBaseline } from '../../../src/application/pipeline/transform-baseline';
import { WriteReport } from '../../../src/application/pipeline/write-report';
import { FixedRulesSource } from '../../fakes/fixed-rules-source';
import { aResult, sampleResults } from '../../support/builders';
import { doubles } from '../../support/harness';

describe('TransformBaseline', () => {
  it('counts results, statuses, mapped and unmapped KSIs', async () => {
    const d = doubles({ '/r.json': sampleResults() });
    const result = await new TransformBaseline(d.reader, d.scans, d.catalogs, new FixedRulesSource(), d.settings).execute({ input: '/r.json' });
    expect(result).toEqual({ input: '/r.json', counts: { results: 5, pass: 2, warn: 1, fail: 2, mapped: 4, unmapped: 1 }, unmapped: ['KSI-CNA-01'] });
  });

  it('maps the KSIs of the CR26 rules in use to the controls CR26 lists; an earlier FedRAMP id stays unmapped', async () => {
    const d = doubles({ '/r.json': [aResult('KSI-AC-02'), aResult('KSI-IAM-02'), aResult('KSI-IAM-APM', 'FAIL')] });
    const result = await new TransformBaseline(d.reader, d.scans, d.catalogs, new FixedRulesSource(), d.settings).execute({ input: '/r.json' });
    expect(result).toEqual({ input: '/r.json', counts: { results: 3, pass: 2, warn: 0, fail: 1, mapped: 2, unmapped: 1 }, unmapped: ['KSI-IAM-02'] });
  });

  it("refuses a scanner's own output naming the scanner and the adapter to run first; other bad reports as they are", async () => {
    const d = doubles({ '/scan.json': { Results: [] }, '/bad.json': { Results: [] } });
    d.scans.detected['/scan.json'] = { vendor: 'trivy', tool: 'Trivy', formats: 'JSON', mapping: 'rules', evidence: 'Report', detections: 'vulnerability' };
    const transform = new TransformBaseline(d.reader, d.scans, d.catalogs, new FixedRulesSource(), d.settings);
    await expect(transform.execute({ input: '/scan.json' })).rejects.toMatchObject({
      code: 'scanner-output',
      message: '/scan.json: this is Trivy output, not a normalized report; run "svc adapter run auto /scan.json --out report.json" first and pass report.json',
      cause: expect.objectContaining({ code: 'invalid-report' }),
    });
    await expect(transform.execute({ input: '/bad.json' })).rejects.toMatchObject({
      code: 'invalid-report',
      message: '/bad.json: results: missing; a report object needs "results": [ ... ] (docs/report-format.md)',
    });
  });
});

describe('DiffRuns', () => {
  it('compares two reports', async () => {
    const b = sampleResults().map((r) => (r.ksi_id === 'KSI-AC-02' ? { ...r, status: 'PASS' as const } : r));
    const d = doubles({ '/a.json': sampleResults(), '/b.json': b });
    const result = await new DiffRuns(d.reader, d.scans, d.catalogs, d.hashing).execute({ runA: '/a.json', runB: '/b.json' });
    expect(result.diff.transitions).toEqual([{ ksi_id: 'KSI-AC-02', from: 'FAIL', to: 'PASS' }]);
    expect(result.diff.counts).toEqual({ FAIL: { from: 2, to: 1 }, WARN: { from: 1, to: 1 }, PASS: { from: 2, to: 3 } });
    expect(result.markdown).toContain('- FAIL: 2 -> 1\n- WARN: 1 -> 1\n- PASS: 2 -> 3\n');
  });
});

describe('BuildEvidenceBundle', () => {
  it('writes one report as a bundle', async () => {
    const d = doubles({ '/a.json': sampleResults() });
    const result = await new BuildEvidenceBundle(d.reader, d.scans, d.catalogs, d.writer, d.hashing, d.settings).execute({
      inputs: ['/a.json'],
      out: '/out/e.json',
    });
    const bundle = JSON.parse(d.writer.files.get('/out/e.json') ?? '');
    expect(result).toMatchObject({ entries: 5, merkleRoot: bundle.merkle_root });
    expect(bundle.input.name).toBe('a.json');
  });

  it('merges several reports, the worst status winning, and records both inputs', async () => {
    const d = doubles({
      '/a.json': [aResult('KSI-AC-02', 'PASS'), aResult('KSI-AU-02', 'PASS')],
      '/b.json': [aResult('KSI-AC-02', 'WARN'), aResult('KSI-SC-08', 'FAIL')],
    });
    const result = await new BuildEvidenceBundle(d.reader, d.scans, d.catalogs, d.writer, d.hashing, d.settings).execute({
      inputs: ['/a.json', '/b.json'],
      out: '/e.json',
    });
    const bundle = JSON.parse(d.writer.files.get('/e.json') ?? '');
    expect(result.entries).toBe(3);
    expect(bundle.entries.map((e: { ksi_id: string; status: string }) => `${e.ksi_id} ${e.status}`)).toEqual([
      'KSI-AC-02 WARN',
      'KSI-AU-02 PASS',
      'KSI-SC-08 FAIL',
    ]);
    expect(bundle.input.name).toBe('a.json + b.json');
  });

  it('writes nothing when one of the reports is bad', async () => {
    const d = doubles({ '/a.json': [aResult('KSI-AC-02')], '/b.json': '{' });
    await expect(
      new BuildEvidenceBundle(d.reader, d.scans, d.catalogs, d.writer, d.hashing, d.settings).execute({ inputs: ['/a.json', '/b.json'], out: '/e.json' }),
    ).rejects.toThrow(/\/b\.json: invalid JSON at line 1/);
    expect(d.writer.files.size).toBe(0);
  });
});

describe('WriteReport', () => {
  it('returns the governance report text, or writes it', async () => {
    const d = doubles({ '/a.json': sampleResults() });
    const useCase = new WriteReport(d.reader, d.scans, d.catalogs, d.writer, d.hashing, d.settings);
    const printed = await useCase.execute({ report: 'governance-report', input: '/a.json' });
    expect('text' in printed && printed.text.split('\n')[5]).toBe('- REMEDIATE | KSI-AC-02 | sev=Critical | owner=identity-team@agency.example | SLA=7d');
    const written = await useCase.execute({ report: 'ssp-narrative', input: '/a.json', out: '/n.md' });
    expect('file' in written && written.file.name).toBe('n.md');
    expect(d.writer.files.get('/n.md')).toMatch(/^# SSP implementation narrative\n/);
  });
});

describe('TraceEvidence', () => {
  const d = doubles({ '/a.json': sampleResults() });
  const useCase = new TraceEvidence(d.reader, d.catalogs, d.hashing, d.settings);

  it('traces one control to its KSI, evidence (with an inclusion proof), action and POA&M item', async () => {
    const graph = await useCase.execute({ input: '/a.json', control: 'AC-2(1)' });
    expect(graph.control).toBe('ac-2.1');
    expect(graph.nodes.map((n) => n.id)).toEqual([
      'control:ac-2.1',
      'ksi:KSI-AC-02',
      'policy:ac-1',
      'evidence:KSI-AC-02',
      'action:KSI-AC-02',
      'poam:POAM-KSI-AC-02',
    ]);
    expect(graph.nodes.find((n) => n.type === 'evidence')?.proof).toMatchObject({ index: 0, merkle_root: graph.merkle_root });
    expect(graph.edges).toContainEqual({ from: 'ksi:KSI-AC-02', to: 'control:ac-2.1', relation: 'maps-to' });
  });

  it('refuses a malformed control id and one outside the baseline', async () => {
    await expect(useCase.execute({ input: '/a.json', control: 'ac two' })).rejects.toMatchObject({ kind: 'usage' });
    await expect(useCase.execute({ input: '/a.json', control: 'pm-3' })).rejects.toMatchObject({
      kind: 'not-found',
      message: expect.stringContaining('control pm-3 is not in the FedRAMP Rev 5 Moderate Baseline'),
    });
  });

  it('reads a bundle back and refuses one whose entries were changed', async () => {
    const bundle = doubles({ '/a.json': sampleResults() });
    await new BuildEvidenceBundle(bundle.reader, bundle.scans, bundle.catalogs, bundle.writer, bundle.hashing, bundle.settings).execute({
      inputs: ['/a.json'],
      out: '/b/evidence-bundle.json',
    });
    const text = bundle.writer.files.get('/b/evidence-bundle.json') ?? '';
    const reader = doubles({ '/b/evidence-bundle.json': text, '/t/evidence-bundle.json': text.replace('"status":"FAIL"', '"status":"PASS"') });
    const trace = new TraceEvidence(reader.reader, reader.catalogs, reader.hashing, reader.settings);
    expect((await trace.execute({ input: '/b' })).nodes.filter((n) => n.type === 'ksi')).toHaveLength(5);
    await expect(trace.execute({ input: '/t' })).rejects.toMatchObject({
      kind: 'integrity',
      message: expect.stringMatching(
        /entry KSI-AC-02: content_hash records sha256:[0-9a-f]{64}, the entry hashes to sha256:[0-9a-f]{64}; the bundle was changed after it was written/,
      ),
    });
  });
});

describe('ListKsis', () => {
  const d = doubles();
  const useCase = new ListKsis(d.catalogs);

  it('lists all 163, one family, or the KSI covering a control', async () => {
    expect((await useCase.execute({})).ksis).toHaveLength(163);
    expect((await useCase.execute({ area: 'ia' })).ksis.map((k) => k.id)).toEqual([
      'KSI-IA-02',
      'KSI-IA-03',
      'KSI-IA-04',
      'KSI-IA-05',
      'KSI-IA-06',
      'KSI-IA-07',
      'KSI-IA-08',
      'KSI-IA-11',
      'KSI-IA-12',
    ]);
    expect((await useCase.execute({ control: 'IA-2(1)' })).ksis.map((k) => k.id)).toEqual(['KSI-IA-02']);
    expect((await useCase.execute({ area: 'AC', control: 'ia-2' })).ksis).toEqual([]);
  });

  it('refuses an unknown area and a malformed control', async () => {
    await expect(useCase.execute({ area: 'XX' })).rejects.toMatchObject({
      kind: 'usage',
      message: expect.stringContaining('--area XX: not a family of the catalog; use one of AC, AT, AU'),
    });
    await expect(useCase.execute({ control: 'two' })).rejects.toMatchObject({
      kind: 'usage',
      message: '--control two: not a control id; write it like ac-2, ac-2.1 or AC-2(1)',
    });
  });
});

describe('CheckCanon', () => {
  it('proves the catalog consistent and compares a release', async () => {
    const release = {
      info: { version: 'next' },
      KSI: { IAM: { short_name: 'IAM', indicators: { 'KSI-IAM-NEW': { name: 'New', statement: 's', controls: ['ac-2', 'pm-9'] } } } },
    };
    const d = doubles({ '/frmr.json': release });
    const result = await new CheckCanon(d.catalogs, d.reader, new FixedRulesSource()).execute({ release: '/frmr.json' });
    expect(result.consistency.ok).toBe(true);
    expect(result.cr26).toMatchObject({
      version: '2026.10.05.01',
      date: '2026-10-05',
      consistency: { ok: true, counts: { ksis: 46, themes: 10, rules: 246, families: 17 }, problems: [] },
    });
    expect(result.catalog).toMatchObject({ ksis: 163, families: 18 });
    expect(result.release).toMatchObject({
      release: 'next',
      added: ['KSI-IAM-NEW'],
      coverage: [{ id: 'KSI-IAM-NEW', coverage: 'partial', covered: 1, total: 2, missing: ['pm-9'] }],
    });
    expect(result.release?.removed).toHaveLength(46);
  });

  it('reports the CR26 rules in use inconsistent, with each problem', async () => {
    const d = doubles();
    const rules = new FixedRulesSource().rules();
    rules.aliases['KSI-IAM-99'] = 'KSI-IAM-ZZZ';
    const result = await new CheckCanon(d.catalogs, d.reader, new FixedRulesSource(rules)).execute({});
    expect(result.consistency.ok).toBe(true);
    expect(result.cr26.consistency).toMatchObject({ ok: false, problems: ['alias KSI-IAM-99 -> KSI-IAM-ZZZ: KSI-IAM-ZZZ is not a rule or KSI'] });
  });
});
