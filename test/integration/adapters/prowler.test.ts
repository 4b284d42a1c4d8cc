import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { prowler } from '../../../src/infrastructure/scans/vendors/prowler';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('prowler', 'example_output_aws.ocsf.json');
const PROVENANCE = provenanceOf('prowler');
/** Raw scanner JSON, read as loosely as the test needs. */
type Json = any;
const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as Json[];

const { write } = scratchFolder('svc-prowler-');

/** A copy of the sample's first finding with some fields replaced. */
function finding(changes: Record<string, unknown>, metadata: Record<string, unknown> = {}): Json {
  const copy = JSON.parse(JSON.stringify(raw[0]));
  return { ...copy, ...changes, metadata: { ...copy.metadata, ...metadata } };
}

describe('Prowler adapter on the real OCSF sample', () => {
  it('reads every finding with the outcome its status_code gives', async () => {
    const scan = await readWith(prowler, SAMPLE);
    const counted: Record<string, number> = {};
    for (const f of raw) counted[String(f.status_code).toLowerCase()] = (counted[String(f.status_code).toLowerCase()] ?? 0) + 1;
    // Nothing in the sample is muted or Informational, so each status_code is its outcome.
    expect(raw.filter((f) => f.status === 'Suppressed' || f.severity === 'Informational')).toEqual([]);
    expect(raw).toHaveLength(3);
    expect(scan.checks).toHaveLength(raw.length);
    expect(outcomes(scan.checks)).toEqual(counted);
    expect(scan.checks.map((c) => c.id)).toEqual(raw.map((f) => f.metadata.event_code));
  });

  it('keeps the tool, version, account and the scan time from the epoch `time`', async () => {
    const scan = await readWith(prowler, SAMPLE);
    const latest = Math.max(...raw.map((f) => f.time as number));
    expect(scan).toMatchObject({
      vendor: 'prowler',
      tool: 'Prowler',
      version: raw[0].metadata.product.version,
      tenant: raw[0].cloud.account.uid,
      observed_at: new Date(latest * 1000).toISOString().replace('.000Z', 'Z'),
    });
    // time_dt (14:27:03, no zone) is the scanner's local clock; the epoch says 13:27:03 UTC.
    expect(scan.observed_at).toBe('2025-02-14T13:27:03Z');
  });

  it('maps checks without NIST compliance ids through the service table, criticality from severity', async () => {
    const scan = await readWith(prowler, SAMPLE);
    expect(scan.checks.find((c) => c.id === 'accessanalyzer_enabled')).toMatchObject({
      outcome: 'fail',
      criticality: 'should',
      severity: 'Low',
      controls: ['ac-3', 'ac-6'],
      title: 'Check if IAM Access Analyzer is enabled',
      resource: '<resource_uid>',
    });
    expect(scan.checks.find((c) => c.id === 'account_maintain_current_contact_details')).toMatchObject({
      outcome: 'manual',
      controls: ['ir-6'],
      resource: 'arn:aws:iam::<account_uid>:root',
    });
    expect(scan.checks.every((c) => (c.details ?? '').length <= 300)).toBe(true);
  });

  it('gives each KSI the status its checks give it', async () => {
    const { report, summary } = reportFromScan(await readWith(prowler, SAMPLE), PROVENANCE, '2026-11-21T00:00:00Z');
    expect(summary.statuses).toEqual({ PASS: 0, WARN: 3, FAIL: 0 });
    expect(summary.unmapped_checks).toEqual([]);
    expect(summary.not_assessed).toEqual([]);
    const ir6 = report.results.find((r) => r.ksi_id === 'KSI-IR-06');
    expect(ir6).toMatchObject({ status: 'WARN', source: `Prowler ${raw[0].metadata.product.version}` });
    expect(ir6?.checks?.map((c) => [c.id, c.status])).toEqual([
      ['account_maintain_current_contact_details', 'MANUAL'],
      ['account_maintain_different_contact_details_to_security_billing_and_operations', 'WARN'],
    ]);
    expect(report.results.find((r) => r.ksi_id === 'KSI-AC-06')).toMatchObject({ status: 'WARN' });
  });
});

describe("Prowler adapter on the tool's own NIST references and statuses", () => {
  const compliance = {
    'NIST-800-53-Revision-5': ['ac_2_1', 'ac_2_3_a', 'ac_2_d_1'],
    'FedRamp-Moderate-Revision-4': ['ac-2-12-a', 'si-4'],
    'FedRamp-Moderate-Revision-5': ['AC-2 (3)'],
    'FedRAMP-20x-KSI-Low-25.05C': ['ksi-iam'],
    'NIST-800-171-Revision-2': ['3_1_1'],
    'CIS-2.0': ['1.10'],
  };

  it('takes controls from NIST 800-53 / FedRAMP requirement ids and ignores other frameworks', async () => {
    const path = write(
      'nist.ocsf.json',
      JSON.stringify([finding({ severity: 'High', status_code: 'FAIL', unmapped: { compliance } }, { event_code: 'iam_root_mfa_enabled' })]),
    );
    const scan = await readWith(prowler, path);
    expect(scan.checks[0]).toMatchObject({
      id: 'iam_root_mfa_enabled',
      outcome: 'fail',
      criticality: 'must',
      controls: ['ac-2.1', 'ac-2.3', 'ac-2', 'ac-2.12', 'si-4'],
    });
    const { report } = reportFromScan(scan, PROVENANCE, '2026-11-21T00:00:00Z');
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AC-02', 'FAIL'],
      ['KSI-SI-04', 'FAIL'],
    ]);
  });

  it('omits muted findings and lets Informational checks decide nothing', async () => {
    const path = write(
      'statuses.ocsf.json',
      JSON.stringify([
        finding({ status_code: 'FAIL', status: 'Suppressed', status_id: 3, severity: 'Critical' }),
        finding({ status_code: 'FAIL', severity: 'Informational' }),
        finding({ status_code: 'PASS', severity: 'Informational' }),
        finding({ status_code: 'PASS', severity: 'High' }),
      ]),
    );
    const scan = await readWith(prowler, path);
    expect(scan.checks.map((c) => c.outcome)).toEqual(['omitted', 'not-applicable', 'not-applicable', 'pass']);
  });
});

describe('Prowler adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const NOW = '2026-11-21T00:00:00Z';
  const detect = async (path: string) => detectionsOf(await readWith(prowler, path), NOW, new PureJsHashing());

  it('makes one configuration detection per FAIL finding of the real sample', async () => {
    const detections = await detect(SAMPLE);
    // Counted by hand with jq on the sample: [.[] | select(.status_code == "FAIL")] | length = 2 (the third is MANUAL),
    // neither muted, on two resources. No finding_info.first_seen_time: detected when the scan ran (`time`).
    expect(detections).toHaveLength(2);
    expect(detections.every((d) => d.kind === 'configuration')).toBe(true);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'Prowler',
      finding_id: 'accessanalyzer_enabled',
      resource: '<resource_uid>',
      title: 'Check if IAM Access Analyzer is enabled',
      scanner_severity: 'Low',
      detected_at: '2025-02-14T13:27:03Z',
      kind: 'configuration',
    });
    expect(detections[1]).toMatchObject({
      finding_id: 'account_maintain_different_contact_details_to_security_billing_and_operations',
      resource: 'arn:aws:iam::<account_uid>:root',
      scanner_severity: 'Medium',
    });
    const ids = detections.map((d) => d.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await detect(SAMPLE)).map((d) => d.id)).toEqual(ids);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });

  it("takes OCSF's finding_info.first_seen_time, in seconds or milliseconds, and never created_time", async () => {
    const seen = (firstSeen: number | undefined) =>
      finding({ finding_info: { ...raw[0].finding_info, ...(firstSeen === undefined ? {} : { first_seen_time: firstSeen }), created_time: 1739539623 } });
    const detections = await detect(
      write('first-seen.json', [
        seen(1700000000),
        { ...seen(1700000000000), resources: [{ uid: 'other' }] },
        { ...seen(undefined), resources: [{ uid: 'third' }] },
      ]),
    );
    expect(detections.map((d) => d.detected_at)).toEqual(['2023-11-14T22:13:20Z', '2023-11-14T22:13:20Z', '2025-02-14T13:27:03Z']);
  });
});

describe('Prowler adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place of a finding of the wrong shape', async () => {
    const bogus = write('bogus.ocsf.json', JSON.stringify([finding({ status_code: 'BOGUS' })]));
    await expect(readWith(prowler, bogus)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${bogus}: [0].status_code: "BOGUS" is not a Prowler status (PASS, FAIL, MANUAL); this is not Prowler output as svc knows it (docs/adapters.md)`,
    });
    const noId = write('no-id.ocsf.json', JSON.stringify([finding({}), finding({}, { event_code: undefined })]));
    await expect(readWith(prowler, noId)).rejects.toMatchObject({ message: expect.stringContaining(`${noId}: [1].metadata.event_code: missing`) });
  });
});
