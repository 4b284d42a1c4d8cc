import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { GenerateHdf } from '../../src/application/documents/generate-hdf';
import { RunLoader } from '../../src/application/shared/run-loader';
import { hdfImpact, hdfNistTag, hdfResultStatus, type HdfControl } from '../../src/domain/hdf/hdf-results';
import type { KsiResult } from '../../src/domain/ksi/ksi-result';
import { reportFromScan } from '../../src/domain/scan/ksi-from-checks';
import { hdf } from '../../src/infrastructure/scans/vendors/hdf';
import { builtInCatalog } from '../fakes/fixed-catalog-source';
import { provenanceOf, rawSample, readWith, scratchFolder } from '../support/adapters';
import { doubles } from '../support/harness';
import { FIXTURES, REFERENCE } from '../support/run-svc';

const SCHEMA = join(REFERENCE, 'hdf', 'exec-json.schema.json');
const SAMPLE = JSON.parse(readFileSync(join(FIXTURES, 'sample-baseline.json'), 'utf8')) as { results: KsiResult[] };

let validator: ValidateFunction | undefined;
/**
 * Ajv errors of a document against heimdall2's exec-json schema, the file as published. It declares no `$schema`, so
 * Ajv's default draft-07 reads it; strict mode holds except for one thing the schema really uses: a three-type union
 * (`Waiver_Data.skipped_due_to_waiver`: boolean, null or string), which needs `allowUnionTypes` (docs/generate.md).
 */
function schemaErrors(document: unknown): string[] {
  validator ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
  return validator(document) ? [] : (validator.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);
}

const { write } = scratchFolder('svc-generate-hdf-');
let written = 0;

/** GenerateHdf over in-memory doubles on `files`: the written document's text and the result. */
async function generate(files: Record<string, unknown>, input: string) {
  const d = doubles(files);
  const use = new GenerateHdf(new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, d.settings), d.writer, d.settings);
  const result = await use.execute({ input, out: 'out/run.hdf.json' });
  return { result, text: d.writer.files.get('out/run.hdf.json') as string };
}

/** What `svc adapter run hdf` reads back from an HDF text: the KSI statuses and the summary. */
async function readBack(text: string) {
  const scan = await readWith(hdf, write(`round-trip-${written++}.json`, text));
  const { report, summary } = reportFromScan(scan, provenanceOf('hdf'), '2026-11-21T00:00:00Z');
  return { scan, statuses: Object.fromEntries(report.results.map((r) => [r.ksi_id, r.status])), summary };
}

const controlsOf = (text: string): HdfControl[] => (JSON.parse(text) as { profiles: { controls: HdfControl[] }[] }).profiles[0].controls;

describe('the HDF schema, as published', () => {
  it('accepts the three real HDF samples and refuses a broken document, so a pass means something', () => {
    for (const file of ['red_hat_good.json', 'triple_overlay_profile_sample.json', 'minimal_hdf.json'])
      expect(schemaErrors(JSON.parse(readFileSync(rawSample('hdf', file), 'utf8')))).toEqual([]);
    const broken = JSON.parse(readFileSync(rawSample('hdf', 'minimal_hdf.json'), 'utf8'));
    broken.profiles[0].controls[0].impact = 2;
    delete broken.profiles[0].controls[0].results[0].start_time;
    expect(schemaErrors(broken)).toEqual([
      '/profiles/0/controls/0/impact must be <= 1',
      "/profiles/0/controls/0/results/0 must have required property 'start_time'",
    ]);
  });
});

describe('svc generate hdf: the document', () => {
  const checks = ['PASS', 'FAIL', 'WARN', 'ERROR', 'NOT_APPLICABLE', 'MANUAL', 'OMITTED', 'INCORRECT', 'odd'].map((status, i) => ({
    id: `c-${i}`,
    status,
    details: `said ${status}`,
    ...(i % 2 ? { resource: 'host-1' } : {}),
  }));
  const ODD = [
    { ksi_id: 'KSI-SC-07', status: 'FAIL', checks },
    { ksi_id: 'KSI-AT-02', status: 'PASS' },
    { ksi_id: 'KSI-ZZ-01', status: 'WARN', details: 'd'.repeat(9000), evidence: { big: 'x'.repeat(5000) } },
    { ksi_id: 'KSI-IAM-APM', status: 'PASS', observed_at: '2026-01-01T00:00:00Z' },
  ];

  it('is valid against the HDF schema: the sample report, and a bare array with unmapped KSIs, long texts and every check status', async () => {
    const fromReport = await generate({ 'run.json': SAMPLE }, 'run.json');
    expect(schemaErrors(JSON.parse(fromReport.text))).toEqual([]);
    expect(fromReport.result).toMatchObject({
      input: 'run.json',
      out: 'out/run.hdf.json',
      controls: 5,
      passed: 2,
      failed: 3,
      unmapped: 1,
      file: { name: 'run.hdf.json' },
    });
    const odd = await generate({ 'odd.json': ODD }, 'odd.json');
    expect(schemaErrors(JSON.parse(odd.text))).toEqual([]);
    expect(odd.result).toMatchObject({ controls: 4, passed: 2, failed: 2, unmapped: 2 });
  });

  it('holds platform, version, statistics and one profile, svc KSI catalog, with a control per result', async () => {
    const { text } = await generate({ 'run.json': SAMPLE }, 'run.json');
    const document = JSON.parse(text);
    expect(Object.keys(document)).toEqual(['platform', 'profiles', 'statistics', 'version', 'passthrough']);
    expect(document.platform).toEqual({ name: 'svc', release: '0.5.0', target_id: 'contoso.onmicrosoft.com' });
    expect(document.version).toBe('0.5.0');
    // The five results were observed from 14:03:12 to 14:04:51 on 2026-11-02: 99 seconds.
    expect(document.statistics).toEqual({ duration: 99, controls: { passed: { total: 2 }, failed: { total: 3 }, skipped: { total: 0 } } });
    expect(document.profiles).toHaveLength(1);
    expect(document.profiles[0]).toMatchObject({ name: 'svc-ksi-catalog', version: '5.1.1+20231218-1', status: 'loaded', supports: [], attributes: [] });
    expect(document.profiles[0].groups.map((g: { id: string }) => g.id)).toEqual(['AC', 'AU', 'IA', 'SC', 'UNMAPPED']);
    expect(document.passthrough.auxiliary_data[0]).toMatchObject({
      name: 'svc',
      data: { input: { name: 'run.json' }, merkle_root: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    });
    const controls = controlsOf(text);
    expect(controls.map((c) => [c.id, c.impact, c.tags.severity, c.tags.ksi_status, c.results.map((r) => r.status)])).toEqual([
      ['KSI-AC-02', 0.9, 'critical', 'FAIL', ['failed', 'failed']],
      ['KSI-AU-02', 0.5, 'medium', 'WARN', ['failed', 'failed']],
      ['KSI-CNA-01', 0.3, 'low', 'PASS', ['passed']],
      ['KSI-IA-02', 0.9, 'critical', 'FAIL', ['failed', 'failed', 'passed']],
      ['KSI-SC-08', 0.9, 'critical', 'PASS', ['passed', 'passed']],
    ]);
    const ia2 = controls[3];
    expect(ia2).toMatchObject({ title: 'Phishing-resistant MFA for all users', refs: [], source_location: {} });
    expect(ia2.tags.nist).toEqual(['IA-2', 'IA-2 (1)', 'IA-2 (2)', 'IA-2 (5)', 'IA-2 (6)', 'IA-2 (8)', 'IA-2 (12)']); // ia-2, ia-2.1, ... ia-2.12 in the catalog
    expect(ia2.results[0]).toEqual({
      status: 'failed',
      code_desc: `KSI-IA-02 is FAIL (evidence ${ia2.tags.evidence_sha256 as string})`,
      start_time: '2026-11-02T14:03:12Z',
      // The evidence as its evidence entry holds it: keys in canonical (RFC 8785) order.
      message:
        'Conditional Access does not require phishing-resistant MFA for 14 of 212 users.\nEvidence: {"policy":"Require MFA for all users","users_total":212,"users_without_mfa":14}',
      resource: 'ScubaGear 1.5.1',
    });
    expect(ia2.results[1]).toEqual({
      status: 'failed',
      code_desc: 'Check MS.AAD.3.1v1: FAIL',
      start_time: '2026-11-02T14:03:12Z',
      message: 'Phishing-resistant MFA is not enforced for all users',
    });
    expect(ia2.descriptions.find((d) => d.label === 'fix')?.data).toBe(
      'REMEDIATE within 7 days (Critical), owner identity-team@agency.example; POA&M item POAM-KSI-IA-02.',
    );
    expect(controls[2]).toMatchObject({
      desc: "KSI-CNA-01 is not in svc's KSI catalog (FedRAMP Rev 5 Moderate Baseline): it names no NIST SP 800-53 control (Heimdall's UM-1).",
      tags: { nist: ['UM-1'] },
    });
  });

  it('writes check statuses as HDF result statuses and bounds what it quotes', async () => {
    const controls = controlsOf((await generate({ 'odd.json': ODD }, 'odd.json')).text);
    const sc7 = controls.find((c) => c.id === 'KSI-SC-07') as HdfControl;
    expect(sc7.results.slice(1).map((r) => [r.status, r.code_desc, r.message ?? r.skip_message])).toEqual([
      ['passed', 'Check c-0: PASS', 'said PASS'],
      ['failed', 'Check c-1 on host-1: FAIL', 'said FAIL'],
      ['failed', 'Check c-2: WARN', 'said WARN'],
      ['error', 'Check c-3 on host-1: ERROR', 'said ERROR'],
      ['skipped', 'Check c-4: NOT_APPLICABLE', 'NOT_APPLICABLE: said NOT_APPLICABLE'],
      ['skipped', 'Check c-5 on host-1: MANUAL', 'MANUAL: said MANUAL'],
      ['skipped', 'Check c-6: OMITTED', 'OMITTED: said OMITTED'],
      ['skipped', 'Check c-7 on host-1: INCORRECT', 'INCORRECT: said INCORRECT'],
      ['skipped', 'Check c-8: odd', 'odd: said odd'],
    ]);
    const zz = controls.find((c) => c.id === 'KSI-ZZ-01') as HdfControl;
    expect(zz.results[0].message?.length).toBeLessThanOrEqual(4000 + '\nEvidence: '.length + 1000);
    expect(zz.results[0].message).toMatch(/…\nEvidence: \{"big":"x+…$/);
  });

  it('gives the same bytes for the same input', async () => {
    expect((await generate({ 'run.json': SAMPLE }, 'run.json')).text).toBe((await generate({ 'run.json': SAMPLE }, 'run.json')).text);
  });

  it('writes NIST ids, impacts and statuses in HDF form', () => {
    expect(['ac-2', 'ac-2.1', 'ia-2.12', 'sc-7.4'].map(hdfNistTag)).toEqual(['AC-2', 'AC-2 (1)', 'IA-2 (12)', 'SC-7 (4)']);
    expect((['Critical', 'High', 'Medium', 'Low'] as const).map((s) => [hdfImpact('FAIL', s), hdfImpact('WARN', s), hdfImpact('PASS', s)])).toEqual([
      [0.9, 0.5, 0.9],
      [0.7, 0.5, 0.7],
      [0.7, 0.5, 0.5],
      [0.7, 0.3, 0.3],
    ]);
    expect(['pass', 'Passed', 'FAIL', 'warn', 'error', 'N/A', ''].map(hdfResultStatus)).toEqual([
      'passed',
      'passed',
      'failed',
      'failed',
      'error',
      'skipped',
      'skipped',
    ]);
  });
});

describe('round trip: svc adapter run hdf of svc generate hdf gives back the KSI statuses', () => {
  it('of the sample report; its one unmapped KSI comes back as an unmapped check', async () => {
    const { statuses, summary, scan } = await readBack((await generate({ 'run.json': SAMPLE }, 'run.json')).text);
    expect(statuses).toEqual({ 'KSI-AC-02': 'FAIL', 'KSI-AU-02': 'WARN', 'KSI-IA-02': 'FAIL', 'KSI-SC-08': 'PASS' });
    expect(Object.fromEntries(SAMPLE.results.filter((r) => r.ksi_id !== 'KSI-CNA-01').map((r) => [r.ksi_id, r.status]))).toEqual(statuses);
    expect(summary.unmapped_checks).toEqual(['KSI-CNA-01']);
    expect(scan).toMatchObject({ vendor: 'hdf', tool: 'svc', version: '0.5.0', tenant: 'contoso.onmicrosoft.com', observed_at: '2026-11-02T14:03:12Z' });
  });

  it('of a scanner run: red_hat_good.json through the hdf adapter, then generate hdf, then the hdf adapter again', async () => {
    const first = await readBack(readFileSync(rawSample('hdf', 'red_hat_good.json'), 'utf8'));
    const report = reportFromScan(first.scan, provenanceOf('hdf'), '2026-11-21T00:00:00Z').report;
    const again = await readBack((await generate({ 'rhel.json': report }, 'rhel.json')).text);
    expect(again.statuses).toEqual(first.statuses);
    expect(Object.keys(again.statuses)).toHaveLength(36);
    // KSI-AC-10 (ac-10: the Moderate baseline does not select it) is outside the catalog; its id names the control.
    expect(again.statuses['KSI-AC-10']).toBe('PASS');
    expect(again.summary.unmapped_checks).toEqual([]);
  });

  it('of any run whose checks agree with its statuses (fast-check)', async () => {
    const catalogIds = builtInCatalog()
      .all()
      .map((k) => k.id);
    const agreeing: Record<string, string[]> = {
      PASS: ['PASS', 'NOT_APPLICABLE', 'MANUAL', 'OMITTED'],
      WARN: ['WARN', 'ERROR', 'PASS', 'MANUAL'],
      FAIL: ['FAIL', 'WARN', 'ERROR', 'PASS', 'NOT_APPLICABLE'],
    };
    const result = fc.record({
      ksi_id: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...catalogIds) },
        { weight: 1, arbitrary: fc.constantFrom('KSI-AC-10', 'KSI-PM-05', 'KSI-ZZ-01', 'KSI-IAM-APM', 'KSI-QQQ-07') },
      ),
      status: fc.constantFrom('PASS', 'WARN', 'FAIL'),
      seed: fc.array(fc.nat(), { maxLength: 4 }),
      observed_at: fc.option(
        fc
          .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')),
        { nil: undefined },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(result, { minLength: 1, maxLength: 12, selector: (r) => r.ksi_id }), async (drawn) => {
        const results = drawn.map(({ seed, observed_at, ...r }) => ({
          ...r,
          ...(observed_at ? { observed_at } : {}),
          ...(seed.length > 0 ? { checks: seed.map((n, i) => ({ id: `chk-${i}`, status: agreeing[r.status][n % agreeing[r.status].length] })) } : {}),
        }));
        const { text } = await generate({ 'run.json': { results } }, 'run.json');
        expect(schemaErrors(JSON.parse(text))).toEqual([]);
        const { statuses, summary } = await readBack(text);
        // Every KSI whose id names a NIST control comes back; the others are unmapped checks, listed by id.
        const named = (id: string) => /^KSI-[A-Z]{2}-\d{2}$/.test(id) && id !== 'KSI-ZZ-01';
        expect(statuses).toEqual(Object.fromEntries(results.filter((r) => named(r.ksi_id)).map((r) => [r.ksi_id, r.status])));
        expect(summary.unmapped_checks).toEqual(
          results
            .filter((r) => !named(r.ksi_id))
            .map((r) => r.ksi_id)
            .sort(),
        );
      }),
      { seed: 42, numRuns: 60 },
    );
  });
});
