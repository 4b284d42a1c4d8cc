import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svc } from '../support/run-svc';

const SAMPLE = 'fixtures/sample-baseline.json';
const SAMPLE_B = 'fixtures/sample-baseline-b.json';

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-cql-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('svc cql query', () => {
  it('answers the DESIGN examples as tables', () => {
    expect(svc(['cql', 'query', 'FROM results WHERE status != PASS AND area = IAM ORDER BY severity DESC LIMIT 10', '--input', SAMPLE])).toEqual({
      stdout: 'ksi_id  status  area  family  severity  owner\n------  ------  ----  ------  --------  -----\n(0 rows)\n',
      stderr: '',
      status: 0,
    });
    expect(svc(['cql', 'query', 'FROM actions WHERE sev IN (Critical, High) SELECT ksi_id, owner, sla', '--input', SAMPLE]).stdout).toBe(
      [
        'ksi_id     owner                         sla',
        '---------  ----------------------------  ---',
        'KSI-AC-02  identity-team@agency.example  7',
        'KSI-IA-02  identity-team@agency.example  7',
        '(2 rows)',
        '',
      ].join('\n'),
    );
    expect(svc(['cql', 'query', 'FROM results GROUP BY area COUNT', '--input', SAMPLE]).stdout).toBe(
      'area  count\n----  -----\nAC    1\nAU    1\nCNA   1\nIA    1\nSC    1\n(5 rows)\n',
    );
  });

  it('orders by meaning over several inputs, showing which input each row comes from', () => {
    expect(svc(['cql', 'query', 'FROM results WHERE status != PASS ORDER BY severity DESC LIMIT 10', '--input', SAMPLE, '--input', SAMPLE_B]).stdout).toBe(
      [
        'input                   ksi_id     status  area  family  severity  owner',
        '----------------------  ---------  ------  ----  ------  --------  ----------------------------',
        'sample-baseline.json    KSI-AC-02  FAIL    AC    AC      Critical  identity-team@agency.example',
        'sample-baseline.json    KSI-IA-02  FAIL    IA    IA      Critical  identity-team@agency.example',
        'sample-baseline-b.json  KSI-IA-02  FAIL    IA    IA      Critical  identity-team@agency.example',
        'sample-baseline.json    KSI-AU-02  WARN    AU    AU      Medium    secops-team@agency.example',
        'sample-baseline-b.json  KSI-AU-02  WARN    AU    AU      Medium    secops-team@agency.example',
        '(5 rows)',
        '',
      ].join('\n'),
    );
  });

  it('writes RFC 4180 CSV and returns the result object under --json', () => {
    expect(
      svc(['cql', 'query', 'FROM actions WHERE sev IN (Critical, High) SELECT ksi_id, owner, sla, controls', '--input', SAMPLE, '--format', 'csv']).stdout,
    ).toBe(
      'ksi_id,owner,sla,controls\r\n' +
        'KSI-AC-02,identity-team@agency.example,7,"ac-2, ac-2.1, ac-2.2, ac-2.3, ac-2.4, ac-2.5, ac-2.7, ac-2.9, ac-2.12, ac-2.13"\r\n' +
        'KSI-IA-02,identity-team@agency.example,7,"ia-2, ia-2.1, ia-2.2, ia-2.5, ia-2.6, ia-2.8, ia-2.12"\r\n',
    );
    const run = svc(['cql', 'query', 'FROM results GROUP BY area COUNT', '--input', SAMPLE, '--json']);
    expect([run.status, JSON.parse(run.stdout)]).toEqual([
      0,
      {
        source: 'results',
        from: [SAMPLE],
        columns: ['area', 'count'],
        rows: [
          ['AC', 1],
          ['AU', 1],
          ['CNA', 1],
          ['IA', 1],
          ['SC', 1],
        ],
      },
    ]);
  });

  // Security review, issue 15: CSV cells went out unguarded, so a title Excel would run as a formula did.
  it('writes CSV cells that a spreadsheet would evaluate as text, behind an apostrophe', () => {
    const report = JSON.parse(readFileSync(SAMPLE, 'utf8'));
    report.results[0].title = '=HYPERLINK("http://evil.example","click")';
    report.results[0].details = '-2+3';
    const input = join(home, 'formula.json');
    writeFileSync(input, JSON.stringify(report));
    expect(
      svc(['cql', 'query', `FROM results WHERE ksi_id = ${report.results[0].ksi_id} SELECT ksi_id, title, details`, '--input', input, '--format', 'csv']),
    ).toEqual({
      stdout: `ksi_id,title,details\r\n${report.results[0].ksi_id},"'=HYPERLINK(""http://evil.example"",""click"")",'-2+3\r\n`,
      stderr: '',
      status: 0,
    });
  });

  it('points at a syntax error with a caret and exits 2', () => {
    expect(svc(['cql', 'query', 'FROM results WHERE status = FAIL AND (area = IA', '--input', SAMPLE])).toEqual({
      stdout: '',
      stderr:
        "Error: line 1, column 48: expected ')', found end of query\n  FROM results WHERE status = FAIL AND (area = IA\n                                                 ^\n",
      status: 2,
    });
  });

  it('reads the run store: exit 3 while empty, then the latest run and FROM runs after svc conmon process', () => {
    const env = { SVC_HOME: home };
    expect(svc(['cql', 'query', 'FROM results'], { env })).toEqual({
      stdout: '',
      stderr: `Error: the run store at ${join(home, 'store')} holds no runs; pass --input <report> or record a run with svc conmon process\n`,
      status: 3,
    });
    expect(svc(['conmon', 'process', SAMPLE_B], { env }).status).toBe(0);
    expect(svc(['conmon', 'process', SAMPLE], { env }).status).toBe(0);
    expect(svc(['cql', 'query', 'FROM poam SELECT poam_id, status, risk_rating', '--now', '2026-11-20T00:00:00Z'], { env }).stdout).toBe(
      'poam_id         status  risk_rating\n--------------  ------  -----------\nPOAM-KSI-AC-02  Open    Critical\nPOAM-KSI-AU-02  Open    Moderate\nPOAM-KSI-IA-02  Open    Critical\n(3 rows)\n',
    );
    expect(svc(['cql', 'query', 'FROM runs ORDER BY seq DESC SELECT seq, as_of, input, fail, warn'], { env }).stdout).toBe(
      [
        'seq  as_of                 input                   fail  warn',
        '---  --------------------  ----------------------  ----  ----',
        '2    2026-11-02T14:05:00Z  sample-baseline.json    2     1',
        '1    2026-11-05T14:05:00Z  sample-baseline-b.json  1     1',
        '(2 rows)',
        '',
      ].join('\n'),
    );
  });
});
