import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { container as root } from 'tsyringe';
import { KSI_COUNTS_DOCUMENT } from '../../src/domain/conmon/ksi-counts';
import { EVIDENCE_BUNDLE_DOCUMENT } from '../../src/domain/conmon/run-record';
import { registerAdapters } from '../../src/infrastructure/register-adapters';
import { RUN_STORE, type RunStore } from '../../src/ports/run-store';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { REFERENCE, svc } from '../support/run-svc';
import { sdrFromStore } from '../support/sdr-from-store';

/*
 * Issue 35: the KSI metrics of a year of days read each run's KSI counts, stored when it was recorded, not its
 * evidence. The SDR built from them is the SDR built the old way, from every run's evidence bundle (what svc does for
 * a run recorded before it stored counts).
 */
const DAYS = 12;
const NOW = '2026-11-20T12:00:00Z';
const KSIS = ['KSI-IAM-APM', 'KSI-CNA-RNT', 'KSI-SVC-ASM', 'KSI-MLA-OSM'];

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-ksi-counts-'));
  env = { SVC_HOME: join(dir, '.svc'), SVC_STORE: '', SVC_CONFIG: join(dir, 'svc.config.json'), SVC_FEDRAMP_RULES: join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.10.05.01.json'), SVC_SIGNING_KEY: '' };
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: { ...PACKAGE_PROFILE, class: 'C' } }));
  // Two sources on alternate days, each KSI's status changing from day to day, some results of an id the catalog maps.
  for (let day = 1; day <= DAYS; day++) {
    const at = `2026-11-${String(day + 7).padStart(2, '0')}T06:00:00Z`;
    const tool = day % 2 === 0 ? 'Prowler' : 'ScubaGear';
    const results = KSIS.map((ksi, k) => ({ ksi_id: ksi, status: (day + k) % 3 === 0 ? 'FAIL' : (day + k) % 5 === 0 ? 'WARN' : 'PASS', observed_at: at, checks: [{ id: `check-${k}`, status: 'PASS' }] }));
    // An id of svc's catalog (reaching CR26 KSIs by its controls), and a scanner's own, which reaches none.
    results.push({ ksi_id: 'KSI-IAM-01', status: day % 4 === 0 ? 'FAIL' : 'PASS', observed_at: at, checks: [{ id: 'mfa', status: 'PASS' }] });
    results.push({ ksi_id: 'KSI-ZZZZ-01', status: 'FAIL', observed_at: at, checks: [{ id: 'own', status: 'FAIL' }] });
    writeFileSync(join(dir, `day-${day}.json`), JSON.stringify({ schema_version: '1', generated_at: at, source: { tool, version: '1' }, results }));
    const run = svc(['conmon', 'process', join(dir, `day-${day}.json`), '--now', at], { cwd: dir, env });
    if (run.status !== 0) throw new Error(run.stderr);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The SDR of the store's latest run (test/support/sdr-from-store.ts). */
function sdrOf(hideCounts: boolean, times = 1): ReturnType<typeof sdrFromStore> {
  return sdrFromStore({ env, cwd: dir, now: NOW, hideCounts, times });
}

describe('KSI metrics from the counts stored with each run (issue 35)', () => {
  it('stores each run’s counts: a row per id a KSI can be reached from, the others counted', async () => {
    const container = registerAdapters(root.createChildContainer(), { env, cwd: dir });
    const store = container.resolve<RunStore>(RUN_STORE);
    const opened = await store.openDocument(1, KSI_COUNTS_DOCUMENT);
    let text = '';
    for await (const chunk of opened!.chunks) text += Buffer.from(chunk).toString('utf8');
    await store.close();
    expect(JSON.parse(text)).toEqual({
      schema: 'svc.ksi-counts/v1',
      ksis: [
        { ksi_id: 'KSI-CNA-RNT', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-IAM-01', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-IAM-APM', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-MLA-OSM', pass: 1, fail: 0, other: 0 },
        { ksi_id: 'KSI-SVC-ASM', pass: 0, fail: 1, other: 0 },
      ],
      unmapped: 1,
    });
  });

  it('builds the SDR the old way would, reading each run’s counts and the evidence of the latest runs only', async () => {
    const fromCounts = await sdrOf(false);
    const fromEvidence = await sdrOf(true);
    expect(JSON.stringify(fromCounts.document)).toBe(JSON.stringify(fromEvidence.document));
    expect((fromCounts.document as { ksiMetrics: Record<string, { last30Days: { implemented: number; notImplemented: number } }> }).ksiMetrics['KSI-IAM-APM'].last30Days).toMatchObject({ implemented: expect.any(Number), notImplemented: expect.any(Number) });
    // With counts: every day's runs read their counts; only the state's latest run of each source is read whole.
    expect(fromCounts.opened.get(KSI_COUNTS_DOCUMENT)).toBe(DAYS);
    expect(fromCounts.opened.get(EVIDENCE_BUNDLE_DOCUMENT)).toBe(2);
    // Without: every run's evidence.
    expect(fromEvidence.opened.get(EVIDENCE_BUNDLE_DOCUMENT)).toBe(DAYS + 2);
  });

  it('reads each run’s counts once for the life of the builder: a second SDR reads only the latest runs again', async () => {
    const twice = await sdrOf(false, 2);
    expect(JSON.stringify(twice.document)).toBe(JSON.stringify((await sdrOf(false)).document));
    expect([twice.opened.get(KSI_COUNTS_DOCUMENT), twice.opened.get(EVIDENCE_BUNDLE_DOCUMENT)]).toEqual([DAYS, 4]);
  });
});
