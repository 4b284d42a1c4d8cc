import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { sarif } from '../../../src/infrastructure/scans/vendors/sarif';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('sarif', 'results.sarif');
const PROVENANCE = provenanceOf('sarif');
const NOW = '2026-11-21T00:00:00Z';

const { write } = scratchFolder('svc-sarif-');

const statusOf = (report: { results: { ksi_id: string; status: string }[] }, ksi: string) => report.results.find((r) => r.ksi_id === ksi)?.status;

describe('SARIF adapter on the real Checkov sample', () => {
  const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
    runs: { tool?: unknown; results: { level?: string; kind?: string; suppressions?: unknown[] }[] }[];
  };
  const results = raw.runs.flatMap((r) => r.results);

  it('reads every result as a failed check, plus one scan check per run', async () => {
    const scan = await readWith(sarif, SAMPLE);
    expect(results).toHaveLength(12);
    // Nothing in the sample is suppressed or of another kind: each result is a finding.
    expect(results.filter((r) => (r.kind ?? 'fail') !== 'fail' || (r.suppressions ?? []).length > 0)).toEqual([]);
    expect(scan.checks).toHaveLength(results.length + raw.runs.length);
    expect(outcomes(scan.checks)).toEqual({ fail: results.length, pass: raw.runs.length });
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'must')).toHaveLength(results.filter((r) => r.level === 'error').length);
  });

  it('falls back to the format name when the run has no tool driver, and has no time', async () => {
    expect(raw.runs[0].tool).toBeUndefined();
    const scan = await readWith(sarif, SAMPLE);
    expect(scan).toMatchObject({ vendor: 'sarif', tool: 'SARIF 2.1.0' });
    expect(scan.version).toBeUndefined();
    expect(scan.observed_at).toBeUndefined();
  });

  it('keeps rule id, file and line, and gives results without a CWE the code-scanning controls', async () => {
    const scan = await readWith(sarif, SAMPLE);
    expect(scan.checks.find((c) => c.resource === 'v3/example1.yaml:10')).toMatchObject({
      id: 'CKV_OPENAPI_3',
      outcome: 'fail',
      criticality: 'must',
      severity: 'error',
      controls: ['sa-11', 'si-10'],
    });
    expect(scan.checks.find((c) => c.id === 'scan:runs[0]')).toMatchObject({ outcome: 'pass', controls: ['sa-11', 'si-10'], details: '12 results' });
  });

  it('fails the code-scanning KSIs, since every finding is an error', async () => {
    const { report, summary } = reportFromScan(await readWith(sarif, SAMPLE), PROVENANCE, NOW);
    expect(statusOf(report, 'KSI-SA-11')).toBe('FAIL');
    expect(statusOf(report, 'KSI-SI-10')).toBe('FAIL');
    expect(summary.unmapped_checks).toEqual([]);
  });
});

describe('SARIF adapter on the other forms SARIF takes', () => {
  const rules = [
    {
      id: 'js/xss',
      shortDescription: { text: 'Cross-site scripting' },
      properties: { tags: ['security', 'external/cwe/cwe-079'], 'security-severity': '6.1' },
    },
    { id: 'js/hardcoded-credentials', properties: { tags: ['CWE-798: Use of Hard-coded Credentials'], 'security-severity': '9.8' } },
    { id: 'js/unused-variable', defaultConfiguration: { level: 'note' } },
  ];
  const codeql = {
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'CodeQL', semanticVersion: '2.15.0', rules } },
        invocations: [{ executionSuccessful: true, endTimeUtc: '2024-05-01T10:00:00.000Z' }],
        versionControlProvenance: [{ repositoryUri: 'https://github.com/example/app' }],
        results: [
          {
            ruleIndex: 0,
            level: 'warning',
            message: { text: 'XSS from user input' },
            locations: [{ physicalLocation: { artifactLocation: { uri: 'src/app.js' }, region: { startLine: 12 } } }],
          },
          {
            ruleId: 'js/hardcoded-credentials',
            level: 'warning',
            message: { text: 'Hard-coded password' },
            locations: [{ physicalLocation: { artifactLocation: { uri: 'src/db.js' }, region: { startLine: 3 } } }],
          },
          { rule: { id: 'js/unused-variable' }, message: { text: 'Unused variable x' } },
          { ruleId: 'js/xss', kind: 'pass', level: 'none', message: { text: 'checked' } },
          { ruleId: 'js/xss', message: { text: 'suppressed in source' }, suppressions: [{ kind: 'inSource' }] },
          { ruleId: 'js/xss', message: { text: 'suppression rejected' }, suppressions: [{ kind: 'external', status: 'rejected' }] },
          { ruleId: 'custom/review', kind: 'review', level: 'none', message: { text: 'needs a look' } },
          { ruleId: 'custom/na', kind: 'notApplicable', level: 'none', message: { text: 'not applicable' } },
          { ruleId: 'custom/info', level: 'none', message: { text: 'informational' } },
        ],
      },
    ],
  };

  it('resolves rule ids from ruleIndex and rule.id, and reads kind, level, suppressions and security-severity', async () => {
    const scan = await readWith(sarif, write('codeql.sarif', codeql));
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality])).toEqual([
      ['js/xss', 'fail', 'should'], // security-severity 6.1 is Medium
      ['js/hardcoded-credentials', 'fail', 'must'], // 9.8 is Critical, whatever the level
      ['js/unused-variable', 'fail', 'should'], // the rule's default level: note
      ['js/xss', 'pass', 'should'],
      ['js/xss', 'omitted', 'should'],
      ['js/xss', 'fail', 'should'], // a rejected suppression does not suppress
      ['custom/review', 'manual', 'should'],
      ['custom/na', 'not-applicable', 'should'],
      ['custom/info', 'not-applicable', 'should'],
      ['scan:https://github.com/example/app', 'pass', 'should'],
    ]);
    expect(scan).toMatchObject({ tool: 'CodeQL', version: '2.15.0', observed_at: '2024-05-01T10:00:00Z' });
  });

  it('maps CWE tags through the CWE table, always with sa-11', async () => {
    const scan = await readWith(sarif, write('codeql.sarif', codeql));
    expect(scan.checks[0]).toMatchObject({
      controls: ['sa-11', 'si-10'],
      title: 'Cross-site scripting',
      resource: 'src/app.js:12',
      details: 'XSS from user input',
      severity: 'warning (security-severity 6.1)',
    });
    expect(scan.checks[1].controls).toEqual(['sa-11', 'ia-5']);
    expect(scan.checks[2].controls).toEqual(['sa-11', 'si-10']);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect(statusOf(report, 'KSI-IA-05')).toBe('FAIL');
    expect(statusOf(report, 'KSI-SI-10')).toBe('WARN');
    expect(statusOf(report, 'KSI-SA-11')).toBe('FAIL');
  });

  it('shows a clean run as PASS on the code-scanning KSIs', async () => {
    const clean = { version: '2.1.0', runs: [{ tool: { driver: { name: 'Semgrep OSS', version: '1.50.0' } }, results: [] }] };
    const scan = await readWith(sarif, write('clean.sarif', clean));
    expect(scan.checks).toEqual([expect.objectContaining({ id: 'scan:runs[0]', outcome: 'pass' })]);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect([statusOf(report, 'KSI-SA-11'), statusOf(report, 'KSI-SI-10')]).toEqual(['PASS', 'PASS']);
  });

  it('reports a run that failed, or computed no results, as an error', async () => {
    const failed = {
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'CodeQL' } },
          invocations: [{ executionSuccessful: false, toolExecutionNotifications: [{ message: { text: 'database is empty' } }] }],
          results: [],
        },
        { tool: { driver: { name: 'CodeQL' } } },
      ],
    };
    const scan = await readWith(sarif, write('failed.sarif', failed));
    expect(scan.checks.map((c) => [c.id, c.outcome, c.details])).toEqual([
      ['scan:runs[0]', 'error', 'the run did not complete: database is empty'],
      ['scan:runs[1]', 'error', 'the run has no results list: the tool did not compute results'],
    ]);
    expect(reportFromScan(scan, PROVENANCE, NOW).report.results.map((r) => r.status)).toEqual(['WARN', 'WARN']);
  });
});

describe('SARIF adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const detect = async (path: string) => detectionsOf(await readWith(sarif, path), NOW, new PureJsHashing());

  it('makes one detection per result of the real Checkov sample', async () => {
    const detections = await detect(SAMPLE);
    // Counted by hand with jq on the sample: [.runs[].results[]] | length = 12, all level "error", none suppressed or of
    // another kind; [.runs[].results[] | "\(.ruleId) \(.locations[0].physicalLocation | "\(.artifactLocation.uri):\(.region.startLine)")"]
    // | unique | length = 12. SARIF cannot say a result is a configuration finding: all are vulnerabilities.
    expect(detections).toHaveLength(12);
    expect(detections.every((d) => d.kind === undefined)).toBe(true);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'SARIF 2.1.0', // this Checkov file names no tool
      finding_id: 'CKV_OPENAPI_4',
      resource: 'v2/swagger_empty_paths.yaml:2',
      title: 'Ensure that the global security field has rules defined', // no rules[]: the message
      scanner_severity: 'error',
      detected_at: NOW, // no invocation times
    });
    expect(detections.some((d) => d.cvss !== undefined || d.fix_available !== undefined)).toBe(false); // no security-severity
    const ids = detections.map((d) => d.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await detect(SAMPLE)).map((d) => d.id)).toEqual(ids);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });

  it("takes a rule's or result's security-severity as the CVSS score", async () => {
    const run = (rules: unknown[], results: unknown[]) => ({ version: '2.1.0', runs: [{ tool: { driver: { name: 'CodeQL', rules } }, results }] });
    const at = (uri: string) => [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: 1 } } }];
    const rules = [
      { id: 'js/xss', properties: { 'security-severity': '6.1' } },
      { id: 'js/sqli', properties: { 'security-severity': 8.8 } },
      { id: 'js/odd', properties: { 'security-severity': '12' } },
    ];
    const path = write(
      'severity.sarif',
      run(rules, [
        { ruleId: 'js/xss', message: { text: 'a' }, locations: at('a.js') },
        { ruleId: 'js/xss', message: { text: 'b' }, locations: at('b.js'), properties: { 'security-severity': '7.2' } },
        { ruleId: 'js/sqli', message: { text: 'c' }, locations: at('c.js') },
        { ruleId: 'js/odd', message: { text: 'd' }, locations: at('d.js') },
        { ruleId: 'js/none', message: { text: 'e' }, locations: at('e.js') },
      ]),
    );
    expect((await detect(path)).map((d) => [d.finding_id, d.resource, d.cvss, d.fix_available, d.kind])).toEqual([
      ['js/xss', 'a.js:1', 6.1, undefined, undefined],
      ['js/xss', 'b.js:1', 7.2, undefined, undefined], // the result's own score wins over its rule's
      ['js/sqli', 'c.js:1', 8.8, undefined, undefined],
      ['js/odd', 'd.js:1', undefined, undefined, undefined], // 12 is no CVSS score
      ['js/none', 'e.js:1', undefined, undefined, undefined],
    ]);
  });
});

describe('SARIF adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place of a SARIF log of the wrong shape', async () => {
    const path = write('shape.sarif', { version: '2.1.0', runs: [{ results: { ruleId: 'x' } }] });
    await expect(readWith(sarif, path)).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'invalid-scan',
      message: `${path}: runs[0].results: expected a list of results; this is not SARIF 2.1.0 output as svc knows it (docs/adapters.md)`,
    });
  });

  it('refuses a result with no rule id or an unknown level', async () => {
    const noRule = write('norule.sarif', { version: '2.1.0', runs: [{ results: [{ message: { text: 'x' } }] }] });
    await expect(readWith(sarif, noRule)).rejects.toMatchObject({ message: expect.stringContaining('runs[0].results[0].ruleId: missing') });
    const badLevel = write('level.sarif', { version: '2.1.0', runs: [{ results: [{ ruleId: 'r', level: 'fatal' }] }] });
    await expect(readWith(sarif, badLevel)).rejects.toMatchObject({
      message: expect.stringContaining('runs[0].results[0].level: "fatal" is not a SARIF level'),
    });
  });
});
