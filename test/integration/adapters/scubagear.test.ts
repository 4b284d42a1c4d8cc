import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections, type Detection } from '../../../src/domain/vulnerabilities/detection';
import { scubagear } from '../../../src/infrastructure/scans/vendors/scubagear';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith } from '../../support/adapters';
import { REFERENCE } from '../../support/run-svc';

const RESULTS = rawSample('scubagear', 'ScubaResults_fa5589b7-d528-4f80.json');
const TEST_RESULTS = rawSample('scubagear', 'TestResults.json');
const PROVENANCE = provenanceOf('scubagear');

describe('ScubaGear adapter on the real ScubaResults sample', () => {
  const summary = Object.values(JSON.parse(readFileSync(RESULTS, 'utf8').replace(/^\uFEFF/, '')).Summary as Record<string, Record<string, number>>).reduce(
    (sum, product) => Object.fromEntries(Object.keys(product).map((k) => [k, (sum[k] ?? 0) + product[k]])),
    {} as Record<string, number>,
  );

  it("reads every policy row with the outcomes the file's own Summary counts", async () => {
    const scan = await readWith(scubagear, RESULTS);
    expect(scan.checks).toHaveLength(92);
    expect(outcomes(scan.checks)).toEqual({ pass: summary.Passes, fail: summary.Failures + summary.Warnings, 'not-applicable': summary.Manual });
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'must')).toHaveLength(summary.Failures);
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'should')).toHaveLength(summary.Warnings);
    expect([summary.Passes, summary.Failures, summary.Warnings, summary.Manual]).toEqual([57, 14, 12, 9]);
  });

  it('keeps the tool, version, tenant and time, and maps every policy to NIST controls', async () => {
    const scan = await readWith(scubagear, RESULTS);
    expect(scan).toMatchObject({
      vendor: 'scubagear',
      tool: 'ScubaGear',
      version: '1.8.0',
      tenant: 'tqhjy.onmicrosoft.com',
      observed_at: '2026-05-04T17:15:48.307Z',
    });
    expect(scan.checks.filter((c) => c.controls.length === 0)).toEqual([]);
    expect(scan.checks.find((c) => c.id === 'MS.AAD.1.1v1')).toMatchObject({
      outcome: 'pass',
      criticality: 'must',
      controls: ['cm-7'],
      title: 'Legacy authentication SHALL be blocked.',
    });
  });

  it('gives each KSI the status its checks give it: a failed Shall fails, a failed Should warns', async () => {
    const { report, summary: s } = reportFromScan(await readWith(scubagear, RESULTS), PROVENANCE, '2026-11-21T00:00:00Z');
    expect(s.statuses).toEqual({ PASS: 11, WARN: 4, FAIL: 11 });
    expect(s.not_assessed).toEqual(['KSI-AC-19', 'KSI-AU-04', 'KSI-AU-11', 'KSI-SI-10']);
    const cm7 = report.results.find((r) => r.ksi_id === 'KSI-CM-07');
    expect(cm7?.checks?.find((c) => c.id === 'MS.AAD.1.1v1')).toMatchObject({ status: 'PASS' });
    const ac2 = report.results.find((r) => r.ksi_id === 'KSI-AC-02');
    expect(ac2).toMatchObject({ status: 'FAIL', source: 'ScubaGear 1.8.0' });
    expect(ac2?.checks?.filter((c) => c.status === 'FAIL').map((c) => c.id)).toEqual(['MS.AAD.7.4v1', 'MS.AAD.7.5v1', 'MS.AAD.7.7v1']);
  });
});

describe('ScubaGear adapter on the raw TestResults sample', () => {
  it('reads RequirementMet as pass or fail, and Not-Implemented policies as manual', async () => {
    const scan = await readWith(scubagear, TEST_RESULTS);
    expect(scan.checks).toHaveLength(93);
    expect(outcomes(scan.checks)).toEqual({ pass: 41 + 16, fail: 14 + 13, manual: 3 + 6 });
    expect(scan.version).toBeUndefined();
  });

  it('lists a policy the CISA mapping does not have as an unmapped check', async () => {
    const { summary } = reportFromScan(await readWith(scubagear, TEST_RESULTS), PROVENANCE, '2026-11-21T00:00:00Z');
    expect(summary.unmapped_checks).toEqual(['MS.POWERPLATFORM.2.3v1']);
  });
});

describe('ScubaGear adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const NOW = '2026-11-21T00:00:00Z';
  const detect = async (path: string) => detectionsOf(await readWith(scubagear, path), NOW, new PureJsHashing());
  const checkIds = (detections: Detection[]) => {
    const ids = detections.map((d) => d.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
    return ids;
  };

  it('makes one configuration detection per failed Shall and Should of ScubaResults, on the tenant', async () => {
    const detections = await detect(RESULTS);
    // Counted by hand with jq on the sample (after its byte-order mark): [.Results[][] | .Controls[] | select(.Result ==
    // "Fail" or .Result == "Warning")] | length = 26 (14 Fail, 12 Warning), 26 distinct Control IDs. Rows name no
    // resource: each is a gap of the tenant, MetaData.DomainName.
    expect(detections).toHaveLength(26);
    expect(detections.every((d) => d.kind === 'configuration' && d.resource === 'tqhjy.onmicrosoft.com')).toBe(true);
    expect(detections.filter((d) => d.scanner_severity === 'Shall')).toHaveLength(14);
    expect(detections.filter((d) => d.scanner_severity === 'Should')).toHaveLength(12);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'ScubaGear',
      finding_id: 'MS.AAD.3.1v1',
      resource: 'tqhjy.onmicrosoft.com',
      title: 'Phishing-resistant MFA SHALL be enforced for all users.',
      scanner_severity: 'Shall',
      detected_at: '2026-05-04T17:15:48.307Z', // MetaData.TimestampZulu
      kind: 'configuration',
    });
    expect((await detect(RESULTS)).map((d) => d.id)).toEqual(checkIds(detections));
  });

  it('makes one per unmet, tested policy of TestResults, on "ScubaGear scan" since the file names no tenant', async () => {
    const detections = await detect(TEST_RESULTS);
    // Counted by hand with jq on the sample: [.[] | select(.RequirementMet == false and (.Criticality | test("/(Not-Implemented|3rd
    // Party)$") | not))] | length = 27: the 26 policies of ScubaResults and MS.POWERPLATFORM.2.3v1, which ScubaResults leaves out.
    expect(detections).toHaveLength(27);
    expect(detections.every((d) => d.kind === 'configuration' && d.resource === 'ScubaGear scan' && d.detected_at === NOW)).toBe(true);
    expect(detections.find((d) => d.finding_id === 'MS.POWERPLATFORM.2.3v1')).toMatchObject({ title: 'MS.POWERPLATFORM.2.3v1', scanner_severity: 'Should' });
    expect((await detect(TEST_RESULTS)).map((d) => d.id)).toEqual(checkIds(detections));
  });
});

describe('the ScubaGear policy → NIST table', () => {
  it('is what scripts/build-scuba-map.js derives from the shared policy-nist-map.tsv', () => {
    const { derive } = require('../../../scripts/build-scuba-map.js') as { derive: (ref: string) => unknown };
    expect(derive(REFERENCE)).toEqual(JSON.parse(readFileSync(require.resolve('../../../src/infrastructure/scans/data/scubagear-nist.json'), 'utf8')));
  });
});
