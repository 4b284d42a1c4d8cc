import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunLoader } from '../../src/application/shared/run-loader';
import { FsReportReader } from '../../src/infrastructure/reports/fs-report-reader';
import { EntryResult } from '../../src/domain/assessment/entry-result';
import { doubles } from '../support/harness';

/** A report whose results are out of ksi_id order, mapped and unmapped, with fields of every kind. */
const REPORT = {
  schema_version: '1',
  generated_at: '2026-11-02T14:05:00Z',
  source: { tool: 'ScubaGear', version: '1.5.1', tenant: 'contoso.onmicrosoft.com' },
  results: [
    { ksi_id: 'KSI-SC-08', status: 'PASS', evidence: { min_tls: '1.2', ciphers: ['a', 'b'] }, observed_at: '2026-11-02T14:00:00Z' },
    { ksi_id: 'KSI-IA-02', status: 'FAIL', title: 'MFA', details: 'r\u00e9sum\u00e9 "quoted"', checks: [{ id: 'MS.AAD.1.1v1', status: 'FAIL' }] },
    { ksi_id: 'KSI-ZZZ-01', status: 'WARN', source: 'custom' },
  ],
};

function loader(files: Record<string, unknown>) {
  const d = doubles(files);
  return new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, d.settings);
}

describe('RunLoader: a report read an item at a time (compact) is the run read whole', () => {
  it('gives the same results, hashes, counts, unmapped ids, Merkle root and report facts, sorted by ksi_id', async () => {
    const runs = loader({ '/r.json': REPORT });
    const whole = await runs.load({ input: '/r.json' });
    const compact = await runs.load({ input: '/r.json', compact: true });
    expect(compact.results.every((r) => r instanceof EntryResult)).toBe(true);
    expect(compact.results.map((r) => ({ item: r.item, hash: r.hash }))).toEqual(whole.results.map((r) => ({ item: r.item, hash: r.hash })));
    expect(compact.results.map((r) => r.item.result.ksi_id)).toEqual(['KSI-IA-02', 'KSI-SC-08', 'KSI-ZZZ-01']);
    const { results: _w, ...wholeRest } = whole;
    const { results: _c, ...compactRest } = compact;
    expect(compactRest).toEqual(wholeRest);
  });

  it('refuses a bad result with the message a whole read gives, and reads whole what it cannot split', async () => {
    const duplicate = { ...REPORT, results: [...REPORT.results, { ksi_id: 'KSI-SC-08', status: 'PASS' }] };
    const badStatus = { results: [{ ksi_id: 'KSI-IA-02', status: 'pass' }] };
    for (const report of [duplicate, badStatus]) {
      const runs = loader({ '/r.json': report });
      const expected = await runs.load({ input: '/r.json' }).catch((error: Error) => error.message);
      await expect(runs.load({ input: '/r.json', compact: true })).rejects.toThrow(expected as string);
    }
  });

  it('reads a file whole when an item does not parse, so the error names its line and column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-loader-'));
    try {
      const path = join(dir, 'broken.json');
      writeFileSync(path, '{"results": [\n  {"ksi_id": "KSI-IA-02", "status": "PASS",}\n]}\n');
      const d = doubles({});
      const runs = new RunLoader(new FsReportReader(), d.scans, d.catalogs, d.hashing, d.clock, d.settings);
      const expected = await runs.load({ input: path }).catch((error: Error) => error.message);
      expect(expected).toMatch(/line 2, column \d+/);
      await expect(runs.load({ input: path, compact: true })).rejects.toThrow(expected as string);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
