import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { nessus } from '../../../src/infrastructure/scans/vendors/nessus';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('nessus', 'sample-basic-network-scan-2hosts.nessus');
const PROVENANCE = provenanceOf('nessus');
const NOW = '2026-11-21T00:00:00Z';

const { write, path: scratchPath } = scratchFolder('svc-nessus-');

describe('Nessus adapter on the real basic network scan sample (2 hosts)', () => {
  const raw = readFileSync(SAMPLE, 'utf8');
  const severities = [...raw.matchAll(/<ReportItem [^>]*severity="(\d)"/g)].map((m) => Number(m[1]));
  const hosts = [...raw.matchAll(/<ReportHost name="([^"]+)"/g)].map((m) => m[1]);

  it('reads every ReportItem, plus one passing scan check per host', async () => {
    expect(severities).toHaveLength(84);
    expect(hosts).toHaveLength(2);
    const scan = await readWith(nessus, SAMPLE);
    expect(scan.checks).toHaveLength(severities.length + hosts.length);
    expect(outcomes(scan.checks)).toEqual({
      'not-applicable': severities.filter((s) => s === 0).length,
      fail: severities.filter((s) => s > 0).length,
      pass: hosts.length,
    });
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'must')).toHaveLength(severities.filter((s) => s >= 3).length);
    expect(scan.checks.filter((c) => c.id.startsWith('scan:')).map((c) => c.resource)).toEqual(hosts);
  });

  it('keeps the Nessus version, the number of hosts and the earliest host start', async () => {
    const scan = await readWith(nessus, SAMPLE);
    const starts = [...raw.matchAll(/<tag name="HOST_START_TIMESTAMP">(\d+)</g)].map((m) => Number(m[1]));
    expect(scan).toMatchObject({ vendor: 'nessus', tool: 'Nessus', version: /Nessus version : ([\d.]+)/.exec(raw)?.[1], tenant: `${hosts.length} hosts` });
    expect(scan.version).toBe('10.1.1');
    expect(scan.observed_at).toBe(new Date(Math.min(...starts) * 1000).toISOString().replace('.000Z', 'Z'));
  });

  it('maps findings to RA-5 and SI-2, plus the controls their kind is about', async () => {
    const scan = await readWith(nessus, SAMPLE);
    const byId = (id: string) => scan.checks.find((c) => c.id === id);
    expect(byId('33850')).toMatchObject({
      outcome: 'fail',
      criticality: 'must',
      severity: 'Critical',
      resource: '10.0.0.1',
      controls: ['ra-5', 'si-2', 'sa-22'],
      title: 'Unix Operating System Unsupported Version Detection',
    });
    expect(byId('104743')).toMatchObject({
      outcome: 'fail',
      criticality: 'should',
      severity: 'Medium',
      resource: '10.0.0.1:443',
      controls: ['ra-5', 'si-2', 'sc-8', 'sc-13'],
    });
    expect(byId('153953')).toMatchObject({ outcome: 'fail', severity: 'Low', resource: '10.0.0.1:22', controls: ['ra-5', 'si-2', 'sc-8', 'sc-13'] });
    expect(byId('19506')).toMatchObject({ outcome: 'not-applicable', severity: 'Info' });
    expect(byId('scan:10.0.0.2')).toMatchObject({
      outcome: 'pass',
      controls: ['ra-5', 'si-2'],
      details: expect.stringContaining('policy "Basic Network Scan"'),
    });
    expect(scan.checks.every((c) => (c.details ?? '').length <= 300)).toBe(true);
  });

  it('fails RA-5 on the critical finding and warns SC-8 on the medium TLS findings', async () => {
    const { report } = reportFromScan(await readWith(nessus, SAMPLE), PROVENANCE, NOW);
    const ra5 = report.results.find((r) => r.ksi_id === 'KSI-RA-05');
    expect(ra5).toMatchObject({ status: 'FAIL', source: 'Nessus 10.1.1', observed_at: '2022-03-22T18:54:47Z' });
    expect(ra5?.checks?.filter((c) => c.status === 'FAIL').map((c) => c.id)).toEqual(['33850']);
    expect(ra5?.checks?.filter((c) => c.status === 'PASS').map((c) => c.id)).toEqual(['scan:10.0.0.1', 'scan:10.0.0.2']);
    expect(report.results.find((r) => r.ksi_id === 'KSI-SC-08')?.status).toBe('WARN');
  });
});

describe('Nessus adapter on a compliance audit', () => {
  const item = (severity: number, result: string, name: string, reference?: string) => `
      <ReportItem port="0" svc_name="general" protocol="tcp" severity="${severity}" pluginID="21157" pluginName="Unix Compliance Checks" pluginFamily="Policy Compliance">
        <compliance>true</compliance>
        <description>${'d'.repeat(2000)}</description>
        <cm:compliance-check-name>${name}</cm:compliance-check-name>
        <cm:compliance-result>${result}</cm:compliance-result>
        <cm:compliance-actual-value>${'v'.repeat(1000)}</cm:compliance-actual-value>
        ${reference ? `<cm:compliance-reference>${reference}</cm:compliance-reference>` : ''}
      </ReportItem>`;
  const audit = `<?xml version="1.0"?>
<NessusClientData_v2 xmlns:cm="http://www.nessus.org/cm">
  <Policy><policyName>CIS RHEL 8 audit</policyName></Policy>
  <Report name="audit">
    <ReportHost name="db-01.example.gov">
      <HostProperties><tag name="HOST_START_TIMESTAMP">1700000000</tag><tag name="HOST_START">Tue Nov 14 22:13:20 2023</tag></HostProperties>
      ${item(0, 'PASSED', '5.2.1 Ensure permissions on /etc/ssh/sshd_config are configured', '800-53|AC-2,CSF|PR.AC-1,800-53|AC-6(1),800-53r5|CM-6(a)')}
      ${item(3, 'FAILED', '5.3.1 Ensure password creation requirements are configured', '800-53|IA-5(1)(a),CSF|PR.AC-1')}
      ${item(2, 'WARNING', '1.1.1 Review mounted filesystems', '800-53|CM-7')}
      ${item(1, 'ERROR', '4.1.1 Ensure auditd is installed', '800-53|AU-2')}
      ${item(3, 'FAILED', '6.1.1 Audit system file permissions', 'CSF|PR.DS-1')}
    </ReportHost>
    <ReportHost name="web-01.example.gov">
      <HostProperties><tag name="HOST_START_TIMESTAMP">1700000500</tag></HostProperties>
      <ReportItem port="443" svc_name="www" protocol="tcp" severity="0" pluginID="10863" pluginName="SSL Certificate Information" pluginFamily="General"><plugin_output>${'p'.repeat(5000)}</plugin_output></ReportItem>
    </ReportHost>
  </Report>
</NessusClientData_v2>
`;

  it('reads the compliance result and the 800-53 references of each audit item', async () => {
    const scan = await readWith(nessus, write('audit.nessus', audit));
    expect(scan).toMatchObject({ tenant: '2 hosts', observed_at: '2023-11-14T22:13:20Z' });
    expect(scan.checks.map((c) => [c.resource, c.outcome, c.criticality, c.controls])).toEqual([
      ['db-01.example.gov', 'pass', 'should', ['ac-2', 'ac-6.1', 'cm-6']],
      ['db-01.example.gov', 'fail', 'must', ['ia-5.1']],
      ['db-01.example.gov', 'manual', 'should', ['cm-7']],
      ['db-01.example.gov', 'error', 'should', ['au-2']],
      ['db-01.example.gov', 'fail', 'must', ['cm-6']],
      ['web-01.example.gov:443', 'not-applicable', 'should', ['ra-5', 'si-2', 'sc-8', 'sc-13']],
      ['web-01.example.gov', 'pass', 'should', ['ra-5', 'si-2']],
    ]);
    expect(scan.checks[1]).toMatchObject({
      id: '21157',
      title: '5.3.1 Ensure password creation requirements are configured',
      details: expect.stringMatching(/^5\.3\.1 Ensure password creation requirements are configured \(actual: v+…$/),
    });
    expect(scan.checks.every((c) => (c.details ?? '').length <= 300)).toBe(true);
    const { report, summary } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.find((r) => r.ksi_id === 'KSI-AC-02')?.status).toBe('PASS');
    expect(report.results.find((r) => r.ksi_id === 'KSI-IA-05')?.status).toBe('FAIL');
    expect(report.results.find((r) => r.ksi_id === 'KSI-AU-02')?.status).toBe('WARN');
    expect(summary.not_assessed).toContain('KSI-CM-07');
  });

  it('refuses a compliance result Nessus does not write', async () => {
    const path = write('bad-result.nessus', audit.replace('WARNING', 'MAYBE'));
    await expect(readWith(nessus, path)).rejects.toMatchObject({
      message: expect.stringContaining(`${path}: ReportHost[@name="db-01.example.gov"]/ReportItem[3]/cm:compliance-result: "MAYBE" is not a compliance result`),
    });
  });
});

describe('Nessus adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const detect = async (path: string) => detectionsOf(await readWith(nessus, path), NOW, new PureJsHashing());

  it('makes one detection per finding of the real sample, with its CVSS score, fix and host start', async () => {
    const detections = await detect(SAMPLE);
    // Counted by hand: grep -c '<ReportItem [^>]*severity="[1-4]"' on the sample = 6, all on host 10.0.0.1 (plugins 33850,
    // 104743, 57582, 51192, 153953, 10663), each on its own port; no cm:compliance-result in the file: all vulnerabilities.
    expect(detections).toHaveLength(6);
    expect(detections.every((d) => d.kind === undefined)).toBe(true);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'Nessus',
      finding_id: '33850',
      resource: '10.0.0.1',
      title: 'Unix Operating System Unsupported Version Detection',
      scanner_severity: 'Critical',
      cvss: 10, // <cvss3_base_score>10.0
      fix_available: true, // <solution>Upgrade to a version of the Unix operating system that is currently supported.
      detected_at: '2022-03-22T18:54:47Z', // HOST_START_TIMESTAMP 1647975287 of 10.0.0.1
    });
    // 57582 and 10663 have no cvss3_base_score: their CVSS v2 base score stands in. Every one has a solution.
    expect(detections.map((d) => [d.finding_id, d.resource, d.cvss, d.fix_available])).toEqual([
      ['33850', '10.0.0.1', 10, true],
      ['104743', '10.0.0.1:443', 6.5, true],
      ['57582', '10.0.0.1:443', 6.4, true],
      ['51192', '10.0.0.1:443', 6.5, true],
      ['153953', '10.0.0.1:22', 3.7, true],
      ['10663', '10.0.0.1:67', 3.3, true],
    ]);
    const ids = detections.map((d) => d.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await detect(SAMPLE)).map((d) => d.id)).toEqual(ids);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });

  it('reads "n/a" as no fix, a patch date as a fix, and audit items as configuration detections', async () => {
    const finding = (pluginId: string, port: string, fields: string) =>
      `<ReportItem port="${port}" svc_name="www" protocol="tcp" severity="2" pluginID="${pluginId}" pluginName="Plugin ${pluginId}" pluginFamily="General">${fields}</ReportItem>`;
    const path = write(
      'weakness.nessus',
      `<NessusClientData_v2 xmlns:cm="http://www.nessus.org/cm"><Report name="r">
      <ReportHost name="h1"><HostProperties><tag name="HOST_START">Tue Nov 14 22:13:20 2023</tag></HostProperties>
        ${finding('1', '80', '<solution>n/a</solution><cvss_base_score>5.0</cvss_base_score>')}
        ${finding('2', '81', '<solution>n/a</solution><patch_publication_date>2023/01/10</patch_publication_date><cvss3_base_score>not a score</cvss3_base_score><cvss_base_score>4.3</cvss_base_score>')}
        ${finding('3', '82', '<cvss3_base_score>12.0</cvss3_base_score>')}
        <ReportItem port="0" severity="3" pluginID="21157" pluginName="Unix Compliance Checks" pluginFamily="Policy Compliance"><cm:compliance-check-name>5.3.1 Ensure password creation requirements are configured</cm:compliance-check-name><cm:compliance-result>FAILED</cm:compliance-result><solution>Set minlen to 14</solution></ReportItem>
      </ReportHost></Report></NessusClientData_v2>`,
    );
    const detections = await detect(path);
    expect(detections.map((d) => [d.finding_id, d.resource, d.cvss, d.fix_available, d.kind, d.detected_at])).toEqual([
      ['1', 'h1:80', 5, false, undefined, '2023-11-14T22:13:20Z'], // HOST_START, read as UTC, when there is no epoch
      ['2', 'h1:81', 4.3, true, undefined, '2023-11-14T22:13:20Z'],
      ['3', 'h1:82', undefined, undefined, undefined, '2023-11-14T22:13:20Z'],
      ['21157:5.3.1 Ensure password creation requirements are configured', 'h1', undefined, true, 'configuration', '2023-11-14T22:13:20Z'],
    ]);
  });

  it('tells the failed audit items of a host apart by their check id (else their name), though Nessus numbers them all 21157', async () => {
    const item = (name: string, checkId = '') =>
      `<ReportItem port="0" severity="3" pluginID="21157" pluginName="Unix Compliance Checks" pluginFamily="Policy Compliance">${checkId ? `<cm:compliance-check-id>${checkId}</cm:compliance-check-id>` : ''}<cm:compliance-check-name>${name}</cm:compliance-check-name><cm:compliance-result>FAILED</cm:compliance-result></ReportItem>`;
    const path = write(
      'audit-detections.nessus',
      `<NessusClientData_v2 xmlns:cm="http://www.nessus.org/cm"><Report name="r">
      <ReportHost name="db-01"><HostProperties><tag name="HOST_START_TIMESTAMP">1700000000</tag></HostProperties>${item('5.3.1 Password rules', '0fa4c3b2d1e5f6a7')}${item('6.1.1 File permissions')}</ReportHost>
      </Report></NessusClientData_v2>`,
    );
    const scan = await readWith(nessus, path);
    expect(scan.checks.filter((c) => c.outcome === 'fail')).toHaveLength(2);
    expect(detectionsOf(scan, NOW, new PureJsHashing())).toEqual([
      expect.objectContaining({
        finding_id: '0fa4c3b2d1e5f6a7',
        resource: 'db-01',
        title: '5.3.1 Password rules',
        kind: 'configuration',
        detected_at: '2023-11-14T22:13:20Z',
      }),
      expect.objectContaining({ finding_id: '21157:6.1.1 File permissions', resource: 'db-01', title: '6.1.1 File permissions', kind: 'configuration' }),
    ]);
  });
});

describe('Nessus adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('refuses a ReportItem without a pluginID, or with a severity outside 0-4, with the shape error', async () => {
    const noPlugin = write(
      'no-plugin.nessus',
      '<NessusClientData_v2><Report><ReportHost name="h"><ReportItem severity="2" port="0"/></ReportHost></Report></NessusClientData_v2>',
    );
    await expect(readWith(nessus, noPlugin)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${noPlugin}: ReportHost[@name="h"]/ReportItem[1]/@pluginID: missing; this is not Nessus output as svc knows it (docs/adapters.md)`,
    });
    const badSeverity = write(
      'bad-severity.nessus',
      '<NessusClientData_v2><Report><ReportHost name="h"><ReportItem severity="High" pluginID="1"/></ReportHost></Report></NessusClientData_v2>',
    );
    await expect(readWith(nessus, badSeverity)).rejects.toMatchObject({
      message: expect.stringContaining('ReportItem[1]/@severity: "High" is not a Nessus severity (0-4)'),
    });
  });
});

describe('Nessus adapter on a large export', () => {
  it('streams a ~100 MB scan keeping only short fields per item', async () => {
    const HOSTS = 125;
    const ITEMS = 75; // a multiple of 5: each severity 0-4 on a fifth of the items
    const path = scratchPath('large.nessus');
    const fd = openSync(path, 'w');
    try {
      writeSync(
        fd,
        '<?xml version="1.0"?>\n<NessusClientData_v2 xmlns:cm="http://www.nessus.org/cm">\n<Policy><policyName>Large</policyName></Policy>\n<Report name="large">\n',
      );
      for (let h = 0; h < HOSTS; h += 1) {
        const items: string[] = [];
        for (let i = 0; i < ITEMS; i += 1) {
          const text = `host ${h} item ${i} `.repeat(320);
          items.push(
            `<ReportItem port="${443 + i}" svc_name="www" protocol="tcp" severity="${i % 5}" pluginID="${100000 + i}" pluginName="Plugin ${i} ${'n'.repeat(40)}" pluginFamily="General">` +
              `<description>${text}</description><synopsis>${text.slice(0, 900)}</synopsis><plugin_output>${text}</plugin_output></ReportItem>\n`,
          );
        }
        writeSync(
          fd,
          `<ReportHost name="10.1.${Math.floor(h / 250)}.${h % 250}"><HostProperties><tag name="HOST_START_TIMESTAMP">${1700000000 + h}</tag></HostProperties>\n${items.join('')}</ReportHost>\n`,
        );
      }
      writeSync(fd, '</Report>\n</NessusClientData_v2>\n');
    } finally {
      closeSync(fd);
    }
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(95e6);

    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    // What the heap holds live while the scan is read (collected first: garbage waits for V8, which waits longer when
    // other test files keep the machine busy, and is not what this test is about).
    const sampler = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 100);
    let scan: Awaited<ReturnType<typeof readWith>>;
    try {
      scan = await readWith(nessus, path);
    } finally {
      clearInterval(sampler);
    }
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    rmSync(path);

    expect(scan.checks).toHaveLength(HOSTS * ITEMS + HOSTS);
    expect(outcomes(scan.checks)).toEqual({ 'not-applicable': (HOSTS * ITEMS) / 5, fail: (HOSTS * ITEMS * 4) / 5, pass: HOSTS });
    expect(Math.max(...scan.checks.map((c) => (c.details ?? '').length + (c.title ?? '').length))).toBeLessThanOrEqual(300 + 200);
    // Kept strings that were slices of the parser's chunks would keep the whole file alive (more than its size).
    expect(retained).toBeLessThan(size / 8);
    // Streaming: the heap never holds the file, only a few chunks.
    expect(peak - before).toBeLessThan(size / 2);
  }, 180_000);
});
