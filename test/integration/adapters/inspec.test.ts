import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { inspec } from '../../../src/infrastructure/scans/vendors/inspec';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('inspec', 'triple_overlay_profile_sample.json');
const PROVENANCE = provenanceOf('inspec');
const NOW = '2026-11-21T00:00:00Z';

interface RawControl {
  id: string;
  impact: number;
  results?: { status: string; start_time: string }[];
}

const { write } = scratchFolder('svc-inspec-');

describe('InSpec adapter on the real three-layer overlay sample', () => {
  const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
    version: string;
    platform: { name: string; release: string };
    profiles: { controls: RawControl[] }[];
  };
  const entries = raw.profiles.flatMap((p) => p.controls);
  const rows = entries.flatMap((c) => c.results ?? []);
  const rowCounts = rows.reduce<Record<string, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});
  // One check per control id: the worst status of all its result rows (only one profile has them), N/A at impact 0.
  const expected: Record<string, number> = {};
  for (const id of new Set(entries.map((c) => c.id))) {
    const copies = entries.filter((c) => c.id === id);
    const statuses = copies.flatMap((c) => (c.results ?? []).map((r) => r.status));
    const outcome = copies[0].impact === 0 ? 'not-applicable' : statuses.includes('failed') ? 'fail' : statuses.includes('passed') ? 'pass' : 'not-applicable';
    expected[outcome] = (expected[outcome] ?? 0) + 1;
  }

  it('counts each control id once, whatever the number of overlay copies, with the worst status of its results', async () => {
    expect(entries).toHaveLength(15);
    expect(rowCounts).toEqual({ passed: 2, failed: 1, skipped: 3 });
    const scan = await readWith(inspec, SAMPLE);
    expect(scan.checks).toHaveLength(new Set(entries.map((c) => c.id)).size);
    expect(scan.checks).toHaveLength(5);
    expect(outcomes(scan.checks)).toEqual(expected);
    expect(new Set(scan.checks.map((c) => c.id)).size).toBe(scan.checks.length);
  });

  it('keeps the InSpec version, the platform and the earliest result time', async () => {
    const scan = await readWith(inspec, SAMPLE);
    const earliest = rows.map((r) => new Date(r.start_time).getTime()).reduce((a, b) => Math.min(a, b));
    expect(scan).toMatchObject({ vendor: 'inspec', tool: 'Chef InSpec', version: raw.version, tenant: `${raw.platform.name} ${raw.platform.release}` });
    expect(scan.version).toBe('4.18.100');
    expect(scan.observed_at).toBe(new Date(earliest).toISOString().replace('.000Z', 'Z'));
  });

  it('takes controls from tags.nist, revision marker and statement letters dropped, enhancements kept', async () => {
    const scan = await readWith(inspec, SAMPLE);
    const byId = (id: string) => scan.checks.find((c) => c.id === id);
    expect(byId('V-61635')).toMatchObject({ outcome: 'fail', criticality: 'should', severity: 'medium', controls: ['au-3'] });
    expect(byId('V-61409')).toMatchObject({ outcome: 'not-applicable', controls: ['cm-6'] });
    expect(byId('V-61867')).toMatchObject({ outcome: 'not-applicable', severity: 'none', controls: ['cm-5.6'] });
    expect(byId('V-61677')).toMatchObject({ outcome: 'pass', controls: ['cm-7'] });
  });

  it('gives each KSI the status of its controls', async () => {
    const { report, summary } = reportFromScan(await readWith(inspec, SAMPLE), PROVENANCE, NOW);
    expect(report.results.find((r) => r.ksi_id === 'KSI-AU-03')).toMatchObject({ status: 'WARN', source: 'Chef InSpec 4.18.100' });
    expect(report.results.find((r) => r.ksi_id === 'KSI-CM-07')?.status).toBe('PASS');
    expect(summary.not_assessed).toEqual(['KSI-CM-05', 'KSI-CM-06']);
  });
});

describe('InSpec adapter on overlays and statuses', () => {
  const control = (id: string, impact: number, nist: unknown, results?: object[]) => ({
    id,
    title: `Control ${id}`,
    impact,
    tags: { nist },
    ...(results ? { results } : {}),
  });
  const result = (status: string, extra: object = {}) => ({ status, code_desc: `check ${status}`, start_time: '2024-03-01T10:00:00+01:00', ...extra });

  it("uses an overlay's impact with its base's results, and reads error, skipped-only and untagged controls", async () => {
    const path = write('overlay.json', {
      platform: { name: 'ubuntu', release: '22.04', target_id: 'web-01' },
      version: '5.22.3',
      profiles: [
        { name: 'overlay', depends: [{ name: 'base' }], controls: [control('C-1', 0, ['AC-2 (1)', 'Rev_5']), control('C-2', 0.9, 'IA-5 (1) (a)')] },
        {
          name: 'base',
          parent_profile: 'overlay',
          controls: [
            control('C-1', 0.7, ['AC-2'], [result('failed')]),
            control('C-2', 0.5, ['IA-5'], [result('passed'), result('failed', { message: 'expected 14 got 90'.padEnd(500, '!') })]),
            control('C-3', 0.5, [], [result('error', { exception: 'undefined method' })]),
            control('C-4', 0.3, ['CM-6 b'], [result('skipped', { skip_message: 'not on this platform' })]),
            control('C-5', 0.5, ['CM-6 b']),
          ],
        },
      ],
    });
    const scan = await readWith(inspec, path);
    expect(scan).toMatchObject({ tenant: 'web-01', version: '5.22.3', observed_at: '2024-03-01T09:00:00Z' });
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.controls])).toEqual([
      ['C-1', 'not-applicable', 'should', ['ac-2.1']],
      ['C-2', 'fail', 'must', ['ia-5.1']],
      ['C-3', 'error', 'should', ['cm-6']],
      ['C-4', 'not-applicable', 'should', ['cm-6']],
      ['C-5', 'not-applicable', 'should', ['cm-6']],
    ]);
    expect(scan.checks[1]).toMatchObject({ severity: 'critical', resource: 'web-01' });
    expect(scan.checks[1].details?.startsWith('expected 14 got 90')).toBe(true);
    expect(scan.checks.every((c) => (c.details ?? '').length <= 300)).toBe(true);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.find((r) => r.ksi_id === 'KSI-IA-05')?.status).toBe('FAIL');
    expect(report.results.find((r) => r.ksi_id === 'KSI-CM-06')?.status).toBe('WARN');
  });
});

describe('InSpec adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const detect = async () => detectionsOf(await readWith(inspec, SAMPLE), NOW, new PureJsHashing());

  it('makes one configuration detection per failed control of the real sample', async () => {
    const detections = await detect();
    // Counted by hand with jq on the sample: [.profiles[].controls[] | select((.results // []) | any(.status == "failed")) | .id]
    // = ["V-61635"] (one passed and one failed result); every control is listed in all three profiles, results only in the leaf.
    expect(detections).toEqual([
      {
        id: expect.stringMatching(ID),
        source: 'Chef InSpec',
        finding_id: 'V-61635',
        resource: 'centos 7.7.1908', // the platform: InSpec names no other target here
        title: expect.stringMatching(/^The DBMS must produce audit records containing sufficient i/),
        scanner_severity: 'medium',
        detected_at: '2020-06-01T18:50:31Z', // the earliest result start_time
        kind: 'configuration',
      },
    ]);
    expect((await detect()).map((d) => d.id)).toEqual([detections[0].id]);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('InSpec adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('refuses a control without an id, and an unknown result status, with the shape error', async () => {
    const noId = write('no-id.json', { platform: { name: 'x' }, profiles: [{ name: 'p', controls: [{ title: 'no id', results: [] }] }] });
    await expect(readWith(inspec, noId)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${noId}: profiles[0].controls[0].id: missing; this is not Chef InSpec output as svc knows it (docs/adapters.md)`,
    });
    const badStatus = write('bad-status.json', { platform: { name: 'x' }, profiles: [{ name: 'p', controls: [{ id: 'C', results: [{ status: 'ok' }] }] }] });
    await expect(readWith(inspec, badStatus)).rejects.toMatchObject({
      message: expect.stringContaining('profiles[0].controls[0].results[0].status: "ok" is not an InSpec result status'),
    });
  });
});
