import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from 'exceljs';
import { FIXTURES, svc, type SvcRun } from '../support/run-svc';
import { SAMPLE_DETECTIONS, trackingIdOf, vulnerabilityReport, writeVulnerabilityConfig } from '../support/vulnerabilities';

let work: string;
const at = (name: string) => join(work, name);
const run = (args: string[], cwd = work): SvcRun => svc(args, { cwd, env: { SVC_HOME: join(cwd, '.svc') } });
const json = (r: SvcRun) => JSON.parse(r.stdout);

const { API, DB, MFA } = SAMPLE_DETECTIONS;
const report = vulnerabilityReport;
const tracking = trackingIdOf;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-poam-vuln-'));
  mkdirSync(join(work, 'r'));
  writeVulnerabilityConfig(work);
  writeFileSync(at('r/1.json'), JSON.stringify(report('2026-12-07T00:00:00Z', [API, DB, MFA])));
  writeFileSync(at('r/2.json'), JSON.stringify(report('2026-12-10T00:00:00Z', [API, MFA])));
  for (const args of [
    ['conmon', 'process', 'r/1.json'],
    [
      'vuln',
      'evaluate',
      'CVE-2026-1000',
      '--mitigated',
      'partial',
      '--n',
      'N4',
      '--reason',
      'WAF rule',
      '--by',
      'ada@example.com',
      '--now',
      '2026-12-08T00:00:00Z',
    ],
    ['conmon', 'process', 'r/2.json'],
    [
      'vuln',
      'evaluate',
      'iam_root_mfa_enabled',
      '--accept',
      '--reason',
      'break-glass account in a vault',
      '--by',
      'ciso@example.com',
      '--now',
      '2026-12-10T02:00:00Z',
    ],
  ]) {
    const r = run(args);
    if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const NOW = '2026-12-10T23:00:00Z';
const export_ = (format: string, out: string, ...more: string[]) =>
  run(['ir', 'poam-export', '--source', 'vulnerabilities', '--format', format, '--out', out, '--now', NOW, ...more]);

describe('svc ir poam-export --source vulnerabilities (DESIGN §12.4, VER-AGM-MAP)', () => {
  let runId: string;

  it('writes one FedRAMP template row per group as CSV: open, accepted and remediated, from the latest recorded run', () => {
    const r = export_('csv', 'poam.csv');
    expect(r).toEqual({
      stdout:
        'Vulnerabilities of run 2 (as of 2026-12-10T00:00:00Z), Class D at 2026-12-10T23:00:00Z, CR26 2026.10.05.01\nPOA&M (csv) written to poam.csv\nRows: 3\nOverdue: 1\n',
      stderr: '',
      status: 0,
    });
    runId = json(export_('csv', 'poam.csv', '--json')).run.id;
    const text = readFileSync(at('poam.csv'), 'utf8');
    expect(text.startsWith('\uFEFFPOAM ID,Controls,Weakness Name,')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'POAM ID,Controls,Weakness Name,Weakness Description,Weakness Detector Source,Weakness Source Identifier,Asset Identifier,Point of Contact,Resources Required,Overall Remediation Plan,Original Detection Date,Scheduled Completion Date,Planned Milestones,Milestone Changes,Status Date,Vendor Dependency,Last Vendor Check-in Date,Vendor Dependent Product Name,Original Risk Rating,Adjusted Risk Rating,Risk Adjustment,False Positive,Operational Requirement,Deviation Rationale,Supporting Documents,Comments,Auto-Approve,Binding Operational Directive 22-01 tracking,Binding Operational Directive 22-01 Due Date,CVE,Service Name,Status',
    );
    // Open rows first, then closed ones, each in tracking id order (the template's two sheets).
    const [api, mfa, db] = [tracking('CVE-2026-1000'), tracking('iam_root_mfa_enabled'), tracking('CVE-2026-2000')];
    expect([api < mfa, lines.length]).toEqual([true, 5]);
    expect(lines.slice(1)).toEqual([
      `${api},RA-5,CVE-2026-1000 CVE-2026-1000 found,"A vulnerability detected by Trivy on 1 resource; scanner severity CRITICAL. Evaluated 2026-12-07T00:00:00Z: internet-reachable, likely exploitable, N4. N-rating reductions: N5 → N4 at 2026-12-08T00:00:00Z. In the CISA KEV catalog, due 2026-12-20. A FedRAMP reportable incident (VER-TFR-IRI). Overdue: N4 not mitigated or remediated by 2026-12-10T00:00:00Z (VDR-TFR-PVR).",Trivy,CVE-2026-1000,api.example.com,ada@example.com,,"Partially mitigated. Mitigate or remediate by 2026-12-10 (VDR-TFR-PVR, N4). Remediate by the CISA KEV due date 2026-12-20 (VDR-TFR-KEV).",2026-12-07,2026-12-10,"1. Evaluation: internet reachability, likely exploitability, N-rating (VER-TFR-EVU), done 2026-12-07 (due 2026-12-09)\n2. N4 mitigated or remediated (VDR-TFR-PVR) (due 2026-12-10)\n3. Remediated: CISA KEV due date (VDR-TFR-KEV) (due 2026-12-20)",,2026-12-08,No,,,High,High,No,No,No,,,Overdue since 2026-12-10,No,,,,,Open`,
      `${mfa},CM-6,iam_root_mfa_enabled iam_root_mfa_enabled found,"A failed configuration check detected by Prowler on 1 resource; scanner severity critical. Evaluated 2026-12-07T00:00:00Z: not internet-reachable, not likely exploitable, N5.",Prowler,iam_root_mfa_enabled,arn:aws:iam::1:root,ciso@example.com,,Risk accepted by decision on 2026-12-10: break-glass account in a vault.,2026-12-07,2026-12-15,"1. Evaluation: internet reachability, likely exploitability, N-rating (VER-TFR-EVU), done 2026-12-07 (due 2026-12-09)\n2. N5 mitigated or remediated (VDR-TFR-PVR) (due 2026-12-15)",,2026-12-10,No,,,Critical,Critical,No,No,No,,,Last reported FAIL by run ${runId.slice(0, 12)},No,,,,,Open`,
      `${db},RA-5,CVE-2026-2000 CVE-2026-2000 found,"A vulnerability detected by Trivy on 1 resource; scanner severity HIGH. Evaluated 2026-12-07T00:00:00Z: not internet-reachable, not likely exploitable, N4.",Trivy,CVE-2026-2000,db-1,,,Remediated: no longer detected from 2026-12-10T00:00:00Z.,2026-12-07,2027-01-08,"1. Evaluation: internet reachability, likely exploitability, N-rating (VER-TFR-EVU), done 2026-12-07 (due 2026-12-09)\n2. N4 mitigated or remediated (VDR-TFR-PVR) (due 2027-01-08)",,2026-12-10,No,,,High,High,No,No,No,,,Closed 2026-12-10: CVE-2026-2000 passed a new assessment,No,,,,,Closed`,
      '',
    ]);
  });

  it('prints the run, the class, the time and the written file under --json', () => {
    const r = export_('csv', 'poam-2.csv', '--json');
    expect(r.status).toBe(0);
    expect(json(r)).toEqual({
      source: 'vulnerabilities',
      run: { seq: 2, id: runId, as_of: '2026-12-10T00:00:00Z' },
      class: 'D',
      now: NOW,
      rules: '2026.10.05.01',
      format: 'csv',
      out: 'poam-2.csv',
      file: {
        name: 'poam-2.csv',
        sha256: `sha256:${createHash('sha256')
          .update(readFileSync(at('poam-2.csv')))
          .digest('hex')}`,
        bytes: readFileSync(at('poam-2.csv')).length,
      },
      rows: 3,
      overdue: 1,
    });
    expect(readFileSync(at('poam-2.csv')).equals(readFileSync(at('poam.csv')))).toBe(true);
  });

  it('writes the items as svc.vulnerability-poam/v1 JSON, judged at --now for --class', () => {
    const r = export_('json', 'poam.json');
    expect(r.stdout.split('\n').slice(1)).toEqual(['POA&M (json) written to poam.json', 'Rows: 3', 'Overdue: 1', '']);
    const doc = JSON.parse(readFileSync(at('poam.json'), 'utf8'));
    expect(Object.keys(doc)).toEqual(['class', 'now', 'rows', 'schema']);
    expect({ class: doc.class, now: doc.now, schema: doc.schema }).toEqual({ class: 'D', now: NOW, schema: 'svc.vulnerability-poam/v1' });
    const db = doc.rows.find((row: { ksi_id: string }) => row.ksi_id === 'CVE-2026-2000');
    expect(db).toEqual({
      asset_identifier: 'db-1',
      completion_date: '2026-12-10',
      controls: ['ra-5'],
      ksi_id: 'CVE-2026-2000',
      last_run: runId,
      last_status: 'PASS',
      milestones: [
        { description: 'Evaluation: internet reachability, likely exploitability, N-rating (VER-TFR-EVU), done 2026-12-07', due: '2026-12-09' },
        { description: 'N4 mitigated or remediated (VDR-TFR-PVR)', due: '2027-01-08' },
      ],
      original_detection_date: '2026-12-07',
      overdue: false,
      poam_id: tracking('CVE-2026-2000'),
      point_of_contact: '',
      remediation_plan: 'Remediated: no longer detected from 2026-12-10T00:00:00Z.',
      risk_rating: 'High',
      scheduled_completion_date: '2027-01-08',
      status: 'Closed',
      status_date: '2026-12-10',
      weakness_description:
        'A vulnerability detected by Trivy on 1 resource; scanner severity HIGH. Evaluated 2026-12-07T00:00:00Z: not internet-reachable, not likely exploitable, N4.',
      weakness_name: 'CVE-2026-2000 CVE-2026-2000 found',
      weakness_source: 'Trivy',
    });
    expect(doc.rows.map((row: { poam_id: string; status: string; overdue: boolean }) => [row.poam_id, row.status, row.overdue])).toEqual(
      [
        [tracking('CVE-2026-1000'), 'Open', true],
        [tracking('CVE-2026-2000'), 'Closed', false],
        [tracking('iam_root_mfa_enabled'), 'Open', false],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
    // Class A evaluates within 14 days and mitigates N4 later: at the same time nothing is overdue.
    const a = run(['ir', 'poam-export', '--source', 'vulnerabilities', '--format', 'json', '--out', 'poam-a.json', '--now', NOW, '--class', 'A']);
    expect(a.stdout.split('\n')[0]).toBe('Vulnerabilities of run 2 (as of 2026-12-10T00:00:00Z), Class A at 2026-12-10T23:00:00Z, CR26 2026.10.05.01');
    expect(a.stdout.split('\n').slice(2)).toEqual(['Rows: 3', 'Overdue: 0', '']);
  });

  it('writes the FedRAMP POA&M workbook: open and accepted items on the Open sheet, the remediated one on the Closed sheet', async () => {
    expect(export_('xlsx', 'poam.xlsx').stdout.split('\n').slice(1)).toEqual(['POA&M (xlsx) written to poam.xlsx', 'Rows: 3', 'Overdue: 1', '']);
    const workbook = new Workbook();
    await workbook.xlsx.readFile(at('poam.xlsx'));
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Open POA&M Items', 'Closed POA&M Items']);
    const open = workbook.getWorksheet('Open POA&M Items')!;
    const closed = workbook.getWorksheet('Closed POA&M Items')!;
    // The title block names the system as a run's POA&M does: the latest run's tenant, else its input's name.
    expect(open.getRow(2).getCell(2).value).toBe('2.json');
    expect(open.getRow(4).getCell(2).value).toEqual(new Date('2026-12-10T00:00:00Z'));
    expect([6, 7, 8].map((r) => open.getRow(r).getCell(1).value ?? null)).toEqual([tracking('CVE-2026-1000'), tracking('iam_root_mfa_enabled'), null]);
    expect((open.getRow(6).values as unknown[]).slice(1, 13)).toEqual([
      tracking('CVE-2026-1000'),
      'RA-5',
      'CVE-2026-1000 CVE-2026-1000 found',
      expect.stringMatching(
        /^A vulnerability detected by Trivy on 1 resource; .* Overdue: N4 not mitigated or remediated by 2026-12-10T00:00:00Z \(VDR-TFR-PVR\)\.$/,
      ),
      'Trivy',
      'CVE-2026-1000',
      'api.example.com',
      'ada@example.com',
      undefined,
      'Partially mitigated. Mitigate or remediate by 2026-12-10 (VDR-TFR-PVR, N4). Remediate by the CISA KEV due date 2026-12-20 (VDR-TFR-KEV).',
      new Date('2026-12-07T00:00:00Z'),
      new Date('2026-12-10T00:00:00Z'),
    ]);
    expect(open.getRow(7).getCell(10).value).toBe('Risk accepted by decision on 2026-12-10: break-glass account in a vault.');
    expect([
      closed.getRow(6).getCell(1).value,
      closed.getRow(6).getCell(15).value,
      closed.getRow(6).getCell(26).value,
      closed.getRow(7).getCell(1).value ?? null,
    ]).toEqual([tracking('CVE-2026-2000'), new Date('2026-12-10T00:00:00Z'), 'Closed 2026-12-10: CVE-2026-2000 passed a new assessment', null]);
  });

  it('leaves --source results as it was: the same bytes with and without the flag', () => {
    const sample = join(FIXTURES, 'sample-baseline.json');
    const plain = run(['ir', 'poam-export', sample, '--format', 'csv', '--out', 'results.csv']);
    const flagged = run(['ir', 'poam-export', sample, '--source', 'results', '--format', 'csv', '--out', 'results-2.csv']);
    expect(plain).toEqual({ stdout: 'POA&M (csv) written to results.csv\nRows: 3\nOverdue: 0\n', stderr: '', status: 0 });
    expect(flagged).toEqual({ stdout: 'POA&M (csv) written to results-2.csv\nRows: 3\nOverdue: 0\n', stderr: '', status: 0 });
    expect(readFileSync(at('results-2.csv')).equals(readFileSync(at('results.csv')))).toBe(true);
  });

  it.each([
    [
      ['r/1.json', '--source', 'vulnerabilities', '--format', 'csv'],
      "Error: --source vulnerabilities reads the run store's vulnerability register and takes no input (got r/1.json)\n",
    ],
    [['--source', 'vulnerabilities', '--format', 'oscal'], 'Error: --format oscal: not with --source vulnerabilities; write json, csv, xlsx\n'],
    [['--format', 'csv'], 'Error: give the run: a normalized report, evidence-bundle.json or an auditor bundle directory (or --source vulnerabilities)\n'],
    [
      ['--source', 'results', '--format', 'csv'],
      'Error: give the run: a normalized report, evidence-bundle.json or an auditor bundle directory (or --source vulnerabilities)\n',
    ],
    [['r/1.json', '--format', 'csv', '--now', NOW], "Error: --now goes with --source vulnerabilities; a run's POA&M is judged at the run's date\n"],
    [['r/1.json', '--format', 'csv', '--class', 'B'], "Error: --class goes with --source vulnerabilities; a run's POA&M is judged at the run's date\n"],
    [['--source', 'vulnerabilities', '--format', 'csv', '--class', 'E'], 'Error: --class E: not a Certification Class; write A, B, C or D\n'],
    [
      ['--source', 'vulnerabilities', '--format', 'csv', '--now', 'yesterday'],
      'Error: --now yesterday: expected an ISO-8601 time such as 2026-11-21T09:00:00Z or a date such as 2026-11-21\n',
    ],
  ])('refuses %j (exit 2) and writes nothing', (args, message) => {
    const r = run(['ir', 'poam-export', ...args, '--out', 'refused.out']);
    expect(r).toEqual({ stdout: '', stderr: message, status: 2 });
    expect(existsSync(at('refused.out'))).toBe(false);
  });

  it('refuses an unknown --source (exit 2), and needs a class from --class or the profile (exit 3)', () => {
    const bad = run(['ir', 'poam-export', '--source', 'scans', '--format', 'csv', '--out', 'refused.out']);
    expect([bad.status, bad.stdout, bad.stderr.split('\n')[0]]).toEqual([2, '', 'Error: Expected --source=scans to be one of: results, vulnerabilities']);
    const bare = mkdtempSync(join(tmpdir(), 'svc-poam-vuln-bare-'));
    try {
      const r = run(['ir', 'poam-export', '--source', 'vulnerabilities', '--format', 'csv', '--out', 'x.csv'], bare);
      expect(r).toEqual({
        stdout: '',
        stderr:
          'Error: svc.config.json: fedramp.class: missing; svc ir poam-export --source vulnerabilities needs it: write A, B, C or D, or pass --class; see docs/configuration.md\n',
        status: 3,
      });
      const none = run(
        ['ir', 'poam-export', '--source', 'vulnerabilities', '--format', 'json', '--out', 'x.json', '--class', 'B', '--now', '2026-12-01'],
        bare,
      );
      expect(none).toEqual({
        stdout: 'No run recorded: no vulnerability groups (Class B at 2026-12-01T00:00:00Z)\nPOA&M (json) written to x.json\nRows: 0\nOverdue: 0\n',
        stderr: '',
        status: 0,
      });
      expect(readFileSync(join(bare, 'x.json'), 'utf8')).toBe('{"class":"B","now":"2026-12-01T00:00:00Z","rows":[],"schema":"svc.vulnerability-poam/v1"}');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
