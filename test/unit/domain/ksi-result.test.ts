import { readNormalizedReport } from '../../../src/domain/ksi/ksi-result';

const read = (doc: unknown) => readNormalizedReport(doc, 'r.json');

describe('readNormalizedReport', () => {
  it('accepts a bare array and the object form, keeping unknown fields', () => {
    const results = [{ ksi_id: 'KSI-AC-02', status: 'PASS', extra: { a: 1 } }];
    expect(read(results).results).toBe(results);
    const doc = { schema_version: '1', generated_at: '2026-11-01T08:00:00Z', source: { tool: 'ScubaGear', version: '1.5.1' }, results };
    expect(read(doc)).toBe(doc);
    expect(read(doc).results[0].extra).toEqual({ a: 1 });
  });

  it('accepts an empty list', () => {
    expect(read([]).results).toEqual([]);
    expect(read({ results: [] }).results).toEqual([]);
  });

  it('accepts official FedRAMP numeric and mnemonic ids (DESIGN §3) and, when told, the ids of a release', () => {
    expect(read([{ ksi_id: 'KSI-IAM-01', status: 'PASS' }]).results).toHaveLength(1);
    expect(
      read([
        { ksi_id: 'KSI-IAM-APM', status: 'PASS' },
        { ksi_id: 'KSI-IAM-MFA', status: 'FAIL' },
      ]).results.map((r) => r.ksi_id),
    ).toEqual(['KSI-IAM-APM', 'KSI-IAM-MFA']);
    expect(() => read([{ ksi_id: 'KSI-IAM-APMX', status: 'PASS' }])).toThrow(/"KSI-IAM-APMX" is not a KSI id/);
    expect(() => read([{ ksi_id: 'KSI-IAM-apm', status: 'PASS' }])).toThrow(/"KSI-IAM-apm" is not a KSI id/);
    expect(readNormalizedReport([{ ksi_id: 'KSI-X-1', status: 'PASS' }], 'r.json', { acceptsId: (id) => id === 'KSI-X-1' }).results).toHaveLength(1);
  });

  it.each<[string, unknown, string]>([
    [
      'a wrong status spelling',
      [{ ksi_id: 'KSI-AC-02', status: 'Pass' }],
      'r.json: [0].status: "Pass" is not a status; use exactly PASS, WARN or FAIL (upper case)',
    ],
    ['a missing status', { results: [{ ksi_id: 'KSI-AC-02' }] }, 'r.json: results[0].status: missing; every result needs a status: PASS, WARN or FAIL'],
    [
      'a missing ksi_id',
      { results: [{ ksi_id: 'KSI-AC-02', status: 'PASS' }, { status: 'PASS' }] },
      'r.json: results[1].ksi_id: missing; every result needs a ksi_id such as "KSI-AC-02"',
    ],
    [
      'a one-digit ksi_id',
      [{ ksi_id: 'KSI-AC-2', status: 'PASS' }],
      'r.json: [0].ksi_id: "KSI-AC-2" is not a KSI id; write KSI-<AREA>-<NN> with 2-4 upper-case letters and two digits, e.g. "KSI-AC-02", or a FedRAMP mnemonic id such as "KSI-IAM-APM"',
    ],
    ['a lower-case ksi_id', [{ ksi_id: 'ksi-ac-02', status: 'PASS' }], 'r.json: [0].ksi_id: "ksi-ac-02" is not a KSI id'],
    ['a numeric ksi_id', [{ ksi_id: 42, status: 'PASS' }], 'r.json: [0].ksi_id: number 42 is not a KSI id'],
    [
      'a duplicate ksi_id',
      {
        results: [
          { ksi_id: 'KSI-AC-02', status: 'PASS' },
          { ksi_id: 'KSI-AU-02', status: 'PASS' },
          { ksi_id: 'KSI-AC-02', status: 'FAIL' },
        ],
      },
      'r.json: results[2].ksi_id: duplicate "KSI-AC-02" (first at results[0]); keep one result per KSI, or merge several reports with "svc evidence build"',
    ],
    ['a result that is not an object', [['KSI-AC-02', 'PASS']], 'r.json: [0]: expected a KSI result object, got an array'],
    ['a report that is neither', 'hello', 'r.json: $: expected an array of KSI results or an object with "results", got "hello"'],
    ['an object without results', { ksis: [] }, 'r.json: results: missing; a report object needs "results": [ ... ] (docs/report-format.md)'],
    ['results that are not a list', { results: {} }, 'r.json: results: expected an array, got an object; write "results": [ ... ]'],
    ['an unknown schema version', { schema_version: '2', results: [] }, 'r.json: schema_version: "2" is not supported; this svc reads schema_version "1"'],
    [
      'an impossible generated_at',
      { generated_at: '2026-02-30T00:00:00Z', results: [] },
      'r.json: generated_at: "2026-02-30T00:00:00Z" is not an ISO-8601 time',
    ],
    [
      'an observed_at that is no time',
      [{ ksi_id: 'KSI-AC-02', status: 'PASS', observed_at: 'yesterday' }],
      'r.json: [0].observed_at: "yesterday" is not an ISO-8601 time',
    ],
    [
      'an evidence_kind that is neither machine nor non-machine',
      [{ ksi_id: 'KSI-AC-02', status: 'PASS', evidence_kind: 'paper' }],
      'r.json: [0].evidence_kind: "paper" is not an evidence kind; write "machine" or "non-machine" (policies, procedures, training records), or leave it out for machine-based evidence',
    ],
    ['a numeric title', [{ ksi_id: 'KSI-AC-02', status: 'PASS', title: 7 }], 'r.json: [0].title: expected a string, got number 7'],
    [
      'evidence that is not an object',
      [{ ksi_id: 'KSI-AC-02', status: 'PASS', evidence: 'x' }],
      'r.json: [0].evidence: expected an object, got "x"; wrap the raw evidence in an object',
    ],
    [
      'a check without id',
      [{ ksi_id: 'KSI-AC-02', status: 'PASS', checks: [{ status: 'PASS' }] }],
      'r.json: [0].checks[0].id: expected a non-empty string, got nothing',
    ],
    [
      'a field svc computes',
      [{ ksi_id: 'KSI-AC-02', status: 'PASS', content_hash: 'x' }],
      'r.json: [0].content_hash: is computed by svc; remove "content_hash" from the input result',
    ],
    ['a source that is not an object', { source: 'scuba', results: [] }, 'r.json: source: expected an object, got "scuba"'],
  ])('refuses %s with the file, the JSON path and the fix', (_what, doc, message) => {
    expect(() => read(doc)).toThrow(message);
    try {
      read(doc);
    } catch (error) {
      expect(error).toMatchObject({ kind: 'invalid-input', code: 'invalid-report' });
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('finds a duplicate in an unsorted report as well as in a sorted one', () => {
    const unsorted = [
      { ksi_id: 'KSI-SC-08', status: 'PASS' },
      { ksi_id: 'KSI-AC-02', status: 'PASS' },
      { ksi_id: 'KSI-SC-08', status: 'PASS' },
    ];
    expect(() => read(unsorted)).toThrow('[2].ksi_id: duplicate "KSI-SC-08" (first at [0])');
  });

  it('accepts evidence_kind machine and non-machine, and keeps it in the result', () => {
    const results = read([
      { ksi_id: 'KSI-AC-02', status: 'PASS', evidence_kind: 'machine' },
      { ksi_id: 'KSI-AT-02', status: 'PASS', evidence_kind: 'non-machine' },
    ]).results;
    expect(results.map((r) => r.evidence_kind)).toEqual(['machine', 'non-machine']);
  });

  it('accepts leap days only in leap years and times with offsets', () => {
    expect(read([{ ksi_id: 'KSI-AC-02', status: 'PASS', observed_at: '2028-02-29T23:59:59.5+05:30' }]).results).toHaveLength(1);
    expect(() => read([{ ksi_id: 'KSI-AC-02', status: 'PASS', observed_at: '2026-02-29' }])).toThrow(/not an ISO-8601 time/);
  });
});
