import { BuildAuditorBundle } from '../../../src/application/pipeline/build-auditor-bundle';
import { aResult, sampleResults } from '../../support/builders';
import { doubles } from '../../support/harness';

const FILES = ['evidence-bundle.json', 'governance-report.md', 'lineage.json', 'manifest.json', 'poam.json', 'ssp-narrative.md'];

function setup(files: Record<string, unknown> = { '/in/sample.json': { generated_at: '2026-11-02T14:05:00Z', results: sampleResults() } }) {
  const d = doubles(files);
  return { d, useCase: new BuildAuditorBundle(d.reader, d.reader, d.scans, d.catalogs, d.writer, d.hashing, d.clock, d.progress, d.settings) };
}

describe('BuildAuditorBundle', () => {
  it('writes the six artifacts and counts Evidence 5, Actions 5, POA&M 3 for the sample', async () => {
    const { d, useCase } = setup();
    const result = await useCase.execute({ input: '/in/sample.json', outDir: '/out' });
    expect(result.counts).toEqual({ results: 5, pass: 2, warn: 1, fail: 2, mapped: 4, unmapped: 1, evidence: 5, actions: 5, poam: 3 });
    expect(result.unmapped).toEqual(['KSI-CNA-01']);
    expect([...d.writer.files.keys()].sort()).toEqual(FILES.map((f) => `/out/${f}`));
    expect(result.files.map((f) => f.name).sort()).toEqual(FILES);
  });

  it('records every other file in the manifest with its digest, the Merkle root and the aggregate hash', async () => {
    const { d, useCase } = setup();
    const result = await useCase.execute({ input: '/in/sample.json', outDir: '/out' });
    const manifest = JSON.parse(d.writer.files.get('/out/manifest.json') ?? '');
    for (const name of FILES.filter((f) => f !== 'manifest.json')) {
      expect(manifest.files[name].sha256).toBe(`sha256:${d.hashing.sha256(d.writer.files.get(`/out/${name}`) ?? '')}`);
    }
    const lines = FILES.filter((f) => f !== 'manifest.json').map((f) => `${d.hashing.sha256(d.writer.files.get(`/out/${f}`) ?? '')}  ${f}\n`);
    expect(manifest.aggregate_hash).toBe(`sha256:${d.hashing.sha256(lines.join(''))}`);
    expect(manifest.merkle_root).toBe(JSON.parse(d.writer.files.get('/out/evidence-bundle.json') ?? '').merkle_root);
    expect(manifest).toMatchObject({ tool: { name: 'svc', version: '0.5.0' }, generated_at: '2026-11-20T12:00:00Z', input: { name: 'sample.json' } });
    expect(result.aggregateHash).toBe(manifest.aggregate_hash);
  });

  it('gives byte-identical artifacts for the same input, and the same except the manifest time at another time', async () => {
    const first = setup();
    await first.useCase.execute({ input: '/in/sample.json', outDir: '/out' });
    const second = setup();
    second.d.clock.time = new Date('2027-01-01T00:00:00Z');
    await second.useCase.execute({ input: '/in/sample.json', outDir: '/out' });
    for (const f of FILES.filter((x) => x !== 'manifest.json')) expect(second.d.writer.files.get(`/out/${f}`)).toBe(first.d.writer.files.get(`/out/${f}`));
    expect(second.d.writer.files.get('/out/manifest.json')).not.toBe(first.d.writer.files.get('/out/manifest.json'));
  });

  it('leaves nothing in the output directory when a write fails midway', async () => {
    const { d, useCase } = setup();
    d.writer.failWriting = 'lineage.json';
    await expect(useCase.execute({ input: '/in/sample.json', outDir: '/out' })).rejects.toThrow('injected failure writing lineage.json');
    expect(d.writer.files.size).toBe(0);
    expect(d.progress.events.at(-1)).toBe('stop');
  });

  it('leaves nothing when the input is bad', async () => {
    const { d, useCase } = setup({ '/in/bad.json': [aResult('KSI-AC-02'), { ksi_id: 'KSI-AU-02', status: 'fail' }] });
    await expect(useCase.execute({ input: '/in/bad.json', outDir: '/out' })).rejects.toThrow('/in/bad.json: [1].status: "fail" is not a status');
    expect(d.writer.files.size).toBe(0);
  });

  it('writes a valid, empty bundle for an empty report', async () => {
    const { d, useCase } = setup({ '/in/empty.json': [] });
    const result = await useCase.execute({ input: '/in/empty.json', outDir: '/out' });
    expect(result.counts).toMatchObject({ results: 0, evidence: 0, actions: 0, poam: 0 });
    expect(JSON.parse(d.writer.files.get('/out/evidence-bundle.json') ?? '')).toMatchObject({ entries: [], merkle_root: `sha256:${d.hashing.sha256('')}` });
  });

  it('maps official FedRAMP ids when a release is given', async () => {
    const release = {
      info: { version: 'r1' },
      KSI: { IAM: { short_name: 'IAM', indicators: { 'KSI-IAM-MFA': { name: 'MFA', statement: 's', controls: ['ia-2', 'ac-2'] } } } },
    };
    const { useCase } = setup({ '/in/official.json': [aResult('KSI-IAM-MFA', 'FAIL')], '/in/frmr.json': release });
    const result = await useCase.execute({ input: '/in/official.json', outDir: '/out', officialCatalog: '/in/frmr.json' });
    expect(result.counts).toMatchObject({ mapped: 1, unmapped: 0, poam: 1 });
  });

  it('reports progress while it writes', async () => {
    const { d, useCase } = setup();
    await useCase.execute({ input: '/in/sample.json', outDir: '/out' });
    expect(d.progress.events).toEqual(['start Writing auditor bundle 5', 'advance 5', 'stop']);
  });
});

describe('BuildAuditorBundle on a report read in parts', () => {
  const sorted = Array.from({ length: 40 }, (_, i) =>
    aResult(i % 7 === 0 ? `KSI-AC-${String(2 + i).padStart(2, '0')}` : `KSI-ZZ-${String(i).padStart(2, '0')}`, (['PASS', 'WARN', 'FAIL'] as const)[i % 3], {
      details: `d${i}`,
    }),
  ).sort((a, b) => (a.ksi_id < b.ksi_id ? -1 : 1));

  async function bundle(parts: number, results: unknown[]) {
    const { d, useCase } = setup({ '/in/r.json': { generated_at: '2026-11-02T14:05:00Z', results } });
    d.reader.parts = parts;
    d.reader.putFragment = (path, text) => d.writer.files.set(path, text);
    const result = await useCase.execute({ input: '/in/r.json', outDir: '/out' });
    return { result, files: new Map([...d.writer.files].filter(([path]) => !path.includes('.scratch'))), all: d.writer.files };
  }

  it('writes exactly the bundle a one-piece read writes, for two and three parts', async () => {
    const one = await bundle(1, sorted);
    for (const parts of [2, 3]) {
      const split = await bundle(parts, sorted);
      expect(split.files).toEqual(one.files);
      expect(split.result).toEqual(one.result);
      expect([...split.all.keys()].filter((p) => p.includes('.scratch'))).toEqual([]);
    }
  });

  it('reads the report whole when the parts are not in ksi_id order, and still sorts it', async () => {
    const shuffled = [...sorted.slice(20), ...sorted.slice(0, 20)];
    const split = await bundle(2, shuffled);
    expect(split.files).toEqual((await bundle(1, shuffled)).files);
    expect(JSON.parse(split.files.get('/out/evidence-bundle.json') ?? '').entries.map((e: { ksi_id: string }) => e.ksi_id)).toEqual(
      sorted.map((r) => r.ksi_id),
    );
  });

  it('reports the first error of a later part exactly as a one-piece read does', async () => {
    const bad = sorted.map((r, i) => (i === 30 ? { ...r, status: 'Fail' } : r));
    await expect(bundle(2, bad)).rejects.toThrow('/in/r.json: results[30].status: "Fail" is not a status; use exactly PASS, WARN or FAIL (upper case)');
    const dup = sorted.map((r, i) => (i === 25 ? { ...r, ksi_id: sorted[5].ksi_id } : r));
    await expect(bundle(3, dup)).rejects.toThrow(`/in/r.json: results[25].ksi_id: duplicate "${sorted[5].ksi_id}" (first at results[5])`);
  });
});
