import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { scoutsuite } from '../../../src/infrastructure/scans/vendors/scoutsuite';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('scoutsuite', 'scoutsuite_sample.js');
const PROVENANCE = provenanceOf('scoutsuite');
const NOW = '2026-11-21T00:00:00Z';

interface RawFinding {
  checked_items: number;
  flagged_items: number;
  level: string;
}

const { write } = scratchFolder('svc-scoutsuite-');

describe('ScoutSuite adapter on the real AWS sample', () => {
  const text = readFileSync(SAMPLE, 'utf8');
  const raw = JSON.parse(text.slice(text.indexOf('{'))) as {
    account_id: string;
    last_run: { time: string; version: string };
    services: Record<string, { findings: Record<string, RawFinding> }>;
  };
  const findings = Object.values(raw.services).flatMap((s) => Object.values(s.findings));

  it('reads one check per finding: flagged items fail, checked items pass, nothing checked is not applicable', async () => {
    const scan = await readWith(scoutsuite, SAMPLE);
    expect(findings).toHaveLength(8);
    // The sample's README says "2 flagged"; the file flags one rule (16 of 16 items), as its last_run.summary says.
    expect(findings.filter((f) => f.flagged_items > 0).map((f) => f.flagged_items)).toEqual([16]);
    expect(scan.checks).toHaveLength(findings.length);
    const expected = {
      fail: findings.filter((f) => f.flagged_items > 0).length,
      pass: findings.filter((f) => f.flagged_items === 0 && f.checked_items > 0).length,
      'not-applicable': findings.filter((f) => f.checked_items === 0).length,
    };
    expect(outcomes(scan.checks)).toEqual(Object.fromEntries(Object.entries(expected).filter(([, n]) => n > 0)));
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'must')).toHaveLength(
      findings.filter((f) => f.flagged_items > 0 && f.level === 'danger').length,
    );
  });

  it('keeps the account, ScoutSuite version and run time', async () => {
    const scan = await readWith(scoutsuite, SAMPLE);
    expect(scan).toMatchObject({ vendor: 'scoutsuite', tool: 'ScoutSuite', version: raw.last_run.version, tenant: raw.account_id });
    expect([scan.version, scan.tenant]).toEqual(['5.10.2', '916481805664']);
    expect(scan.observed_at).toBe('2021-02-19T19:16:10Z'); // last_run.time "2021-02-19 19:16:10+0000"
  });

  it('maps the CloudTrail findings to the audit controls', async () => {
    const scan = await readWith(scoutsuite, SAMPLE);
    expect(scan.checks.find((c) => c.id === 'cloudtrail-not-configured')).toMatchObject({
      outcome: 'fail',
      criticality: 'must',
      severity: 'danger',
      controls: ['au-2', 'au-6', 'au-12'],
      resource: 'cloudtrail',
      title: 'CloudTrail Service Not Configured',
    });
    expect(scan.checks.find((c) => c.id === 'cloudtrail-no-data-logging')).toMatchObject({
      outcome: 'not-applicable',
      criticality: 'should',
      severity: 'warning',
    });
    expect(scan.checks.every((c) => (c.details ?? '').length <= 300)).toBe(true);
  });

  it('fails the audit KSIs on the flagged danger finding', async () => {
    const { report, summary } = reportFromScan(await readWith(scoutsuite, SAMPLE), PROVENANCE, NOW);
    expect(summary.statuses).toEqual({ PASS: 0, WARN: 0, FAIL: 3 });
    expect(report.results.find((r) => r.ksi_id === 'KSI-AU-12')).toMatchObject({ status: 'FAIL', source: 'ScoutSuite 5.10.2' });
    expect(
      report.results
        .find((r) => r.ksi_id === 'KSI-AU-02')
        ?.checks?.filter((c) => c.status === 'FAIL')
        .map((c) => c.id),
    ).toEqual(['cloudtrail-not-configured']);
  });
});

describe('ScoutSuite adapter on several services', () => {
  const finding = (level: string, checked: number, flagged: number) => ({
    description: `${level} ${checked}/${flagged}`,
    level,
    checked_items: checked,
    flagged_items: flagged,
    items: Array.from({ length: flagged }, (_, i) => `iam.users.${i}.${'x'.repeat(80)}`),
  });

  it('maps findings by service, warning → should, unknown services to the default, and plain JSON too', async () => {
    const document = {
      account_id: 123456789012,
      provider_code: 'aws',
      last_run: { time: '2024-01-02 03:04:05+0000', version: '5.14.0' },
      services: {
        iam: { findings: { 'iam-user-no-mfa': finding('warning', 10, 3) } },
        s3: { findings: { 's3-bucket-no-default-encryption': finding('danger', 4, 0) } },
        newservice: { findings: { 'newservice-thing': finding('danger', 2, 0) } },
        ses: {},
      },
    };
    for (const [name, text] of [
      ['scoutsuite_results_aws-1.js', `scoutsuite_results =\n${JSON.stringify(document, null, 1)};\n`],
      ['results.json', JSON.stringify(document)],
    ]) {
      const scan = await readWith(scoutsuite, write(name, text));
      expect(scan.tenant).toBe('123456789012');
      expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.controls])).toEqual([
        ['iam-user-no-mfa', 'fail', 'should', ['ac-2', 'ac-6', 'ia-2', 'ia-5']],
        ['s3-bucket-no-default-encryption', 'pass', 'must', ['ac-3', 'sc-28']],
        ['newservice-thing', 'pass', 'must', ['cm-6']],
      ]);
      expect(scan.checks[0].details?.length).toBeLessThanOrEqual(300);
      const { report } = reportFromScan(scan, PROVENANCE, NOW);
      expect(report.results.find((r) => r.ksi_id === 'KSI-IA-02')?.status).toBe('WARN');
      expect(report.results.find((r) => r.ksi_id === 'KSI-SC-28')?.status).toBe('PASS');
    }
  });
});

describe('ScoutSuite adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const detect = async () => detectionsOf(await readWith(scoutsuite, SAMPLE), NOW, new PureJsHashing());

  it('makes one configuration detection per flagged rule of the real sample', async () => {
    const detections = await detect();
    // Counted by hand with jq on the JSON after "scoutsuite_results =": [.services[].findings[] | select(.flagged_items > 0)]
    // | length = 1 (cloudtrail-not-configured, 16 of 16 regions flagged; the README's "2 flagged" is wrong). One rule is one
    // check, so its 16 flagged items are one detection on the service.
    expect(detections).toEqual([
      {
        id: expect.stringMatching(ID),
        source: 'ScoutSuite',
        finding_id: 'cloudtrail-not-configured',
        resource: 'cloudtrail',
        title: 'CloudTrail Service Not Configured',
        scanner_severity: 'danger',
        detected_at: '2021-02-19T19:16:10Z', // last_run.time
        kind: 'configuration',
      },
    ]);
    expect((await detect()).map((d) => d.id)).toEqual([detections[0].id]);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('ScoutSuite adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('counts the lines of the scoutsuite_results prefix in the position of a syntax error', async () => {
    const path = write('syntax.js', 'scoutsuite_results =\n{ "account_id": "1",\n  "services": {,\n} }');
    await expect(readWith(scoutsuite, path)).rejects.toMatchObject({
      code: 'invalid-json',
      message: expect.stringContaining(`${path}: invalid JSON at line 3, column 16`),
    });
  });

  it('refuses a finding without item counts with the shape error', async () => {
    const path = write(
      'no-counts.js',
      'scoutsuite_results = {"provider_code": "aws", "last_run": {}, "services": {"iam": {"findings": {"iam-x": {"level": "danger"}}}}}',
    );
    await expect(readWith(scoutsuite, path)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${path}: services.iam.findings.iam-x.checked_items: expected a number; this is not ScoutSuite output as svc knows it (docs/adapters.md)`,
    });
    const noServices = write('no-services.js', 'scoutsuite_results = {"provider_code": "aws", "last_run": {}}');
    await expect(readWith(scoutsuite, noServices)).rejects.toMatchObject({ message: expect.stringContaining(`${noServices}: services: missing`) });
  });
});
