import { checkStatus, detectionsOf, ksiStatus, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { evaluateCheckRows } from '../../../src/domain/scan/evaluate-checks';
import type { ScanCheck, VendorScan } from '../../../src/domain/scan/scan';
import { readNormalizedReport } from '../../../src/domain/ksi/ksi-result';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const c = (outcome: ScanCheck['outcome'], criticality: ScanCheck['criticality'] = 'must') => ({ outcome, criticality });

describe('ksiStatus: a KSI from its checks', () => {
  it.each([
    [[c('pass'), c('pass', 'should')], 'PASS'],
    [[c('pass'), c('fail')], 'FAIL'],
    [[c('fail', 'should'), c('pass')], 'WARN'],
    [[c('fail', 'should'), c('fail')], 'FAIL'],
    [[c('error'), c('pass')], 'WARN'],
    [[c('pass'), c('not-applicable'), c('manual')], 'PASS'],
    [[c('not-applicable'), c('manual'), c('omitted'), c('incorrect')], undefined],
    [[], undefined],
  ] as const)('%j → %s', (checks, status) => expect(ksiStatus(checks)).toBe(status));

  it('writes failed must-checks FAIL, failed should-checks WARN, others by outcome', () => {
    expect([c('fail'), c('fail', 'should'), c('not-applicable'), c('pass')].map(checkStatus)).toEqual(['FAIL', 'WARN', 'NOT_APPLICABLE', 'PASS']);
  });
});

describe('reportFromScan', () => {
  const scan: VendorScan = {
    vendor: 'demo',
    tool: 'Demo',
    detections: 'configuration',
    version: '2.0',
    tenant: 'acme',
    observed_at: '2026-11-01T10:00:00Z',
    mapping: 'test table',
    checks: [
      { id: 'R1', outcome: 'fail', criticality: 'must', controls: ['AC-2(1)', 'ia-2'], details: 'bad' },
      { id: 'R2', outcome: 'pass', criticality: 'must', controls: ['ac-2'] },
      { id: 'R3', outcome: 'fail', criticality: 'should', controls: ['au-2'] },
      { id: 'R4', outcome: 'not-applicable', criticality: 'must', controls: ['sc-7'] },
      { id: 'R5', outcome: 'pass', criticality: 'must', controls: [] },
      { id: 'R6', outcome: 'error', criticality: 'must', controls: ['si-2.2'] },
    ],
  };
  const provenance = { raw_file: 'scan.json', raw_sha256: 'sha256:ab', adapter: 'svc-adapter-demo', adapter_version: '0.5.0' };
  const { report, summary } = reportFromScan(scan, provenance, '2026-11-20T00:00:00Z');

  it('sends each check to the KSI of each control it evidences, base control first', () => {
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AC-02', 'FAIL'],
      ['KSI-AU-02', 'WARN'],
      ['KSI-IA-02', 'FAIL'],
      ['KSI-SI-02', 'WARN'],
    ]);
    expect(report.results[0].checks).toEqual([
      { id: 'R1', status: 'FAIL', details: 'bad' },
      { id: 'R2', status: 'PASS' },
    ]);
    expect(report.results[0]).toMatchObject({
      observed_at: '2026-11-01T10:00:00Z',
      source: 'Demo 2.0',
      details: '1 of 2 checks passed; 1 failed or errored (R1).',
    });
  });

  it('counts every check, lists the unmapped ones and the KSIs nothing assessed', () => {
    expect(summary).toEqual({
      checks: 6,
      outcomes: { pass: 2, fail: 2, error: 1, manual: 0, 'not-applicable': 1, omitted: 0, incorrect: 0 },
      ksis: 4,
      statuses: { PASS: 0, WARN: 2, FAIL: 2 },
      unmapped_checks: ['R5'],
      not_assessed: ['KSI-SC-07'],
    });
  });

  it('writes a normalized report with its provenance that the transform accepts', () => {
    expect(report.source).toEqual({
      tool: 'Demo',
      version: '2.0',
      tenant: 'acme',
      mapping: 'test table',
      raw_file: 'scan.json',
      raw_sha256: 'sha256:ab',
      adapter: 'svc-adapter-demo',
      adapter_version: '0.5.0',
    });
    expect(readNormalizedReport(JSON.parse(JSON.stringify(report)), 'r.json').results).toHaveLength(4);
  });

  it('leaves out an observed time that is not ISO-8601', () => {
    expect(reportFromScan({ ...scan, observed_at: 'last Tuesday' }, provenance, '2026-11-20T00:00:00Z').report.results[0].observed_at).toBeUndefined();
  });
});

describe('evaluateCheckRows (svc ksi evaluate)', () => {
  it('applies the same rules to rows of a tool without an adapter', () => {
    const rows = [
      { ksi_id: 'KSI-AC-02', check_id: 'a', status: 'pass', criticality: 'must' },
      { ksi_id: 'KSI-AC-02', check_id: 'b', status: 'fail', criticality: 'should', details: 'weak' },
      { ksi_id: 'KSI-IA-02', check_id: 'c', status: 'fail', criticality: 'must' },
      { ksi_id: 'KSI-SC-07', check_id: 'd', status: 'manual', criticality: 'must' },
      { ksi_id: 'KSI-AU-02', check_id: 'e', status: 'error', criticality: 'should' },
    ];
    const result = evaluateCheckRows(rows, 'c.json');
    expect(result.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AC-02', 'WARN'],
      ['KSI-AU-02', 'WARN'],
      ['KSI-IA-02', 'FAIL'],
    ]);
    expect(result.not_assessed).toEqual(['KSI-SC-07']);
    expect(result.statuses).toEqual({ PASS: 0, WARN: 2, FAIL: 1 });
    expect(result.results[0].checks).toEqual([
      { id: 'a', status: 'PASS' },
      { id: 'b', status: 'WARN', details: 'weak' },
    ]);
  });

  it.each<[string, unknown, string]>([
    ['not a list', {}, 'c.json: $: expected an array of check rows, got an object'],
    ['a bad KSI id', [{ ksi_id: 'AC-2', check_id: 'a', status: 'pass', criticality: 'must' }], 'c.json: [0].ksi_id: "AC-2" is not a KSI id'],
    [
      'a bad status',
      [{ ksi_id: 'KSI-AC-02', check_id: 'a', status: 'PASS', criticality: 'must' }],
      'c.json: [0].status: "PASS" is not a check status; use pass, fail, error or manual',
    ],
    [
      'a bad criticality',
      [{ ksi_id: 'KSI-AC-02', check_id: 'a', status: 'pass', criticality: 'shall' }],
      'c.json: [0].criticality: "shall" is not a criticality; use must or should',
    ],
    ['no check id', [{ ksi_id: 'KSI-AC-02', status: 'pass', criticality: 'must' }], 'c.json: [0].check_id: expected a non-empty string, got nothing'],
  ])('refuses %s', (_what, doc, message) => expect(() => evaluateCheckRows(doc, 'c.json')).toThrow(message));
});

describe('detectionsOf', () => {
  const hashing = new PureJsHashing();
  const GENERATED = '2026-11-20T00:00:00Z';
  const check = (id: string, more: Partial<ScanCheck> = {}): ScanCheck => ({
    id,
    outcome: 'fail',
    criticality: 'must',
    controls: [],
    resource: 'host-1',
    ...more,
  });
  const scanOf = (checks: ScanCheck[], more: Partial<VendorScan> = {}): VendorScan => ({
    vendor: 'demo',
    tool: 'Demo',
    mapping: 'test table',
    detections: 'vulnerability',
    checks,
    ...more,
  });
  const detect = (checks: ScanCheck[], more: Partial<VendorScan> = {}) => detectionsOf(scanOf(checks, more), GENERATED, hashing);

  it('makes a detection of each failed check only, in the order of the scan', () => {
    const outcomes = ['pass', 'fail', 'error', 'manual', 'not-applicable', 'omitted', 'incorrect'] as const;
    const detections = detect([...outcomes.map((o) => check(`R-${o}`, { outcome: o })), check('R-fail-2')]);
    expect(detections.map((d) => d.finding_id)).toEqual(['R-fail', 'R-fail-2']);
  });

  it('writes a detection field by field, with an id from source, finding and resource', () => {
    const [detection] = detect([
      check('CVE-2024-3094', { title: 'xz backdoor', severity: 'CRITICAL', resource: 'app: xz-libs', weakness: { cvss: 10, fix_available: true } }),
    ]);
    expect(detection).toEqual({
      id: `VULN-${hashing.sha256('Demo\nCVE-2024-3094\napp: xz-libs').slice(0, 20)}`,
      source: 'Demo',
      finding_id: 'CVE-2024-3094',
      resource: 'app: xz-libs',
      title: 'xz backdoor',
      scanner_severity: 'CRITICAL',
      cvss: 10,
      detected_at: GENERATED,
      fix_available: true,
    });
    expect(detect([check('CVE-2024-3094', { resource: 'app: xz-libs' })])[0].id).toBe(detection.id);
    expect(readDetections(detect([check('a'), check('b', { weakness: { kind: 'configuration', cvss: 0, fix_available: false } })]), 'x')).toHaveLength(2);
  });

  it('keeps a CVSS score of 0 and a fix_available of false, and leaves out what the scanner did not say', () => {
    const [said, unsaid] = detect([check('a', { weakness: { cvss: 0, fix_available: false } }), check('b')]);
    expect(said).toMatchObject({ cvss: 0, fix_available: false });
    expect(Object.keys(unsaid).sort()).toEqual(['detected_at', 'finding_id', 'id', 'resource', 'scanner_severity', 'source', 'title']);
  });

  it("takes the vendor's kind, which a check's weakness.kind overrides; vulnerability is written by leaving kind out", () => {
    const checks = [check('a'), check('b', { weakness: { kind: 'configuration' } }), check('c', { weakness: { kind: 'vulnerability' } })];
    expect(detect(checks).map((d) => d.kind)).toEqual([undefined, 'configuration', undefined]);
    expect(detect(checks, { detections: 'configuration' }).map((d) => d.kind)).toEqual(['configuration', 'configuration', undefined]);
  });

  it('finds the resource in the check, else the tenant, else names the scan; empty text falls back', () => {
    const checks = [check('a'), check('b', { resource: undefined }), check('c', { resource: '' }), check('d', { resource: '  ' })];
    expect(detect(checks, { tenant: 'acme.onmicrosoft.com' }).map((d) => d.resource)).toEqual([
      'host-1',
      'acme.onmicrosoft.com',
      'acme.onmicrosoft.com',
      'acme.onmicrosoft.com',
    ]);
    expect(detect(checks).map((d) => d.resource)).toEqual(['host-1', 'Demo scan', 'Demo scan', 'Demo scan']);
    expect(detect(checks, { tenant: ' ' }).map((d) => d.resource)).toEqual(['host-1', 'Demo scan', 'Demo scan', 'Demo scan']);
  });

  it('titles a check without a title by its id, and rates it by its criticality when it has no severity', () => {
    const detections = detect([
      check('a', { title: '', severity: ' ' }),
      check('b', { criticality: 'should' }),
      check('c', { title: 'Named', severity: 'High' }),
    ]);
    expect(detections.map((d) => [d.title, d.scanner_severity])).toEqual([
      ['a', 'must'],
      ['b', 'should'],
      ['Named', 'High'],
    ]);
  });

  it('keeps the first of two failed checks with the same finding on the same resource', () => {
    const detections = detect(
      [
        check('a', { title: 'first' }),
        check('a', { title: 'second' }),
        check('a', { resource: 'host-2' }),
        check('b', { resource: undefined }),
        check('b', { resource: '' }),
      ],
      { tenant: 'acme' },
    );
    expect(detections.map((d) => [d.finding_id, d.resource, d.title])).toEqual([
      ['a', 'host-1', 'first'],
      ['a', 'host-2', 'a'],
      ['b', 'acme', 'b'],
    ]);
    expect(new Set(detections.map((d) => d.id)).size).toBe(3);
  });

  it("dates a detection by the check's own time, else the scan's, else the report's; a time that is not ISO-8601 does not count", () => {
    const checks = [check('a', { weakness: { detected_at: '2026-10-01T08:00:00Z' } }), check('b'), check('c', { weakness: { detected_at: 'last week' } })];
    expect(detect(checks, { observed_at: '2026-11-01T10:00:00Z' }).map((d) => d.detected_at)).toEqual([
      '2026-10-01T08:00:00Z',
      '2026-11-01T10:00:00Z',
      '2026-11-01T10:00:00Z',
    ]);
    expect(detect(checks).map((d) => d.detected_at)).toEqual(['2026-10-01T08:00:00Z', GENERATED, GENERATED]);
    expect(detect(checks, { observed_at: 'Tuesday' }).map((d) => d.detected_at)).toEqual(['2026-10-01T08:00:00Z', GENERATED, GENERATED]);
  });

  it('makes none of a scan without failures', () => {
    expect(detect([])).toEqual([]);
    expect(detect([check('a', { outcome: 'pass' })])).toEqual([]);
  });
});
