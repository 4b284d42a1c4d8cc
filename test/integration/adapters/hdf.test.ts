import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { VENDOR_PARSERS } from '../../../src/infrastructure/scans/registry';
import { VendorScanReader } from '../../../src/infrastructure/scans/vendor-scan-reader';
import { hdf } from '../../../src/infrastructure/scans/vendors/hdf';
import { inspec } from '../../../src/infrastructure/scans/vendors/inspec';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const RED_HAT = rawSample('hdf', 'red_hat_good.json');
const OVERLAY = rawSample('hdf', 'triple_overlay_profile_sample.json');
const MINIMAL = rawSample('hdf', 'minimal_hdf.json');
const PROVENANCE = provenanceOf('hdf');
const NOW = '2026-11-21T00:00:00Z';

const { write } = scratchFolder('svc-hdf-');

// Every number below was counted by hand on the sample files (python/jq over profiles[].controls[]), not by svc:
// a control id is one check however many overlay profiles list it; its outcome is the worst status of all its results
// (failed, error, passed, skipped), with impact (of the outermost profile listing it) 0 → not applicable and an
// applicable control whose results are all skipped → manual (Heimdall's "Not Reviewed").
describe('HDF adapter on red_hat_good.json (RHEL 7 STIG, one profile, 247 controls)', () => {
  it('makes one check per control: 214 pass, 9 manual, 24 not applicable, no fail or error', async () => {
    const scan = await readWith(hdf, RED_HAT);
    expect(scan.checks).toHaveLength(247);
    // 612 passed and 37 skipped results; 33 controls have only skipped ones: 24 at impact 0, 9 applicable.
    expect(outcomes(scan.checks)).toEqual({ pass: 214, manual: 9, 'not-applicable': 24 });
    expect(scan).toMatchObject({
      vendor: 'hdf',
      tool: 'Chef InSpec',
      version: '4.18.104',
      tenant: 'redhat 7.8',
      observed_at: '2020-04-20T16:11:10Z',
      detections: 'configuration',
    });
  });

  it('reads tags.nist in HDF form, CM-3 (5) → cm-3.5, with the revision marker dropped', async () => {
    const scan = await readWith(hdf, RED_HAT);
    const byId = (id: string) => scan.checks.find((c) => c.id === id);
    expect(byId('V-71973')).toMatchObject({ outcome: 'pass', criticality: 'should', severity: 'medium', controls: ['cm-3.5'] });
    // Impact 0.7, its one result skipped ("takes a long time to run and has been disabled"): a manual check.
    expect(byId('V-71849')).toMatchObject({ outcome: 'manual', criticality: 'must', controls: ['au-9', 'au-9.3', 'ac-3.4', 'ac-6.10'] });
    expect(byId('V-71849')?.details).toMatch(/^This control consistently takes a long time to run/);
  });

  it('gives 36 KSIs PASS and lists KSI-AU-09 (only the manual V-71849) as not assessed', async () => {
    const { summary } = reportFromScan(await readWith(hdf, RED_HAT), PROVENANCE, NOW);
    expect(summary.statuses).toEqual({ PASS: 36, WARN: 0, FAIL: 0 });
    expect(summary.not_assessed).toEqual(['KSI-AU-09']);
    expect(summary.unmapped_checks).toEqual([]);
  });
});

describe('HDF adapter on triple_overlay_profile_sample.json (three overlay profiles)', () => {
  it('resolves the 15 control entries of the 3 profiles to 5 checks: 1 fail, 1 pass, 2 manual, 1 not applicable', async () => {
    const raw = JSON.parse(readFileSync(OVERLAY, 'utf8')) as { profiles: { controls: unknown[] }[] };
    expect(raw.profiles.map((p) => p.controls.length)).toEqual([5, 5, 5]);
    const scan = await readWith(hdf, OVERLAY);
    expect(scan.checks.map((c) => c.id)).toEqual(['V-61409', 'V-61449', 'V-61635', 'V-61867', 'V-61677']);
    expect(outcomes(scan.checks)).toEqual({ fail: 1, pass: 1, manual: 2, 'not-applicable': 1 });
    expect(scan).toMatchObject({ tool: 'Chef InSpec', version: '4.18.100', tenant: 'centos 7.7.1908', observed_at: '2020-06-01T18:50:31Z' });
  });

  it('keeps the failed result as evidence and the KSIs as the inspec vendor gives them', async () => {
    const scan = await readWith(hdf, OVERLAY);
    const failed = scan.checks.find((c) => c.id === 'V-61635');
    expect(failed).toMatchObject({ outcome: 'fail', criticality: 'should', controls: ['au-3'] });
    expect(failed?.details).toMatch(/^expected: NONE got: \["NONE"\] \(compared using .*\) \(The oracle database audit_trail parameter is expected/);
    const { report, summary } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AU-03', 'WARN'],
      ['KSI-CM-07', 'PASS'],
    ]);
    expect(summary.not_assessed).toEqual(['KSI-CM-05', 'KSI-CM-06']);
    // Same file through `inspec`: the same checks and KSIs; skipped-only controls read as not applicable there.
    const byInspec = await readWith(inspec, OVERLAY);
    expect(byInspec.checks.map((c) => [c.id, c.controls, c.criticality])).toEqual(scan.checks.map((c) => [c.id, c.controls, c.criticality]));
    expect(outcomes(byInspec.checks)).toEqual({ fail: 1, pass: 1, 'not-applicable': 3 });
    expect(reportFromScan(byInspec, PROVENANCE, NOW).report.results.map((r) => [r.ksi_id, r.status])).toEqual(report.results.map((r) => [r.ksi_id, r.status]));
  });
});

describe('HDF adapter on minimal_hdf.json', () => {
  it('reads its one failed control (impact 0.7, no tags) as a must-check on cm-6, with code_desc and message as evidence', async () => {
    const scan = await readWith(hdf, MINIMAL);
    expect(scan).toMatchObject({
      tool: 'Chef InSpec',
      version: '5.18.14',
      tenant: 'af9cc1ad-9583-5403-8a69-79a34daa9792',
      observed_at: '2022-09-28T01:58:28Z',
    });
    expect(scan.checks).toEqual([
      {
        id: 'test',
        outcome: 'fail',
        criticality: 'must',
        controls: ['cm-6'],
        title: 'Returns a fail',
        severity: 'high',
        resource: 'af9cc1ad-9583-5403-8a69-79a34daa9792',
        details: 'expected false got true (true is expected to equal false)',
      },
    ]);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.map((r) => [r.ksi_id, r.status, r.source])).toEqual([['KSI-CM-06', 'FAIL', 'Chef InSpec 5.18.14']]);
    expect(detectionsOf(scan, NOW, new PureJsHashing())).toEqual([
      expect.objectContaining({ finding_id: 'test', kind: 'configuration', detected_at: '2022-09-28T01:58:28Z' }),
    ]);
  });
});

describe('HDF beyond InSpec: SAF conversions, CCIs, UM-1, waivers, attestations', () => {
  const result = (status: string, extra: object = {}) => ({ status, code_desc: `test ${status}`, start_time: '2024-05-01T12:00:00Z', ...extra });
  const control = (id: string, impact: number, tags: object, results: object[], extra: object = {}) => ({
    id,
    title: `Control ${id}`,
    impact,
    refs: [],
    tags,
    source_location: {},
    results,
    ...extra,
  });
  const converted = (controls: object[], extra: object = {}) => ({
    platform: { name: 'Heimdall Tools', release: '2.10.8', target_id: 'registry.example/app:1.4' },
    version: '2.10.8',
    statistics: { duration: null },
    profiles: [{ name: 'Anchore - Grype', version: '0.74.0', sha256: '', supports: [], attributes: [], groups: [], status: 'loaded', controls }],
    passthrough: { auxiliary_data: [{ name: 'Grype', data: {} }] },
    ...extra,
  });

  it('names the converted scanner (profile name and version) and its target, not the converter', async () => {
    const path = write(
      'grype-hdf.json',
      converted([control('CVE-2024-0001', 0.7, { nist: ['SI-2', 'RA-5'] }, [result('failed', { message: 'openssl 3.0.1 is vulnerable' })])]),
    );
    const scan = await readWith(hdf, path);
    expect(scan).toMatchObject({ vendor: 'hdf', tool: 'Anchore - Grype', version: '0.74.0', tenant: 'registry.example/app:1.4' });
    expect(scan.checks[0]).toMatchObject({ outcome: 'fail', controls: ['si-2', 'ra-5'], details: 'openssl 3.0.1 is vulnerable (test failed)' });
    // Without a profile name, passthrough.auxiliary_data[].name names it.
    const unnamed = converted([control('C', 0.5, { nist: ['SI-2'] }, [result('passed')])]);
    delete (unnamed.profiles[0] as { name?: string }).name;
    expect(await readWith(hdf, write('unnamed.json', unnamed))).toMatchObject({ tool: 'Grype', version: '0.74.0' });
  });

  it("maps tags.cci through DISA's CCI list when tags.nist names no control, and UM-1 to no control at all", async () => {
    const path = write(
      'cci.json',
      converted([
        control('CCI-ONLY', 0.7, { cci: ['CCI-000015'] }, [result('failed')]),
        control('UNMAPPED', 0.7, { nist: ['UM-1'], cci: ['CCI-000015'] }, [result('failed')]),
        control('NONE', 0.5, {}, [result('passed')]),
      ]),
    );
    const scan = await readWith(hdf, path);
    expect(scan.checks.map((c) => [c.id, c.controls])).toEqual([
      ['CCI-ONLY', ['ac-2.1']],
      ['UNMAPPED', []],
      ['NONE', ['cm-6']],
    ]);
    const { report, summary } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AC-02', 'FAIL'],
      ['KSI-CM-06', 'PASS'],
    ]);
    expect(summary.unmapped_checks).toEqual(['UNMAPPED']);
  });

  it('reads a control skipped under a waiver as omitted, says so, and keeps a waived control that ran as it ran', async () => {
    const waiver = (skipped: boolean) => ({
      waiver_data: { justification: 'Accepted risk AR-12', expiration_date: '2026-12-31', run: !skipped, skipped_due_to_waiver: skipped, message: '' },
    });
    const path = write(
      'waivers.json',
      converted([
        control(
          'W-SKIPPED',
          0.7,
          { nist: ['AC-2'] },
          [result('skipped', { skip_message: 'Skipped control due to waiver condition: Accepted risk AR-12' })],
          waiver(true),
        ),
        control('W-RAN', 0.7, { nist: ['AC-3'] }, [result('failed', { message: 'world-writable' })], waiver(false)),
      ]),
    );
    const scan = await readWith(hdf, path);
    expect(scan.checks.map((c) => [c.id, c.outcome, c.details])).toEqual([
      [
        'W-SKIPPED',
        'omitted',
        'Skipped under a waiver: Accepted risk AR-12 (expires 2026-12-31). Skipped control due to waiver condition: Accepted risk AR-12 (test skipped)',
      ],
      ['W-RAN', 'fail', 'Waiver: Accepted risk AR-12 (expires 2026-12-31). world-writable (test failed)'],
    ]);
    const { report, summary } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([['KSI-AC-03', 'FAIL']]);
    expect(summary.not_assessed).toEqual(['KSI-AC-02']);
  });

  it('counts an attestation result (saf attest apply) like any result, with its statement as the evidence', async () => {
    const attestation = {
      control_id: 'A-1',
      explanation: 'Banner verified by hand',
      frequency: '1y',
      status: 'passed',
      updated: '2026-05-01',
      updated_by: 'ISSO',
    };
    const attested = result('passed', {
      code_desc: 'Manually verified status provided through attestation',
      message: 'Attestation: Status: passed Explanation: Banner verified by hand',
    });
    const path = write(
      'attested.json',
      converted([control('A-1', 0.5, { nist: ['AC-8'] }, [result('skipped', { skip_message: 'manual review' }), attested], { attestation_data: attestation })]),
    );
    const [check] = (await readWith(hdf, path)).checks;
    expect(check).toMatchObject({
      id: 'A-1',
      outcome: 'pass',
      details: 'Attestation: Status: passed Explanation: Banner verified by hand (Manually verified status provided through attestation)',
    });
  });
});

describe('telling HDF from InSpec output', () => {
  const head = (path: string) =>
    readFileSync(path)
      .subarray(0, 64 * 1024)
      .toString('utf8');
  const takers = (text: string) => VENDOR_PARSERS.filter((p) => p.looksLike(text)).map((p) => p.info.vendor);

  it("an InSpec run is HDF as well: both vendors take the three samples (the overlay sample is the inspec folder's file, byte for byte)", () => {
    expect(readFileSync(OVERLAY).equals(readFileSync(rawSample('inspec', 'triple_overlay_profile_sample.json')))).toBe(true);
    for (const path of [RED_HAT, OVERLAY, MINIMAL]) expect(takers(head(path))).toEqual(['inspec', 'hdf']);
  });

  it('HDF that InSpec did not write (a SAF conversion, svc generate hdf, a passthrough) is hdf alone', () => {
    const saf = JSON.stringify({
      platform: { name: 'Heimdall Tools', release: '2.10.8' },
      version: '2.10.8',
      profiles: [{ name: 'Checkov Scan', controls: [] }],
    });
    const svcOwn = JSON.stringify({ platform: { name: 'svc', release: '0.5.0', target_id: 'contoso' }, profiles: [{ name: 'svc-ksi-catalog', controls: [] }] });
    const passthroughFirst = `{"passthrough": {"auxiliary_data": [{"name": "Gosec", "data": "${'x'.repeat(70_000)}"}]}, "platform": {}, "profiles": []}`.slice(
      0,
      64 * 1024,
    );
    for (const text of [saf, svcOwn, passthroughFirst]) expect(takers(text)).toEqual(['hdf']);
  });

  it('`svc adapter run inspec` on a SAF conversion points at hdf', async () => {
    const path = write('saf.json', {
      platform: { name: 'Heimdall Tools', release: '2.10.8' },
      version: '2.10.8',
      statistics: {},
      profiles: [{ name: 'Checkov Scan', controls: [] }],
    });
    await expect(new VendorScanReader(VENDOR_PARSERS).read('inspec', path)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${path}: does not look like Chef InSpec output; it looks like Heimdall Data Format (HDF) output: try "svc adapter run hdf ${path}"`,
    });
  });
});

describe('HDF adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place and the format for a control without an id, a result without a status, and results that are not a list', async () => {
    const doc = (controls: unknown[]) => ({ platform: { name: 'x', release: '1' }, profiles: [{ name: 'p', controls }] });
    const noId = write('no-id.json', doc([{ title: 'no id', results: [] }]));
    await expect(readWith(hdf, noId)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${noId}: profiles[0].controls[0].id: missing; this is not HDF output as svc knows it (docs/adapters.md)`,
    });
    const noStatus = write('no-status.json', doc([{ id: 'C', results: [{ code_desc: 'x', start_time: '2024-01-01T00:00:00Z', status: null }] }]));
    await expect(readWith(hdf, noStatus)).rejects.toMatchObject({
      message: `${noStatus}: profiles[0].controls[0].results[0].status: missing; this is not HDF output as svc knows it (docs/adapters.md)`,
    });
    const notList = write('not-list.json', doc([{ id: 'C', results: { status: 'passed' } }]));
    await expect(readWith(hdf, notList)).rejects.toMatchObject({ message: expect.stringContaining('profiles[0].controls[0].results: expected a list') });
  });
});
