import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { awsSecurityhub } from '../../../src/infrastructure/scans/vendors/aws-securityhub';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('aws-securityhub', 'config_one_finding.json');
const PROVENANCE = provenanceOf('aws-securityhub');
/** Raw scanner JSON, read as loosely as the test needs. */
type Json = any;
const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')).findings as Json[];

const { write } = scratchFolder('svc-securityhub-');

/** A copy of the sample's control finding with some fields replaced. */
function control(changes: Record<string, unknown>): Json {
  return { ...JSON.parse(JSON.stringify(raw[0])), ...changes };
}

const GUARDDUTY = {
  SchemaVersion: '2018-10-08',
  Id: 'arn:aws:guardduty:us-east-1:111122223333:detector/d1/finding/f1',
  ProductArn: 'arn:aws:securityhub:us-east-1::product/aws/guardduty',
  GeneratorId: 'arn:aws:guardduty:us-east-1:111122223333:detector/d1',
  AwsAccountId: '111122223333',
  Types: ['TTPs/Discovery/Recon:EC2-Portscan'],
  UpdatedAt: '2024-01-17T11:33:20.699Z',
  Severity: { Label: 'MEDIUM', Normalized: 50 },
  Title: 'Outbound portscan from EC2 instance i-1234567890.',
  Description: 'EC2 instance i-1234567890 is performing outbound port scans.',
  Resources: [{ Type: 'AwsEc2Instance', Id: 'arn:aws:ec2:us-east-1:111122223333:instance/i-1234567890' }],
  Workflow: { Status: 'NEW' },
  RecordState: 'ACTIVE',
};
const INSPECTOR = {
  ...GUARDDUTY,
  Id: 'arn:aws:inspector2:us-east-1:111122223333:finding/c83077',
  ProductArn: 'arn:aws:securityhub:us-east-1::product/aws/inspector',
  GeneratorId: 'AWSInspector',
  Types: ['Software and Configuration Checks/Vulnerabilities/CVE'],
  Severity: { Normalized: 90 },
  Title: 'CVE-2022-3643 - kernel',
  Vulnerabilities: [{ Id: 'CVE-2022-3643' }],
};

describe('AWS Security Hub adapter on the real ASFF sample', () => {
  it('reads every control finding with the outcome its Compliance.Status gives', async () => {
    const scan = await readWith(awsSecurityhub, SAMPLE);
    const active = raw.filter((f) => f.RecordState !== 'ARCHIVED' && f.Workflow?.Status !== 'SUPPRESSED');
    expect(raw).toHaveLength(1);
    expect(raw.every((f) => f.Compliance !== undefined)).toBe(true);
    expect(scan.checks).toHaveLength(raw.length);
    expect(outcomes(scan.checks)).toEqual({ pass: active.filter((f) => f.Compliance.Status === 'PASSED').length });
  });

  it('keeps the tool, the account and the latest UpdatedAt', async () => {
    const scan = await readWith(awsSecurityhub, SAMPLE);
    const latest = raw.map((f) => f.UpdatedAt as string).sort((a, b) => Date.parse(b) - Date.parse(a))[0];
    expect(scan).toMatchObject({
      vendor: 'aws-securityhub',
      tool: 'AWS Security Hub',
      tenant: raw[0].AwsAccountId,
      observed_at: new Date(latest).toISOString(),
    });
    expect(scan.version).toBeUndefined();
  });

  it('maps an FSBP control without related requirements through the control prefix table', async () => {
    const scan = await readWith(awsSecurityhub, SAMPLE);
    expect(raw[0].Compliance.RelatedRequirements).toBeUndefined();
    expect(scan.checks[0]).toMatchObject({
      id: raw[0].ProductFields.ControlId,
      outcome: 'pass',
      severity: 'INFORMATIONAL',
      controls: ['ac-2', 'ac-6', 'ia-2', 'ia-5'],
      resource: raw[0].Resources[0].Id,
      title: raw[0].Title,
      details: raw[0].Compliance.StatusReasons[0].Description,
    });
  });

  it('gives the KSIs of IAM.5 a PASS', async () => {
    const { report, summary } = reportFromScan(await readWith(awsSecurityhub, SAMPLE), PROVENANCE, '2026-11-21T00:00:00Z');
    expect(summary.statuses).toEqual({ PASS: 4, WARN: 0, FAIL: 0 });
    expect(report.results.map((r) => r.ksi_id)).toEqual(['KSI-AC-02', 'KSI-AC-06', 'KSI-IA-02', 'KSI-IA-05']);
    expect(report.results[2]).toMatchObject({
      status: 'PASS',
      source: 'AWS Security Hub',
      checks: [{ id: 'IAM.5', status: 'PASS', resource: 'AWS::::Account:012345678912' }],
    });
    expect(summary.unmapped_checks).toEqual([]);
    expect(summary.not_assessed).toEqual([]);
  });
});

describe('AWS Security Hub adapter on other findings and wrappers', () => {
  const related = {
    Status: 'FAILED',
    SecurityControlId: 'IAM.6',
    RelatedRequirements: ['NIST.800-53.r5 AC-2(1)', 'NIST.800-53.r5 CM-6 b', 'PCI DSS v3.2.1/8.3.1'],
  };
  const findings = [
    control({ Compliance: related, Severity: { Label: 'HIGH' } }),
    control({ Compliance: { Status: 'WARNING' } }),
    control({ Compliance: { Status: 'NOT_AVAILABLE' } }),
    control({ Compliance: { Status: 'FAILED' }, Workflow: { Status: 'SUPPRESSED' }, Severity: { Label: 'CRITICAL' } }),
    control({ Compliance: { Status: 'FAILED' }, RecordState: 'ARCHIVED' }),
    GUARDDUTY,
    INSPECTOR,
  ];

  it('reads Get-Findings output: NIST related requirements, each status, and finding-only products with a scan check per account', async () => {
    const scan = await readWith(awsSecurityhub, write('get-findings.json', { Findings: findings }));
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality])).toEqual([
      ['IAM.6', 'fail', 'must'],
      ['IAM.5', 'error', 'should'],
      ['IAM.5', 'not-applicable', 'should'],
      ['IAM.5', 'omitted', 'must'],
      ['IAM.5', 'omitted', 'should'],
      ['Recon:EC2-Portscan', 'fail', 'should'],
      ['CVE-2022-3643', 'fail', 'must'],
      ['scan:111122223333', 'pass', 'should'],
    ]);
    expect(scan.checks[0].controls).toEqual(['ac-2.1', 'cm-6']);
    expect(scan.checks[5]).toMatchObject({ controls: ['si-4'], severity: 'MEDIUM', resource: GUARDDUTY.Resources[0].Id });
    expect(scan.checks[6]).toMatchObject({ controls: ['ra-5', 'si-2'], severity: 'CRITICAL' });
    expect(scan.checks[7]).toMatchObject({ controls: ['si-4', 'ra-5', 'si-2'], resource: '111122223333' });
    expect(scan.tenant).toBe('012345678912, 111122223333');
    expect(scan.observed_at).toBe('2024-01-17T11:33:20.699Z');

    const { report, summary } = reportFromScan(scan, PROVENANCE, '2026-11-21T00:00:00Z');
    const status = (ksi: string) => report.results.find((r) => r.ksi_id === ksi)?.status;
    expect([status('KSI-AC-02'), status('KSI-CM-06'), status('KSI-SI-04'), status('KSI-RA-05')]).toEqual(['FAIL', 'FAIL', 'WARN', 'FAIL']);
    expect(summary.outcomes).toMatchObject({ pass: 1, fail: 3, error: 1, 'not-applicable': 1, omitted: 2 });
  });

  it('shows an account whose findings are all archived or resolved as PASS', async () => {
    const scan = await readWith(
      awsSecurityhub,
      write('clean.json', [
        { ...GUARDDUTY, RecordState: 'ARCHIVED' },
        { ...INSPECTOR, Workflow: { Status: 'RESOLVED' } },
      ]),
    );
    expect(outcomes(scan.checks)).toEqual({ omitted: 2, pass: 1 });
    const { summary } = reportFromScan(scan, PROVENANCE, '2026-11-21T00:00:00Z');
    expect(summary.statuses).toEqual({ PASS: 3, WARN: 0, FAIL: 0 });
  });

  it('reads a bare array and an EventBridge event the same way', async () => {
    const bare = await readWith(awsSecurityhub, write('bare.json', findings));
    const event = await readWith(awsSecurityhub, write('event.json', { 'detail-type': 'Security Hub Findings - Imported', detail: { findings } }));
    expect(bare.checks).toHaveLength(8);
    expect(event.checks).toEqual(bare.checks);
  });

  it('drops an INFORMATIONAL failure and takes the account from the finding ARN when AwsAccountId is missing', async () => {
    const { AwsAccountId: _unused, ...inspector } = { ...INSPECTOR, Severity: { Label: 'INFORMATIONAL' } };
    const scan = await readWith(awsSecurityhub, write('no-account.json', { findings: [inspector] }));
    expect(scan.checks.map((c) => [c.id, c.outcome])).toEqual([
      ['CVE-2022-3643', 'not-applicable'],
      ['scan:111122223333', 'pass'],
    ]);
  });
});

describe('AWS Security Hub adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const NOW = '2026-11-21T00:00:00Z';
  const detect = async (path: string) => detectionsOf(await readWith(awsSecurityhub, path), NOW, new PureJsHashing());

  it('makes no detection of the real sample: its one finding passed', async () => {
    // Counted by hand with jq on the sample: [.findings[] | select(.Compliance.Status == "FAILED")] | length = 0 (IAM.5 PASSED).
    expect(await detect(SAMPLE)).toEqual([]);
    expect(readDetections([], 'x')).toEqual([]);
  });

  const inspector = (cve: string, vulnerability: Record<string, unknown>, times: Record<string, unknown>) => ({
    ...INSPECTOR,
    ...times,
    Id: `arn:aws:inspector2:us-east-1:111122223333:finding/${cve}`,
    Title: `${cve} - kernel`,
    Vulnerabilities: [{ Id: cve, ...vulnerability }],
  });
  const findings = [
    control({ Compliance: { Status: 'FAILED', SecurityControlId: 'IAM.6' }, Severity: { Label: 'HIGH' } }),
    GUARDDUTY,
    inspector(
      'CVE-2023-0001',
      {
        Cvss: [
          { Version: '2.0', BaseScore: 7.2 },
          { Version: '3.1', BaseScore: 7.8, Source: 'NVD' },
        ],
        FixAvailable: 'YES',
      },
      { FirstObservedAt: '2024-01-10T08:00:00.000Z', CreatedAt: '2024-01-11T08:00:00.000Z' },
    ),
    inspector('CVE-2023-0002', { Cvss: [{ Version: '2.0', BaseScore: 5 }], FixAvailable: 'PARTIAL' }, { CreatedAt: '2024-01-12T08:00:00.000Z' }),
    inspector('CVE-2023-0003', { FixAvailable: 'NO' }, {}),
    control({ Compliance: { Status: 'PASSED', SecurityControlId: 'IAM.7' } }),
  ];

  it('takes the CVE, its CVSS 3.x score, FixAvailable and FirstObservedAt of a vulnerability finding', async () => {
    const detections = await detect(write('detections.json', { Findings: findings }));
    // Counted by hand: findings 1-5 are active failures (IAM.6 FAILED, the GuardDuty finding, three Inspector CVEs); IAM.7 passed.
    expect(detections).toHaveLength(5);
    expect(detections[2]).toEqual({
      id: expect.stringMatching(ID),
      source: 'AWS Security Hub',
      finding_id: 'CVE-2023-0001',
      resource: 'arn:aws:ec2:us-east-1:111122223333:instance/i-1234567890',
      title: 'CVE-2023-0001 - kernel',
      scanner_severity: 'CRITICAL', // Normalized 90
      cvss: 7.8, // the CVSS 3.1 entry, not the 2.0 one listed first
      fix_available: true,
      detected_at: '2024-01-10T08:00:00Z', // FirstObservedAt, before CreatedAt
    });
    expect(detections.map((d) => [d.finding_id, d.kind, d.cvss, d.fix_available, d.detected_at])).toEqual([
      ['IAM.6', 'configuration', undefined, undefined, '2020-06-08T14:33:07.560Z'], // the sample's FirstObservedAt
      ['Recon:EC2-Portscan', 'configuration', undefined, undefined, '2024-01-17T11:33:20.699Z'], // no time of its own: the export's latest UpdatedAt
      ['CVE-2023-0001', undefined, 7.8, true, '2024-01-10T08:00:00Z'],
      ['CVE-2023-0002', undefined, 5, true, '2024-01-12T08:00:00Z'], // only a CVSS 2.0 score; PARTIAL counts as a fix; CreatedAt
      ['CVE-2023-0003', undefined, undefined, false, '2024-01-17T11:33:20.699Z'],
    ]);
    const ids = detections.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('AWS Security Hub adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place of a document of the wrong shape', async () => {
    const unwrapped = write('unwrapped.json', { Finding: raw[0] });
    await expect(readWith(awsSecurityhub, unwrapped)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${unwrapped}: Findings: missing; expected {"Findings": [...]}, {"findings": [...]} or an array of ASFF findings; this is not AWS Security Hub output as svc knows it (docs/adapters.md)`,
    });
    const status = write('status.json', { Findings: [raw[0], control({ Compliance: { Status: 'UNKNOWN' } })] });
    await expect(readWith(awsSecurityhub, status)).rejects.toMatchObject({
      message: expect.stringContaining(`${status}: Findings[1].Compliance.Status: "UNKNOWN" is not a compliance status`),
    });
  });
});
