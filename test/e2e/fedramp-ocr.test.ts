import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fedrampSchemaErrors, FEDRAMP_SCHEMAS } from '../support/fedramp-schemas';
import { svc, type SvcRun } from '../support/run-svc';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { detection } from '../support/vulnerabilities';

const PROFILE = {
  ...PACKAGE_PROFILE,
  planned_changes: ['Move the audit log store to a second region'],
  recommendations: ['Enable phishing-resistant MFA for agency administrators'],
};
const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
const at = (...parts: string[]) => join(work, ...parts);
const run = (args: string[]): SvcRun => svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc') } });
const read = (...parts: string[]) => JSON.parse(readFileSync(at(...parts), 'utf8'));

/** A Prowler run of one KSI on `day`; a FAIL also detects the failed check as a configuration vulnerability. */
const report = (day: string, status: 'PASS' | 'FAIL') => ({
  schema_version: '1',
  generated_at: `${day}T08:00:00Z`,
  source: { tool: 'Prowler', version: '5.0.0' },
  results: [{ ksi_id: 'KSI-IAM-APM', status, observed_at: `${day}T08:00:00Z`, checks: [{ id: 'iam_root_mfa_enabled', status }] }],
  vulnerabilities: status === 'FAIL' ? [detection('Prowler', 'iam_root_mfa_enabled', 'arn:aws:iam::1:root', 'high', `${day}T08:00:00Z`, 'configuration')] : [],
});

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-fedramp-ocr-'));
  writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
  writeFileSync(at('october.json'), JSON.stringify(report('2026-10-01', 'PASS')));
  writeFileSync(at('november.json'), JSON.stringify(report('2026-11-02', 'FAIL')));
  for (const args of [
    ['conmon', 'process', 'october.json'],
    ['conmon', 'process', 'november.json'],
    ['vuln', 'evaluate', 'iam_root_mfa_enabled', '--accept', '--reason', 'break-glass account in a vault', '--by', 'ciso', '--now', '2026-11-03T00:00:00Z'],
  ]) {
    const r = run(args);
    if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('svc fedramp ocr (CCM-OCR-AVL)', () => {
  it('before any OCR, the CPO targets the first 3 months after its date (CCM-OCR-NRD)', () => {
    expect(run(['fedramp', 'cpo', '--now', '2026-12-01T00:00:00Z']).status).toBe(0);
    expect(read('cpo.json').serviceProperties.nextOngoingCertificationReportDate).toBe('2027-03-01');
  });

  it('writes a draft without recording it', () => {
    const r = run(['fedramp', 'ocr', '--to', '2026-11-30', '--now', '2026-12-01T00:00:00Z', '--draft', '--out', 'draft/ocr.json']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')[4]).toBe('Draft: not recorded; the next report date stays as it was');
    expect(readFileSync(at('draft', 'ocr.md'), 'utf8').split('\n')[0]).toBe('# Ongoing Certification Report (DRAFT)');
    expect(run(['fedramp', 'cpo', '--now', '2026-12-01T00:00:00Z']).status).toBe(0);
    expect(read('cpo.json').serviceProperties.nextOngoingCertificationReportDate).toBe('2027-03-01');
  });

  let ocr: Record<string, unknown>;
  it('writes the OCR of the 3 months ending --to from the run store and the profile, records it, and says so', () => {
    const r = run(['fedramp', 'ocr', '--to', '2026-11-30', '--now', '2026-12-01T00:00:00Z']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')).toEqual([
      expect.stringMatching(/^OCR written to ocr-2026-11-30\.json \(sha256:[0-9a-f]{64}\)$/),
      'Markdown twin written to ocr-2026-11-30.md',
      'Period: 2026-08-31 to 2026-11-30',
      'Certification data changes 1; planned changes 1; transformative changes 0; reportable incidents 0 (attests none occurred); accepted vulnerabilities 1',
      'Recorded as journal entry 2: the next report is due 2027-02-28 (CCM-OCR-NRD, in the CPO from now on)',
      `Validated against FedRAMP's schemas in ${FEDRAMP_SCHEMAS}`,
      '',
    ]);
    ocr = read('ocr-2026-11-30.json');
    expect(fedrampSchemaErrors('ocr', ocr)).toEqual([]);
    expect(ocr).toEqual({
      certificationPackageOverviewUri: PROFILE.package_uri,
      reportPeriod: { from: '2026-08-31', to: '2026-11-30' },
      certificationDataChanges: ['KSI-IAM-APM: Implemented → Not Implemented on 2026-11-02'],
      plannedCertificationDataChanges: { planningHorizonThrough: '2027-02-28', changes: ['Move the audit log store to a second region'] },
      acceptedVulnerabilities:
        '1 accepted vulnerability (N4: 1); full records in the Accepted Vulnerability Info (VER-RPT-AVI) at https://trust.example.com/fedramp/avi.json.',
      transformativeChanges: [],
      updatedRecommendations: ['Enable phishing-resistant MFA for agency administrators'],
      activeAgencies: ['Department of Examples'],
      reportableIncidents: { incidents: [] },
    });
    expect(readFileSync(at('ocr-2026-11-30.md'), 'utf8')).toBe(
      [
        '# Ongoing Certification Report',
        '',
        '- FedRAMP ID: FR2611250001',
        '- Certification Package Overview: https://trust.example.com/fedramp/cpo.json',
        '- Rules: FedRAMP Consolidated Rules 2026.10.05.01',
        `- Generated: 2026-12-01T00:00:00Z by svc ${VERSION}`,
        '- Machine-readable twin: ocr-2026-11-30.json (written from the same model)',
        '',
        '- Period: 2026-08-31 to 2026-11-30',
        '- Planning horizon through: 2027-02-28',
        '- Active agencies: Department of Examples',
        '- Accepted vulnerabilities: 1 accepted vulnerability (N4: 1); full records in the Accepted Vulnerability Info (VER-RPT-AVI) at https://trust.example.com/fedramp/avi.json.',
        '',
        '## Certification data changes',
        '',
        '- KSI-IAM-APM: Implemented → Not Implemented on 2026-11-02',
        '',
        '## Planned changes',
        '',
        '- Move the audit log store to a second region',
        '',
        '## Transformative changes',
        '',
        'None in the period.',
        '',
        '## Updated recommendations',
        '',
        '- Enable phishing-resistant MFA for agency administrators',
        '',
        '## Reportable incidents',
        '',
        'None occurred in the period.',
        '',
      ].join('\n'),
    );
  });

  it('puts the next report date into the CPO from then on (CCM-OCR-NRD)', () => {
    expect(run(['fedramp', 'cpo', '--now', '2026-12-02T00:00:00Z']).status).toBe(0);
    expect(read('cpo.json').serviceProperties.nextOngoingCertificationReportDate).toBe('2027-02-28');
  });

  it('replaces the sample OCR in the certification package with the recorded one', () => {
    const r = run(['fedramp', 'package', 'november.json', '--out-dir', 'pkg', '--now', '2026-12-02T00:00:00Z']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('ocr-sample');
    expect(existsSync(at('pkg', 'ocr-sample.json'))).toBe(false);
    expect(read('pkg', 'ocr.json')).toEqual(ocr);
    expect(readFileSync(at('pkg', 'ocr.md'), 'utf8').split('\n')[0]).toBe('# Ongoing Certification Report');
    expect(read('pkg', 'manifest.json').package.sampleOcr).toBe(false);
    expect(run(['ir', 'validate', 'pkg']).status).toBe(0);
  });

  it('judges CCM-OCR-AVL in readiness: met while the next report is not due, not met once it is overdue', () => {
    const judged = (now: string) =>
      (JSON.parse(run(['fedramp', 'readiness', '--now', now, '--json']).stdout).rules as { id: string }[]).find((r) => r.id === 'CCM-OCR-AVL');
    expect(judged('2027-02-28T23:00:00Z')).toMatchObject({ status: 'met' });
    expect(judged('2027-03-01T00:00:00Z')).toMatchObject({
      status: 'not_met',
      why: 'the OCR due 2027-02-28 is overdue: the last recorded covers 2026-08-31 to 2026-11-30',
      todo: 'write and record the OCR of the period since (svc fedramp ocr)',
    });
  });

  it('starts the next period the day after the last recorded one', () => {
    const r = run(['fedramp', 'ocr', '--to', '2027-02-28', '--now', '2027-03-01T00:00:00Z', '--draft', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ period: { from: '2026-12-01', to: '2027-02-28' }, next_report_date: '2027-05-28' });
  });

  it.each([
    [['--from', '2026-12-01', '--to', '2026-11-30'], "Error: --from 2026-12-01 is after --to 2026-11-30; give the period's start first\n"],
    [['--to', '2026-11-31'], 'Error: --to 2026-11-31: not a day of the calendar; write a date such as 2026-11-21\n'],
    // A period whose next report date (three months on) or default start would leave four-digit years: not an exit 70.
    [['--to', '9999-12-31'], 'Error: --to 9999-12-31: outside the days svc counts in; write a date from 1970-01-01 through 2999-12-31 (UTC)\n'],
    [
      ['--from', '0000-01-01', '--to', '2026-11-30'],
      'Error: --from 0000-01-01: outside the days svc counts in; write a date from 1970-01-01 through 2999-12-31 (UTC)\n',
    ],
    [['--from', 'yesterday'], 'Error: --from yesterday: expected a date such as 2026-11-30\n'],
  ])('refuses %j (exit 2), writing and recording nothing', (args, message) => {
    const r = run(['fedramp', 'ocr', ...args, '--out', 'refused.json', '--now', '2026-12-01T00:00:00Z']);
    expect([r.status, r.stdout, r.stderr]).toEqual([2, '', message]);
    expect(existsSync(at('refused.json'))).toBe(false);
  });

  it('refuses a profile whose package URI is no https URL (javascript:), exit 3 naming the key, where it used to fail as a bug', () => {
    const config = join(work, 'javascript.json');
    writeFileSync(config, JSON.stringify({ fedramp: { ...PROFILE, package_uri: 'javascript:alert(1)' }, fedramp_schemas: FEDRAMP_SCHEMAS }));
    const r = svc(['fedramp', 'ocr', '--now', '2026-12-01T00:00:00Z', '--out', 'refused.json'], {
      cwd: work,
      env: { SVC_HOME: join(work, '.svc'), SVC_CONFIG: config },
    });
    expect(r).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${config}: fedramp.package_uri: "javascript:alert(1)" is a javascript: URL, not an https one; write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"; see docs/configuration.md\n`,
    });
    expect(existsSync(at('refused.json'))).toBe(false);
  });
});
