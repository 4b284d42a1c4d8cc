import { checkStatus, ksiStatus, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { evaluateCheckRows } from '../../../src/domain/scan/evaluate-checks';
import type { ScanCheck, VendorScan } from '../../../src/domain/scan/scan';
import { readNormalizedReport } from '../../../src/domain/ksi/ksi-result';

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
    expect(report.results[0]).toMatchObject({ observed_at: '2026-11-01T10:00:00Z', source: 'Demo 2.0', details: '1 of 2 checks passed; 1 failed or errored (R1).' });
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
    expect(report.source).toEqual({ tool: 'Demo', version: '2.0', tenant: 'acme', mapping: 'test table', raw_file: 'scan.json', raw_sha256: 'sha256:ab', adapter: 'svc-adapter-demo', adapter_version: '0.5.0' });
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
    ['a bad status', [{ ksi_id: 'KSI-AC-02', check_id: 'a', status: 'PASS', criticality: 'must' }], 'c.json: [0].status: "PASS" is not a check status; use pass, fail, error or manual'],
    ['a bad criticality', [{ ksi_id: 'KSI-AC-02', check_id: 'a', status: 'pass', criticality: 'shall' }], 'c.json: [0].criticality: "shall" is not a criticality; use must or should'],
    ['no check id', [{ ksi_id: 'KSI-AC-02', status: 'pass', criticality: 'must' }], 'c.json: [0].check_id: expected a non-empty string, got nothing'],
  ])('refuses %s', (_what, doc, message) => expect(() => evaluateCheckRows(doc, 'c.json')).toThrow(message));
});
