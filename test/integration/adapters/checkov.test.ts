import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { checkov } from '../../../src/infrastructure/scans/vendors/checkov';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const PLAN = rawSample('checkov', 'checkov_json.json');
const SKIPS = rawSample('checkov', 'checkov_with_skips.json');
const PROVENANCE = provenanceOf('checkov');
const NOW = '2026-11-21T00:00:00Z';

const { write } = scratchFolder('svc-checkov-');

type Row = { check_id: string; check_name: string; bc_check_id?: string | null; guideline?: string | null };
interface Report {
  check_type: string;
  results: { passed_checks: Row[]; failed_checks: Row[]; skipped_checks: Row[]; parsing_errors: string[] };
  summary: { checkov_version: string };
}
const rawOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;
const ksiStatuses = (report: { results: { ksi_id: string; status: string }[] }) => report.results.map((r) => `${r.ksi_id} ${r.status}`);

describe('Checkov adapter on the real terraform-plan sample (checkov_json.json)', () => {
  const raw = rawOf(PLAN);

  it('reads every passed and failed check; a failure without a severity (open-source Checkov) is a must', async () => {
    const scan = await readWith(checkov, PLAN);
    // jq '.results | map_values(length)': passed_checks 69, failed_checks 55, skipped_checks 0, parsing_errors 0;
    // jq '[.results[][] | objects | select(.severity != null)] | length' = 0.
    expect([raw.results.passed_checks.length, raw.results.failed_checks.length, raw.results.skipped_checks.length, raw.results.parsing_errors.length]).toEqual([
      69, 55, 0, 0,
    ]);
    expect(scan.checks).toHaveLength(124);
    expect(outcomes(scan.checks)).toEqual({ pass: 69, fail: 55 });
    expect(scan.checks.every((c) => c.criticality === 'must' && c.severity === undefined)).toBe(true);
    expect(scan).toMatchObject({ vendor: 'checkov', tool: 'Checkov', version: '3.2.497', detections: 'configuration' }); // summary.checkov_version
    expect(scan.observed_at).toBeUndefined(); // Checkov's JSON has no time
  });

  it('maps each check by its policy area, from the guideline folder, and by keywords of its name', async () => {
    const scan = await readWith(checkov, PLAN);
    const byId = (id: string) => scan.checks.find((c) => c.id === id);
    // .../aws-policies/aws-general-policies/bc-aws-150: GENERAL_SECURITY (CWE-16 → cm-6); "deletion protection" → cp-9.
    expect(byId('CKV_AWS_150')).toEqual({
      id: 'CKV_AWS_150',
      outcome: 'fail',
      criticality: 'must',
      controls: ['cm-6', 'cp-9'],
      title: 'Ensure that Load Balancer has deletion protection enabled',
      resource: 'alb/main.tf: module.alb.aws_lb.main',
      details:
        'lines 1-8; evaluated enable_deletion_protection; policy area GENERAL_SECURITY; https://docs.prismacloud.io/en/enterprise-edition/policy-reference/aws-policies/aws-general-policies/bc-aws-150',
    });
    // aws-iam-policies: IAM (CWE-732 → ac-3, ac-6); "AdministratorAccess" matches the \badmin keyword (ac-6).
    expect(byId('CKV_AWS_274')?.controls).toEqual(['ac-3', 'ac-6']);
    // secrets-policies: SECRETS (ia-5.7, and CWE-798 → ia-5).
    expect(byId('CKV_AWS_41')).toMatchObject({ outcome: 'pass', controls: ['ia-5.7', 'ia-5'], resource: '/tf_checkov.json: aws.default' });
    // public-policies: PUBLIC (sc-7, and CWE-200 → ac-3); "publicly" → sc-7 again.
    expect(byId('CKV_AWS_17')?.controls).toEqual(['sc-7', 'ac-3']);
    // A plan's own resources have file_line_range [0, 0]: no lines.
    expect(byId('CKV_AWS_41')?.details).toBe(
      'policy area SECRETS; https://docs.prismacloud.io/en/enterprise-edition/policy-reference/aws-policies/secrets-policies/bc-aws-secrets-5',
    );
  });

  it('reports the checks no area or keyword maps, and fails the KSIs of the failed checks', async () => {
    const { report, summary } = reportFromScan(await readWith(checkov, PLAN), PROVENANCE, NOW);
    // The two checks without bc_category, guideline and bc_check_id, whose names match no keyword:
    const bare = [...raw.results.passed_checks, ...raw.results.failed_checks].filter((r) => !r.bc_check_id && !r.guideline).map((r) => r.check_id);
    expect(bare.sort()).toEqual(['CKV2_AWS_76', 'CKV_AWS_388']);
    expect(summary.unmapped_checks).toEqual(['CKV2_AWS_76', 'CKV_AWS_388']);
    // Only CKV_AWS_41 (passed) evidences ia-5; every other KSI has at least one failed check.
    expect(ksiStatuses(report)).toEqual([
      'KSI-AC-03 FAIL',
      'KSI-AC-06 FAIL',
      'KSI-AU-02 FAIL',
      'KSI-AU-12 FAIL',
      'KSI-CM-06 FAIL',
      'KSI-CP-09 FAIL',
      'KSI-IA-05 PASS',
      'KSI-SC-07 FAIL',
      'KSI-SC-08 FAIL',
      'KSI-SC-13 FAIL',
      'KSI-SC-28 FAIL',
    ]);
    expect(report.source).toMatchObject({ tool: 'Checkov', version: '3.2.497', mapping: checkov.info.mapping });
  });

  it('never keeps the code block, which holds the plan with its secrets', async () => {
    expect(readFileSync(PLAN, 'utf8')).toContain('xK9#mPw'); // the db_password variable of the plan, in code_block
    const scan = await readWith(checkov, PLAN);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect(JSON.stringify([scan, report, detectionsOf(scan, NOW, new PureJsHashing())])).not.toMatch(/xK9#mPw|zR4!hYm|pN7!/);
  });

  it('makes one configuration detection per failed check and resource', async () => {
    const detections = detectionsOf(await readWith(checkov, PLAN), NOW, new PureJsHashing());
    // jq '[.results.failed_checks[] | [.check_id, .file_path, .resource]] | unique | length' = 55
    expect(detections).toHaveLength(55);
    expect(detections.every((d) => d.kind === 'configuration' && d.source === 'Checkov' && d.detected_at === NOW)).toBe(true);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(/^VULN-[0-9a-f]{20}$/),
      source: 'Checkov',
      finding_id: 'CKV_AWS_150',
      resource: 'alb/main.tf: module.alb.aws_lb.main',
      title: 'Ensure that Load Balancer has deletion protection enabled',
      scanner_severity: 'must', // Checkov wrote no severity: the check's criticality
      detected_at: NOW,
      kind: 'configuration',
    });
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('Checkov adapter on the real sample with suppressions and a parsing error (checkov_with_skips.json)', () => {
  const raw = rawOf(SKIPS);

  it('reads skipped checks as not applicable with their suppression comment, and the parsing error as an error', async () => {
    const scan = await readWith(checkov, SKIPS);
    // passed 8, failed 12, skipped 2 (CKV_AWS_18 and CKV_AWS_145 on aws_s3_bucket.example), parsing_errors ["/sample/broken.tf"].
    expect([raw.results.passed_checks.length, raw.results.failed_checks.length, raw.results.skipped_checks.length, raw.results.parsing_errors]).toEqual([
      8,
      12,
      2,
      ['/sample/broken.tf'],
    ]);
    expect(scan.checks).toHaveLength(8 + 12 + 2 + 1);
    expect(outcomes(scan.checks)).toEqual({ pass: 8, fail: 12, 'not-applicable': 2, error: 1 });
    expect(scan.version).toBe('3.2.506');
    expect(scan.checks.filter((c) => c.outcome === 'not-applicable')).toEqual([
      {
        id: 'CKV_AWS_145',
        outcome: 'not-applicable',
        criticality: 'must',
        controls: ['cm-6', 'sc-28', 'sc-13'],
        title: 'Ensure that S3 buckets are encrypted with KMS by default',
        resource: '/main.tf: aws_s3_bucket.example',
        details: expect.stringMatching(
          /^skipped: Skipping KMS encryption for test; lines 2-6; evaluated server_side_encryption_configuration\/rule\/apply_server_side_encryption_by_default\/sse_algorithm, resource_type, .*; policy area GENERAL_SECURITY; https:/,
        ),
      },
      expect.objectContaining({
        id: 'CKV_AWS_18',
        controls: ['au-2', 'au-12'],
        details: expect.stringMatching(/^skipped: Skipping access logging for test; lines 2-6;/),
      }),
    ]);
    expect(scan.checks[22]).toEqual({
      id: 'parse:/sample/broken.tf',
      outcome: 'error',
      criticality: 'should',
      controls: ['cm-6'],
      title: 'File could not be parsed',
      resource: '/sample/broken.tf',
      details: 'Checkov could not parse this file, so none of its checks ran; fix its syntax and scan again',
    });
  });

  it('maps the s3-policies checks by keywords alone, and leaves nothing unmapped', async () => {
    const scan = await readWith(checkov, SKIPS);
    const { report, summary } = reportFromScan(scan, PROVENANCE, NOW);
    // s3-policies and BC_AWS_S3_* name no area: CKV_AWS_21 "versioning" → cp-9, CKV_AWS_93 "root user" → ac-6.
    expect(scan.checks.find((c) => c.id === 'CKV_AWS_21')?.controls).toEqual(['cp-9']);
    expect(scan.checks.find((c) => c.id === 'CKV_AWS_93')?.controls).toEqual(['ac-6']);
    expect(summary.unmapped_checks).toEqual([]);
    expect(ksiStatuses(report)).toEqual([
      'KSI-AC-06 PASS',
      'KSI-AU-02 FAIL',
      'KSI-AU-12 FAIL',
      'KSI-CM-06 FAIL',
      'KSI-CP-09 FAIL',
      'KSI-SC-07 FAIL',
      'KSI-SC-13 FAIL',
      'KSI-SC-28 FAIL',
    ]);
    // Skips and the parsing error are no detections: 12 failed checks, on aws_s3_bucket.example and .no_skip.
    expect(detectionsOf(scan, NOW, new PureJsHashing())).toHaveLength(12);
  });
});

describe('Checkov adapter on the other forms Checkov writes', () => {
  const row = (id: string, more: Record<string, unknown> = {}) => ({
    check_id: id,
    check_name: 'A check',
    check_result: { result: 'FAILED' },
    file_path: '/deploy.yaml',
    resource: 'Deployment.default.web',
    ...more,
  });

  it('reads a list of reports, one per framework, and takes the version from the first', async () => {
    const path = write('list.json', [rawOf(PLAN), rawOf(SKIPS)]);
    const scan = await readWith(checkov, path);
    expect(scan.checks).toHaveLength(124 + 23);
    expect(outcomes(scan.checks)).toEqual({ pass: 77, fail: 67, 'not-applicable': 2, error: 1 });
    expect(scan.version).toBe('3.2.497');
  });

  it('finds the area in bc_category, the guideline folders, bc_check_id or the check id, and severities when given', async () => {
    const report = {
      check_type: 'kubernetes',
      results: {
        failed_checks: [
          row('CKV_K8S_8', { check_name: 'Liveness Probe Should be Configured', severity: 'LOW' }), // the id names KUBERNETES
          row('CKV_CUSTOM_1', { bc_category: 'BACKUP_AND_RECOVERY', severity: 'HIGH' }),
          row('CKV_AZURE_1', {
            guideline: 'https://docs.prismacloud.io/en/enterprise-edition/policy-reference/azure-policies/azure-iam-policies/some-page',
            severity: 'medium',
          }),
          row('CKV_GCP_1', { bc_check_id: 'BC_GCP_LOGGING_1', severity: 'CRITICAL' }),
          row('CKV_SECRET_2', { check_name: 'AWS Access Key', file_path: '/app/.env', resource: '25910f981e85ca04baf359199dd0bd4a3ae738b6' }),
          row('CKV_AWS_999', {
            check_name: 'Ensure a thing',
            guideline: 'https://docs.prismacloud.io/en/enterprise-edition/policy-reference/aws-policies/s3-policies/public-bucket-page',
          }),
        ],
        skipped_checks: [row('CKV_K8S_9', { check_result: { result: 'SKIPPED' } })],
      },
      summary: { passed: 0, failed: 6, skipped: 1, parsing_errors: 0, resource_count: 1, checkov_version: '3.2.0' },
    };
    const scan = await readWith(checkov, write('k8s.json', report));
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.controls])).toEqual([
      ['CKV_K8S_8', 'fail', 'should', ['cm-6', 'cm-7']],
      ['CKV_CUSTOM_1', 'fail', 'must', ['cp-9']],
      ['CKV_AZURE_1', 'fail', 'should', ['ac-3', 'ac-6']],
      ['CKV_GCP_1', 'fail', 'must', ['au-2', 'au-12']],
      ['CKV_SECRET_2', 'fail', 'must', ['ia-5.7', 'ia-5']], // no severity: a must
      ['CKV_AWS_999', 'fail', 'must', []], // "public" in the page name is free text, not an area
      ['CKV_K8S_9', 'not-applicable', 'must', ['cm-6', 'cm-7']],
    ]);
    expect(scan.checks[0].severity).toBe('LOW');
    expect(scan.checks[6].details).toBe('skipped: no comment given; policy area KUBERNETES');
    const { summary } = reportFromScan(scan, PROVENANCE, NOW);
    expect(summary.unmapped_checks).toEqual(['CKV_AWS_999']);
  });

  it('reads the summary Checkov prints when it found nothing to scan as no checks', async () => {
    const scan = await readWith(
      checkov,
      write('empty.json', { passed: 0, failed: 0, skipped: 0, parsing_errors: 0, resource_count: 0, checkov_version: '3.2.506' }),
    );
    expect(scan).toMatchObject({ checks: [], version: '3.2.506' });
  });
});

describe('Checkov adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  const report = (results: unknown) => ({ check_type: 'terraform', results, summary: { checkov_version: '3.2.0' } });

  it('names the place of a report of the wrong shape', async () => {
    const results = write('results.json', { check_type: 'terraform', results: [], passed_checks: [] });
    await expect(readWith(checkov, results)).rejects.toMatchObject({
      code: 'invalid-scan',
      message: `${results}: results: expected an object of result lists; a Checkov JSON report is {"check_type": ..., "results": {"passed_checks": [...], "failed_checks": [...], ...}, "summary": {...}}; this is not Checkov output as svc knows it (docs/adapters.md)`,
    });
    const absent = write('absent.json', { check_type: 'terraform', result: { passed_checks: [] } }); // "result" misspelt
    await expect(readWith(checkov, absent)).rejects.toMatchObject({
      message: expect.stringContaining('absent.json: results: missing; a Checkov JSON report is'),
    });
    const list = write('list.json', report({ passed_checks: {} }));
    await expect(readWith(checkov, list)).rejects.toMatchObject({ message: expect.stringContaining('results.passed_checks: expected a list, got {}') });
    const noId = write('noid.json', report({ passed_checks: [], failed_checks: [{ check_name: 'x' }] }));
    await expect(readWith(checkov, noId)).rejects.toMatchObject({ message: expect.stringContaining('results.failed_checks[0].check_id: missing') });
    const parsing = write('parsing.json', report({ passed_checks: [], parsing_errors: [{ file: 'a.tf' }] }));
    await expect(readWith(checkov, parsing)).rejects.toMatchObject({
      message: expect.stringContaining('results.parsing_errors[0]: expected the path of the file Checkov could not parse'),
    });
    const element = write('element.json', [report({ passed_checks: [] }), 5]);
    await expect(readWith(checkov, element)).rejects.toMatchObject({ message: expect.stringContaining('element.json: [1]: expected a report object') });
  });
});
