import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { zap } from '../../../src/infrastructure/scans/vendors/zap';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('zap', 'webgoat.json');
const PROVENANCE = provenanceOf('zap');
const NOW = '2026-11-21T00:00:00Z';

const { write } = scratchFolder('svc-zap-');

const statusOf = (report: { results: { ksi_id: string; status: string }[] }, ksi: string) => report.results.find((r) => r.ksi_id === ksi)?.status;

describe('ZAP adapter on the real WebGoat sample', () => {
  const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { site: { '@name': string; alerts: { riskcode: string; confidence: string }[] }[] };
  const alerts = raw.site.flatMap((s) => s.alerts);
  const risk = (code: string) => alerts.filter((a) => a.riskcode === code).length;

  it('reads every alert of every site, plus one scan check per site', async () => {
    const scan = await readWith(zap, SAMPLE);
    // The sample README: 4 sites, 28 alerts; none of them marked a false positive (confidence 0).
    expect([raw.site.length, alerts.length]).toEqual([4, 28]);
    expect(alerts.filter((a) => a.confidence === '0')).toEqual([]);
    expect(scan.checks).toHaveLength(28 + 4);
    expect(outcomes(scan.checks)).toEqual({ fail: risk('1') + risk('2') + risk('3'), 'not-applicable': risk('0'), pass: 4 });
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'must')).toHaveLength(risk('3'));
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'should')).toHaveLength(risk('1') + risk('2'));
  });

  it('keeps the ZAP version and reads the zone-less @generated time as UTC', async () => {
    const scan = await readWith(zap, SAMPLE);
    expect(scan).toMatchObject({ vendor: 'zap', tool: 'OWASP ZAP', version: '2.7.0', observed_at: '2018-12-06T10:53:11Z' });
  });

  it('maps alerts through their CWE, always with ra-5, and keeps details short', async () => {
    const scan = await readWith(zap, SAMPLE);
    const site = 'http://mymac.com:8191';
    const alert = (title: string) => scan.checks.find((c) => c.title === title && c.resource === site);
    expect(alert('SQL Injection')).toMatchObject({ id: '40018', outcome: 'fail', criticality: 'must', severity: 'High (Medium)', controls: ['si-10', 'ra-5'] });
    expect(alert('Absence of Anti-CSRF Tokens')).toMatchObject({ criticality: 'should', controls: ['sc-23', 'ra-5'] });
    expect(alert('Charset Mismatch (Header Versus Meta Content-Type Charset)')).toMatchObject({ outcome: 'not-applicable', controls: ['cm-6', 'ra-5'] });
    expect(scan.checks.find((c) => c.id === 'scan:http://code.jquery.com')).toMatchObject({
      outcome: 'pass',
      resource: 'http://code.jquery.com',
      controls: ['ra-5', 'si-10'],
    });
    expect(scan.checks.find((c) => c.resource === 'http://code.jquery.com' && c.id === '10021')?.details).toBe(
      '1 instance; first: GET http://code.jquery.com/ui/1.9.1/themes/base/jquery-ui.css',
    );
    expect(Math.max(...scan.checks.map((c) => c.details?.length ?? 0))).toBeLessThanOrEqual(300);
  });

  it('fails the KSIs of high-risk alerts', async () => {
    const { report, summary } = reportFromScan(await readWith(zap, SAMPLE), PROVENANCE, NOW);
    expect(statusOf(report, 'KSI-SI-10')).toBe('FAIL');
    expect(statusOf(report, 'KSI-RA-05')).toBe('FAIL');
    expect(statusOf(report, 'KSI-CM-06')).toBe('WARN'); // missing headers: Low alerts
    expect(summary.unmapped_checks).toEqual([]);
  });
});

describe('ZAP adapter on the other forms ZAP writes', () => {
  const report = {
    '@programName': 'ZAP',
    '@version': '2.14.0',
    '@generated': 'Tue, 7 May 2024 09:15:00 +0200',
    site: [
      {
        '@name': 'https://app.example',
        alerts: [
          {
            pluginid: '10035',
            alertRef: '10035-1',
            alert: 'Strict-Transport-Security Header Not Set',
            riskcode: '1',
            confidence: '3',
            cweid: '-1',
            count: '3',
            instances: [{ uri: 'https://app.example/', method: 'GET', evidence: '<html>'.repeat(200) }],
          },
          { pluginid: 40012, alert: 'Cross Site Scripting (Reflected)', riskcode: 3, confidence: '0', cweid: '79', instances: [] },
          { pluginid: '99999', alert: 'Something odd', riskcode: '2', confidence: '2', cweid: '12345' },
        ],
      },
      { '@name': 'https://clean.example', alerts: [] },
    ],
  };

  it('reads false positives as omitted, TLS alerts as sc-8, and an unknown CWE as si-10', async () => {
    const scan = await readWith(zap, write('report.json', report));
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.controls])).toEqual([
      ['10035', 'fail', 'should', ['sc-8', 'ra-5']],
      ['40012', 'omitted', 'must', ['si-10', 'ra-5']],
      ['99999', 'fail', 'should', ['si-10', 'ra-5']],
      ['scan:https://app.example', 'pass', 'should', ['ra-5', 'si-10']],
      ['scan:https://clean.example', 'pass', 'should', ['ra-5', 'si-10']],
    ]);
    expect(scan.checks[0]).toMatchObject({ severity: 'Low', details: '3 instances; first: GET https://app.example/' });
    expect(scan).toMatchObject({ version: '2.14.0', observed_at: '2024-05-07T07:15:00Z' });
  });

  it('shows a clean site as PASS, and a warning when it has only medium alerts', async () => {
    const { report: r } = reportFromScan(await readWith(zap, write('report.json', report)), PROVENANCE, NOW);
    expect(statusOf(r, 'KSI-RA-05')).toBe('WARN');
    expect(statusOf(r, 'KSI-SC-08')).toBe('WARN');
    const clean = await readWith(
      zap,
      write('clean.json', { '@version': '2.14.0', '@generated': 'Tue, 7 May 2024 09:15:00', site: [{ '@name': 'https://clean.example', alerts: [] }] }),
    );
    const { report: c } = reportFromScan(clean, PROVENANCE, NOW);
    expect(c.results.map((x) => [x.ksi_id, x.status])).toEqual([
      ['KSI-RA-05', 'PASS'],
      ['KSI-SI-10', 'PASS'],
    ]);
  });

  it('takes a single site written as an object', async () => {
    const scan = await readWith(
      zap,
      write('one.json', { '@version': '2.7.0', '@generated': 'Thu, 6 Dec 2018 10:53:11', site: { '@name': 'http://one.example', alerts: [] } }),
    );
    expect(scan.checks.map((c) => c.id)).toEqual(['scan:http://one.example']);
  });
});

describe('ZAP adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const detect = async () => detectionsOf(await readWith(zap, SAMPLE), NOW, new PureJsHashing());

  it('makes one detection per failing alert and site, without CVSS, fix or time of its own', async () => {
    const detections = await detect();
    // Counted by hand with jq on the sample: [.site[].alerts[] | select(.riskcode != "0" and .confidence != "0")] | length
    // = 18 failing alerts; as distinct "<site> <pluginid>" pairs (| unique) = 15. On http://mymac.com:8191 plugin 10023
    // ("Debug Error Messages") is listed 3 times, and plugin 90028 ("Insecure HTTP Method") for PUT and for PATCH: each
    // pair is one detection, the first listed. ZAP is a web vulnerability scanner: all are vulnerabilities.
    expect(detections).toHaveLength(15);
    expect(detections.every((d) => d.kind === undefined)).toBe(true);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'OWASP ZAP',
      finding_id: '10021',
      resource: 'http://ciscobinary.openh264.org',
      title: 'X-Content-Type-Options Header Missing',
      scanner_severity: 'Low (Medium)',
      detected_at: '2018-12-06T10:53:11Z', // the report's @generated, read as UTC
    });
    expect(detections.filter((d) => d.finding_id === '90028').map((d) => d.title)).toEqual(['Insecure HTTP Method - PUT']);
    expect(detections.some((d) => d.cvss !== undefined || d.fix_available !== undefined)).toBe(false);
    const ids = detections.map((d) => d.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await detect()).map((d) => d.id)).toEqual(ids);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('ZAP adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place of a report of the wrong shape', async () => {
    const path = write('shape.json', {
      '@version': '2.7.0',
      '@generated': 'Thu, 6 Dec 2018 10:53:11',
      site: [{ '@name': 'http://x', alerts: [{ pluginid: '1', riskcode: '7' }] }],
    });
    await expect(readWith(zap, path)).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'invalid-scan',
      message: `${path}: site[0].alerts[0].riskcode: "7" is not a ZAP risk code (0, 1, 2, 3); this is not OWASP ZAP output as svc knows it (docs/adapters.md)`,
    });
  });

  // A JSON object may carry its own "toString": String() and Number() of it threw a TypeError (found by
  // test/property/vendor-adapters.property.test.ts).
  it('reads alert fields that are objects with their own toString as no value, not a crash', async () => {
    const odd = { toString: 1, valueOf: 1 };
    const path = write('odd.json', {
      '@version': '2.7.0',
      '@generated': 'Thu, 6 Dec 2018 10:53:11',
      site: [{ '@name': 'http://x', alerts: [{ pluginid: '10021', alert: 'X', riskcode: '1', confidence: odd, cweid: odd, count: odd }] }],
    });
    const scan = await readWith(zap, path);
    expect(scan.checks[0]).toEqual({
      id: '10021',
      outcome: 'fail',
      criticality: 'should',
      controls: ['si-10', 'ra-5'],
      title: 'X',
      severity: 'Low',
      resource: 'http://x',
      details: '0 instances',
    });
    const risk = write('odd-risk.json', {
      '@version': '2.7.0',
      '@generated': 'Thu, 6 Dec 2018 10:53:11',
      site: [{ '@name': 'http://x', alerts: [{ pluginid: '1', riskcode: odd }] }],
    });
    await expect(readWith(zap, risk)).rejects.toMatchObject({
      code: 'invalid-scan',
      message: `${risk}: site[0].alerts[0].riskcode: {"toString":1,"valueOf":1} is not a ZAP risk code (0, 1, 2, 3); this is not OWASP ZAP output as svc knows it (docs/adapters.md)`,
    });
  });

  it('refuses a report without sites', async () => {
    const path = write('nosite.json', { '@version': '2.7.0', '@generated': 'Thu, 6 Dec 2018 10:53:11', site: 'none' });
    await expect(readWith(zap, path)).rejects.toMatchObject({ message: expect.stringContaining(': site: missing') });
  });
});
