import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { openscap } from '../../../src/infrastructure/scans/vendors/openscap';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('openscap', 'test_report_check_with_empty_selector.xccdf.xml.result.xml');
const PROVENANCE = provenanceOf('openscap');
const NOW = '2026-11-21T00:00:00Z';

const { write } = scratchFolder('svc-openscap-');

describe('OpenSCAP adapter on the real XCCDF 1.1 results sample', () => {
  const raw = readFileSync(SAMPLE, 'utf8');
  const results = [...raw.matchAll(/<rule-result\b[\s\S]*?<result>(\w+)<\/result>/g)].map((m) => m[1]);

  it('reads one check per rule-result, with the outcome its <result> gives', async () => {
    const scan = await readWith(openscap, SAMPLE);
    expect(results).toEqual(['fail']);
    expect(scan.checks).toHaveLength(results.length);
    expect(outcomes(scan.checks)).toEqual({ fail: results.filter((r) => r === 'fail').length });
  });

  it('keeps the target and the start time, and gives a rule without 800-53 references the default controls', async () => {
    const scan = await readWith(openscap, SAMPLE);
    const start = /<TestResult [^>]*start-time="([^"]+)"/.exec(raw)?.[1];
    const target = /<target>([^<]+)<\/target>/.exec(raw)?.[1];
    expect(raw).not.toMatch(/800-53/);
    expect(scan).toMatchObject({ vendor: 'openscap', tool: 'OpenSCAP', tenant: target, observed_at: `${start}Z` });
    expect(scan.version).toBeUndefined();
    expect(scan.checks[0]).toMatchObject({
      id: 'usgcb-rhel5desktop-rule-2.2.3.1.i',
      outcome: 'fail',
      criticality: 'should',
      severity: 'unknown',
      controls: ['cm-6', 'cm-7'],
      resource: 'localhost.localdomain',
      title: "CCE-4130-1:Verify permissions on 'shadow' file",
      details: 'CCE-4130-1',
    });
  });

  it('warns the configuration KSIs: the failed rule is not of high severity', async () => {
    const { report, summary } = reportFromScan(await readWith(openscap, SAMPLE), PROVENANCE, NOW);
    expect(summary.statuses).toEqual({ PASS: 0, WARN: 2, FAIL: 0 });
    expect(report.results.find((r) => r.ksi_id === 'KSI-CM-06')).toMatchObject({ status: 'WARN', observed_at: '2012-10-24T10:10:50Z', source: 'OpenSCAP' });
    expect(report.results.find((r) => r.ksi_id === 'KSI-CM-07')?.checks).toEqual([
      { id: 'usgcb-rhel5desktop-rule-2.2.3.1.i', status: 'WARN', resource: 'localhost.localdomain', details: 'CCE-4130-1' },
    ]);
  });
});

/** SCAP Security Guide style XCCDF 1.2 inside an ARF report: the Benchmark (with NIST references) before the TestResult. */
function arf(ruleResults: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<arf:asset-report-collection xmlns:arf="http://scap.nist.gov/schema/asset-reporting-format/1.1" xmlns:core="http://scap.nist.gov/schema/reporting-core/1.1">
  <arf:report-requests><arf:report-request id="collection1"><arf:content>
    <ds:data-stream-collection xmlns:ds="http://scap.nist.gov/schema/scap/source/1.2"><ds:component id="xccdf">
      <xccdf-1.2:Benchmark xmlns:xccdf-1.2="http://checklists.nist.gov/xccdf/1.2" id="xccdf_org.ssgproject.content_benchmark_RHEL-9">
        <xccdf-1.2:Group id="xccdf_org.ssgproject.content_group_accounts">
          <xccdf-1.2:reference href="http://nvlpubs.nist.gov/nistpubs/SpecialPublications/NIST.SP.800-53r4.pdf">AU-2</xccdf-1.2:reference>
          <xccdf-1.2:Rule id="xccdf_org.ssgproject.content_rule_accounts_tmout" severity="medium">
            <xccdf-1.2:title>Set Interactive Session Timeout</xccdf-1.2:title>
            <xccdf-1.2:reference href="https://www.cisecurity.org/benchmark/red_hat_linux/">5.5.3</xccdf-1.2:reference>
            <xccdf-1.2:reference href="http://nvlpubs.nist.gov/nistpubs/SpecialPublications/NIST.SP.800-53r4.pdf">AC-12,SC-10,AC-2(5),CM-6(a)</xccdf-1.2:reference>
          </xccdf-1.2:Rule>
          <xccdf-1.2:Rule id="xccdf_org.ssgproject.content_rule_no_empty_passwords" severity="high">
            <xccdf-1.2:title>Prevent Login to Accounts With Empty Password</xccdf-1.2:title>
            <xccdf-1.2:reference href="https://nvlpubs.nist.gov/nistpubs/SpecialPublications/NIST.SP.800-53r5.pdf">IA-5(1)(a), IA-5(c), CM-6(b)</xccdf-1.2:reference>
          </xccdf-1.2:Rule>
          <xccdf-1.2:Rule id="xccdf_org.ssgproject.content_rule_no_refs" severity="low"><xccdf-1.2:title>No references</xccdf-1.2:title></xccdf-1.2:Rule>
        </xccdf-1.2:Group>
      </xccdf-1.2:Benchmark>
    </ds:component></ds:data-stream-collection>
  </arf:content></arf:report-request></arf:report-requests>
  <arf:reports><arf:report id="xccdf1"><arf:content>
    <TestResult xmlns="http://checklists.nist.gov/xccdf/1.2" id="xccdf_org.open-scap_testresult_ospp" start-time="2024-05-02T08:00:00+02:00" end-time="2024-05-02T08:03:00+02:00" test-system="cpe:/a:redhat:openscap:1.3.10">
      <target>web-01.example.gov</target>
${ruleResults}
    </TestResult>
  </arf:content></arf:report></arf:reports>
</arf:asset-report-collection>
`;
}

const ruleResult = (idref: string, result: string, severity: string) =>
  `      <rule-result idref="${idref}" severity="${severity}"><result>${result}</result><message severity="info">${'x'.repeat(1000)}</message></rule-result>`;

describe('OpenSCAP adapter on SCAP Security Guide results with NIST references (XCCDF 1.2 in ARF)', () => {
  const TMOUT = 'xccdf_org.ssgproject.content_rule_accounts_tmout';
  const EMPTY = 'xccdf_org.ssgproject.content_rule_no_empty_passwords';
  const NONE = 'xccdf_org.ssgproject.content_rule_no_refs';

  it("takes each Rule's 800-53 references as the controls of its results, enhancements kept, statement letters dropped", async () => {
    const scan = await readWith(
      openscap,
      write('ssg-arf.xml', arf([ruleResult(TMOUT, 'pass', 'medium'), ruleResult(EMPTY, 'fail', 'high'), ruleResult(NONE, 'notselected', 'low')].join('\n'))),
    );
    expect(scan).toMatchObject({ tool: 'OpenSCAP', version: '1.3.10', tenant: 'web-01.example.gov', observed_at: '2024-05-02T06:00:00Z' });
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.controls])).toEqual([
      [TMOUT, 'pass', 'should', ['ac-12', 'sc-10', 'ac-2.5', 'cm-6']],
      [EMPTY, 'fail', 'must', ['ia-5.1', 'ia-5', 'cm-6']],
      [NONE, 'not-applicable', 'should', ['cm-6', 'cm-7']],
    ]);
    expect(scan.checks[0]).toMatchObject({ title: 'Set Interactive Session Timeout', resource: 'web-01.example.gov' });
    expect(scan.checks.every((c) => (c.details ?? '').length <= 300)).toBe(true);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.find((r) => r.ksi_id === 'KSI-IA-05')?.status).toBe('FAIL');
    expect(report.results.find((r) => r.ksi_id === 'KSI-AC-12')?.status).toBe('PASS');
  });

  it('reads every XCCDF result word: fixed passes, error errs, the rest are not applicable', async () => {
    const words = ['pass', 'fixed', 'fail', 'error', 'unknown', 'notapplicable', 'notchecked', 'notselected', 'informational'];
    const scan = await readWith(openscap, write('words.xml', arf(words.map((w) => ruleResult(TMOUT, w, 'medium')).join('\n'))));
    expect(scan.checks.map((c) => c.outcome)).toEqual([
      'pass',
      'pass',
      'fail',
      'error',
      'not-applicable',
      'not-applicable',
      'not-applicable',
      'not-applicable',
      'not-applicable',
    ]);
  });

  it('refuses a result word XCCDF does not have, naming the place', async () => {
    const path = write('bad-word.xml', arf(ruleResult(TMOUT, 'passed', 'medium')));
    await expect(readWith(openscap, path)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: expect.stringContaining(`${path}: TestResult/rule-result[1]/result: "passed" is not an XCCDF result`),
    });
  });
});

describe('OpenSCAP adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const detect = async () => detectionsOf(await readWith(openscap, SAMPLE), NOW, new PureJsHashing());

  it('makes one configuration detection of the failed rule-result of the real sample', async () => {
    const detections = await detect();
    // Counted by hand: grep -c '<result>fail</result>' on the sample = 1 (the only rule-result). Its check is an OVAL
    // definition in another file, named by a CCE ident: nothing in the file says it is a CVE, so it is a configuration gap.
    expect(detections).toEqual([
      {
        id: expect.stringMatching(ID),
        source: 'OpenSCAP',
        finding_id: 'usgcb-rhel5desktop-rule-2.2.3.1.i',
        resource: 'localhost.localdomain', // TestResult/target
        title: "CCE-4130-1:Verify permissions on 'shadow' file",
        scanner_severity: 'unknown',
        detected_at: '2012-10-24T10:10:50Z', // the TestResult's start-time, read as UTC
        kind: 'configuration',
      },
    ]);
    expect((await detect()).map((d) => d.id)).toEqual([detections[0].id]);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('OpenSCAP adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('refuses a benchmark without a TestResult with the shape error', async () => {
    const path = write(
      'benchmark.xml',
      '<Benchmark xmlns="http://checklists.nist.gov/xccdf/1.2" id="b"><Rule id="r" severity="high"><title>t</title></Rule></Benchmark>',
    );
    await expect(readWith(openscap, path)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${path}: TestResult: missing; this is a benchmark without results, run it with "oscap xccdf eval --results <file>"; this is not OpenSCAP output as svc knows it (docs/adapters.md)`,
    });
  });
});
