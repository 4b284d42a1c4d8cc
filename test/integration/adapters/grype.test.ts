import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { nextGroups } from '../../../src/domain/vulnerabilities/groups';
import { grype } from '../../../src/infrastructure/scans/vendors/grype';
import { trivy } from '../../../src/infrastructure/scans/vendors/trivy';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('grype', 'anchore_grype.json');
const PROVENANCE = provenanceOf('grype');
const NOW = '2026-11-21T00:00:00Z';
const ID = /^VULN-[0-9a-f]{20}$/;

const { write } = scratchFolder('svc-grype-');

const statusOf = (report: { results: { ksi_id: string; status: string }[] }, ksi: string) => report.results.find((r) => r.ksi_id === ksi)?.status;
const detect = async (path: string) => detectionsOf(await readWith(grype, path), NOW, new PureJsHashing());

interface Match {
  vulnerability: { id: string; severity: string; fix: { state: string } };
  artifact: { name: string; version: string };
}

describe('Grype adapter on the real image sample (golang:1.12-alpine, Grype 0.79.3)', () => {
  const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { matches: Match[] };
  const bySeverity = (...labels: string[]) => raw.matches.filter((m) => labels.includes(m.vulnerability.severity)).length;

  it('reads one check per match, failed by severity, plus one scan check for the image', async () => {
    const scan = await readWith(grype, SAMPLE);
    // jq '.matches | length' = 89; group_by(.vulnerability.severity): Critical 13, High 44, Medium 28, Low 2, Unknown 2.
    expect([raw.matches.length, bySeverity('Critical', 'High'), bySeverity('Medium', 'Low'), bySeverity('Unknown')]).toEqual([89, 57, 30, 2]);
    expect(scan.checks).toHaveLength(89 + 1);
    expect(outcomes(scan.checks)).toEqual({ fail: 87, 'not-applicable': 2, pass: 1 }); // an Unknown severity decides nothing, as with Trivy
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'must')).toHaveLength(57);
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'should')).toHaveLength(30);
    expect(scan.checks.filter((c) => c.outcome === 'not-applicable').map((c) => [c.id, c.resource])).toEqual([
      ['CVE-2024-2511', 'golang:1.12-alpine: libcrypto1.1@1.1.1d-r3 (/lib/apk/db/installed)'],
      ['CVE-2024-2511', 'golang:1.12-alpine: libssl1.1@1.1.1d-r3 (/lib/apk/db/installed)'],
    ]);
    expect(scan.checks.every((c) => c.controls.join() === 'ra-5,si-2')).toBe(true);
  });

  it('takes the tool version and the scan time from the descriptor', async () => {
    const scan = await readWith(grype, SAMPLE);
    // descriptor.version "0.79.3", descriptor.timestamp "2024-07-23T08:42:03.544511-04:00"
    expect(scan).toMatchObject({ vendor: 'grype', tool: 'Grype', version: '0.79.3', observed_at: '2024-07-23T12:42:03.544Z' });
  });

  it('keeps the package, its location, the fix versions, the CVSS score and vector and the advisory as evidence', async () => {
    const scan = await readWith(grype, SAMPLE);
    expect(scan.checks[0]).toEqual({
      id: 'CVE-2021-36159',
      outcome: 'fail',
      criticality: 'must',
      controls: ['ra-5', 'si-2'],
      title: expect.stringMatching(/^libfetch before 2021-07-26, as used in apk-tools, xbps, and other products, .*…$/),
      severity: 'Critical',
      resource: 'golang:1.12-alpine: apk-tools@2.10.4-r3 (/lib/apk/db/installed)',
      details:
        'apk-tools@2.10.4-r3 (apk): fixed in 2.10.7-r0; CVSS 9.1 CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:H; match: exact-indirect-match; https://www.cve.org/CVERecord?id=CVE-2021-36159',
      weakness: { cvss: 9.1, fix_available: true }, // NVD's v3.1 score from relatedVulnerabilities; fix.state "fixed"
    });
    const unfixed = scan.checks.find((c) => c.id === 'CVE-2018-25032');
    expect(unfixed).toMatchObject({ severity: 'High', resource: 'golang:1.12-alpine: zlib@1.2.11-r3 (/lib/apk/db/installed)', weakness: { cvss: 7.5 } });
    expect(unfixed?.details).toContain('no fixed version (unknown); CVSS 7.5 ');
    expect(unfixed?.weakness?.fix_available).toBeUndefined(); // fix.state "unknown" says nothing
    expect(scan.checks[89]).toEqual({
      id: 'scan:golang:1.12-alpine',
      outcome: 'pass',
      criticality: 'should',
      controls: ['ra-5', 'si-2'],
      title: 'Target scanned',
      resource: 'golang:1.12-alpine',
      details: '89 matches',
    });
  });

  it('fails the vulnerability-scanning and flaw-remediation KSIs, and leaves nothing unmapped', async () => {
    const { report, summary } = reportFromScan(await readWith(grype, SAMPLE), PROVENANCE, NOW);
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-RA-05', 'FAIL'],
      ['KSI-SI-02', 'FAIL'],
    ]);
    expect(summary).toMatchObject({ checks: 90, unmapped_checks: [], not_assessed: [] });
    expect(report.source).toMatchObject({ tool: 'Grype', version: '0.79.3', mapping: grype.info.mapping });
  });

  it('makes one vulnerability detection per match, Unknown severity included, which the register groups by CVE', async () => {
    const detections = await detect(SAMPLE);
    // Every one of the 89 matches: CR26 rates a detection by PAIN, not by the scanner; each (CVE, package) pair appears once in the file.
    expect(detections).toHaveLength(89);
    expect(detections.every((d) => d.kind === undefined && d.source === 'Grype' && d.detected_at === '2024-07-23T12:42:03.544Z')).toBe(true);
    // jq: 45 matches have fix.state "fixed" (none of them of Unknown severity), the 44 others "unknown".
    expect(detections.filter((d) => d.fix_available === true)).toHaveLength(45);
    expect(detections.filter((d) => d.fix_available === undefined)).toHaveLength(44);
    // Every match but the 2 of Unknown severity has a CVSS v3.1 score, on the vulnerability itself (nvd:cpe matches) or on its NVD related record.
    expect(detections.filter((d) => d.cvss !== undefined)).toHaveLength(87);
    // The 2 of Unknown severity keep the scanner's word as evidence.
    expect(detections.filter((d) => d.scanner_severity === 'Unknown').map((d) => [d.finding_id, d.resource])).toEqual([
      ['CVE-2024-2511', 'golang:1.12-alpine: libcrypto1.1@1.1.1d-r3 (/lib/apk/db/installed)'],
      ['CVE-2024-2511', 'golang:1.12-alpine: libssl1.1@1.1.1d-r3 (/lib/apk/db/installed)'],
    ]);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'Grype',
      finding_id: 'CVE-2021-36159',
      resource: 'golang:1.12-alpine: apk-tools@2.10.4-r3 (/lib/apk/db/installed)',
      title: expect.stringMatching(/^libfetch before 2021-07-26/),
      scanner_severity: 'Critical',
      cvss: 9.1,
      detected_at: '2024-07-23T12:42:03.544Z',
      fix_available: true,
    });
    const ids = detections.map((d) => d.id);
    expect(new Set(ids).size).toBe(89);
    expect((await detect(SAMPLE)).map((d) => d.id)).toEqual(ids);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
    // 47 distinct CVEs in the file: 47 groups, the OpenSSL ones on two packages; CVE-2024-2511, only of Unknown severity, too.
    const groups = nextGroups([], detections, NOW, new PureJsHashing());
    expect(groups).toHaveLength(47);
    expect(groups.find((g) => g.finding_id === 'CVE-2024-2511')).toMatchObject({ severities: ['Unknown'], detections: 2 });
    expect(groups.find((g) => g.finding_id === 'CVE-2024-5535')).toMatchObject({
      sources: ['Grype'],
      resources: ['golang:1.12-alpine: libcrypto1.1@1.1.1d-r3 (/lib/apk/db/installed)', 'golang:1.12-alpine: libssl1.1@1.1.1d-r3 (/lib/apk/db/installed)'],
      severities: ['Critical'],
      detections: 2,
      kind: 'vulnerability',
    });
  });
});

describe('Grype adapter on the other forms Grype writes', () => {
  const match = (id: string, severity: string, more: Record<string, unknown> = {}) => ({
    vulnerability: { id, namespace: 'github:language:javascript', severity, cvss: [], fix: { versions: [], state: 'not-fixed' }, ...more },
    relatedVulnerabilities: [],
    matchDetails: [{ type: 'exact-direct-match', matcher: 'javascript-matcher' }],
    artifact: { id: 'a1', name: 'lodash', version: '4.17.15', type: 'npm', locations: [{ path: '/app/package-lock.json' }] },
  });
  const nvd = (id: string, score: number) => ({
    id,
    namespace: 'nvd:cpe',
    severity: 'High',
    cvss: [{ source: 'nvd@nist.gov', type: 'Primary', version: '3.1', vector: 'CVSS:3.1/AV:N', metrics: { baseScore: score } }],
  });
  const report = {
    matches: [
      {
        ...match('GHSA-p6mc-m468-83gw', 'High', {
          fix: { versions: ['4.17.19'], state: 'fixed' },
          cvss: [{ source: 'ghsa', version: '3.1', metrics: { baseScore: 7.4 } }],
        }),
        relatedVulnerabilities: [nvd('CVE-2020-8203', 7.4)],
      },
      match('CVE-2024-0001', 'Negligible', { fix: { versions: [], state: 'wont-fix' } }),
      match('CVE-2024-0002', 'Medium', { cvss: [{ source: 'nvd@nist.gov', version: '2.0', metrics: { baseScore: 5 } }] }),
      match('GHSA-aaaa-bbbb-cccc', 'Low', { fix: { versions: [], state: 'unknown' } }),
    ],
    ignoredMatches: [{ ...match('CVE-2024-0003', 'Critical'), appliedIgnoreRules: [{ vulnerability: 'CVE-2024-0003', reason: 'not reachable in our build' }] }],
    source: { type: 'directory', target: '/app' },
    descriptor: { name: 'grype', version: '0.86.1', timestamp: '2025-01-02T03:04:05Z' },
  };

  it('reads severities, fix states, ignored matches and a directory target', async () => {
    const scan = await readWith(grype, write('dir.json', report));
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.severity])).toEqual([
      ['GHSA-p6mc-m468-83gw', 'fail', 'must', 'High'],
      ['CVE-2024-0001', 'fail', 'should', 'Negligible'],
      ['CVE-2024-0002', 'fail', 'should', 'Medium'],
      ['GHSA-aaaa-bbbb-cccc', 'fail', 'should', 'Low'],
      ['CVE-2024-0003', 'omitted', 'must', 'Critical'],
      ['scan:/app', 'pass', 'should', undefined],
    ]);
    expect(scan.checks[0].resource).toBe('/app: lodash@4.17.15 (/app/package-lock.json)');
    expect(scan.checks[0].details).toBe('lodash@4.17.15 (npm): fixed in 4.17.19; CVSS 7.4 CVSS:3.1/AV:N; same as CVE-2020-8203; match: exact-direct-match');
    expect(scan.checks[4].details).toContain('ignored by rule: not reachable in our build');
    expect(scan).toMatchObject({ version: '0.86.1', observed_at: '2025-01-02T03:04:05Z' });
  });

  it('groups a GHSA under its one CVE keeping the GHSA id, takes NVD v3 scores only, and reads fix states', async () => {
    const detections = await detect(write('dir.json', report));
    expect(detections.map((d) => [d.finding_id, d.aliases, d.cvss, d.fix_available])).toEqual([
      ['CVE-2020-8203', ['GHSA-p6mc-m468-83gw'], 7.4, true], // the GHSA's one related CVE, the GHSA kept; NVD's score over GitHub's
      ['CVE-2024-0001', undefined, undefined, false], // wont-fix
      ['CVE-2024-0002', undefined, undefined, false], // a v2 score is no CVSS v3 score; not-fixed
      ['GHSA-aaaa-bbbb-cccc', undefined, undefined, undefined], // no related CVE: grouped as itself; state unknown
    ]);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
    const trivyReport = {
      SchemaVersion: 2,
      ArtifactName: '/app',
      Results: [
        {
          Target: 'package-lock.json',
          Vulnerabilities: [{ VulnerabilityID: 'CVE-2020-8203', PkgName: 'lodash', InstalledVersion: '4.17.15', Severity: 'HIGH' }],
        },
      ],
    };
    const fromTrivy = detectionsOf(await readWith(trivy, write('trivy.json', trivyReport)), NOW, new PureJsHashing());
    const groups = nextGroups([], [...detections, ...fromTrivy], NOW, new PureJsHashing());
    expect(groups.find((g) => g.finding_id === 'CVE-2020-8203')).toMatchObject({
      sources: ['Grype', 'Trivy'],
      detections: 2,
      aliases: ['GHSA-p6mc-m468-83gw'],
    }); // VER-EVA-GRV
    // The advisory's id stays with the group once seen: a later run that reports the CVE alone keeps it.
    const later = nextGroups(groups, fromTrivy, '2026-11-22T00:00:00Z', new PureJsHashing());
    expect(later.find((g) => g.finding_id === 'CVE-2020-8203')?.aliases).toEqual(['GHSA-p6mc-m468-83gw']);
    expect(groups.find((g) => g.finding_id === 'GHSA-aaaa-bbbb-cccc')).not.toHaveProperty('aliases');
  });

  it('shows a scan that matched nothing as PASS on the vulnerability KSIs', async () => {
    const clean = {
      matches: [],
      source: { type: 'image', target: { userInput: 'alpine:3.20' } },
      distro: { name: 'alpine', version: '3.20.3' },
      descriptor: { name: 'grype', version: '0.86.1' },
    };
    const scan = await readWith(grype, write('clean.json', clean));
    expect(scan.checks).toEqual([expect.objectContaining({ id: 'scan:alpine:3.20', outcome: 'pass', resource: 'alpine:3.20', details: '0 matches' })]);
    expect(scan.observed_at).toBeUndefined();
    const { report: normalized } = reportFromScan(scan, PROVENANCE, NOW);
    expect([statusOf(normalized, 'KSI-RA-05'), statusOf(normalized, 'KSI-SI-02')]).toEqual(['PASS', 'PASS']);
  });
});

describe('Grype adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place of a match of the wrong shape', async () => {
    const noId = write('noid.json', { matches: [{ vulnerability: { severity: 'High' }, matchDetails: [], artifact: { name: 'x' } }] });
    await expect(readWith(grype, noId)).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'invalid-scan',
      message: `${noId}: matches[0].vulnerability.id: missing; this is not Grype output as svc knows it (docs/adapters.md)`,
    });
    const noArtifact = write('noartifact.json', { matches: [{ vulnerability: { id: 'CVE-1' }, matchDetails: [] }] });
    await expect(readWith(grype, noArtifact)).rejects.toMatchObject({ message: expect.stringContaining('matches[0].artifact.name: missing') });
    const ignored = write('ignored.json', { matches: [], ignoredMatches: {}, descriptor: { name: 'grype' } });
    await expect(readWith(grype, ignored)).rejects.toMatchObject({ message: expect.stringContaining('ignoredMatches: expected a list of matches') });
  });
});
