import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE, svc } from '../support/run-svc';

const SAMPLE = 'fixtures/sample-baseline.json';
let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-vulnerabilities-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const at = (name: string) => join(tmp, name);
const detection = {
  id: 'VULN-0123456789abcdef0123',
  source: 'Trivy',
  finding_id: 'CVE-2024-3094',
  resource: 'alpine:3.19: xz-libs 5.6.0-r0',
  title: 'xz: malicious code in distributed source',
  scanner_severity: 'CRITICAL',
  cvss: 10,
  detected_at: '2026-11-20T09:00:00Z',
  fix_available: true,
};
const withDetections = (name: string, vulnerabilities: unknown) => {
  const report = JSON.parse(readFileSync(SAMPLE, 'utf8'));
  writeFileSync(at(name), JSON.stringify({ ...report, vulnerabilities }));
  return at(name);
};

describe('vulnerabilities[] in a normalized report (DESIGN §12.4)', () => {
  it('is read by every command that reads a report, and changes none of the SPEC outputs', () => {
    const plain = svc(['ir', 'baseline-transform', SAMPLE]);
    const file = withDetections('good.json', [
      detection,
      { ...detection, id: 'VULN-ffffffffffffffffffff', finding_id: 'iam_root_mfa_enabled', kind: 'configuration', cvss: undefined },
    ]);
    expect(svc(['ir', 'baseline-transform', file]).stdout).toBe(plain.stdout.replace(SAMPLE, file));
  });

  it.each([
    ['not an array', { a: 1 }, 'vulnerabilities: expected an array, got an object; write "vulnerabilities": [ ... ] or leave it out'],
    [
      'a missing finding id',
      [{ ...detection, finding_id: undefined }],
      'vulnerabilities[0].finding_id: missing; every detection needs "finding_id" (docs/artifacts.md)',
    ],
    [
      'a repeated id',
      [detection, detection],
      `vulnerabilities[1].id: duplicate "${detection.id}" (first at vulnerabilities[0]); give each detection its own id`,
    ],
    [
      'a CVSS out of range',
      [{ ...detection, cvss: 11 }],
      'vulnerabilities[0].cvss: number 11 is not a CVSS score; write a number from 0 to 10, or leave it out',
    ],
    [
      'a bad time',
      [{ ...detection, detected_at: 'yesterday' }],
      'vulnerabilities[0].detected_at: "yesterday" is not an ISO-8601 time; write e.g. "2026-11-01T08:00:00Z"',
    ],
    [
      'an unknown kind',
      [{ ...detection, kind: 'misconfig' }],
      'vulnerabilities[0].kind: "misconfig" is not a kind of detection; write "vulnerability" or "configuration", or leave it out',
    ],
  ])('refuses %s: exit 3, one line naming the file and the path', (name, vulnerabilities, message) => {
    const file = withDetections(`${name.replace(/\W+/g, '-')}.json`, vulnerabilities);
    expect(svc(['ir', 'baseline-transform', file])).toEqual({ status: 3, stdout: '', stderr: `Error: ${file}: ${message}\n` });
  });

  it('is written by svc adapter run: a failed check of a configuration scanner is a configuration detection', () => {
    const raw = join(REFERENCE, 'raw-samples', 'scubagear', 'ScubaResults_fa5589b7-d528-4f80.json');
    const result = svc(['adapter', 'run', 'scubagear', raw, '--out', at('scuba.json')]);
    expect(result.status).toBe(0);
    const report = JSON.parse(readFileSync(at('scuba.json'), 'utf8'));
    const failed = (report.results as { checks: { id: string; status: string }[] }[])
      .flatMap((r) => r.checks)
      .filter((c) => c.status === 'FAIL' || c.status === 'WARN');
    expect(report.vulnerabilities.length).toBeGreaterThan(0);
    expect(new Set(report.vulnerabilities.map((v: { finding_id: string }) => v.finding_id))).toEqual(new Set(failed.map((c) => c.id)));
    for (const v of report.vulnerabilities) {
      expect(v).toMatchObject({
        id: expect.stringMatching(/^VULN-[0-9a-f]{20}$/),
        source: 'ScubaGear',
        kind: 'configuration',
        detected_at: '2026-05-04T17:15:48.307Z',
      });
    }
    // The same input gives the same ids.
    expect(svc(['adapter', 'run', 'scubagear', raw, '--out', at('scuba-again.json')]).status).toBe(0);
    expect(JSON.parse(readFileSync(at('scuba-again.json'), 'utf8')).vulnerabilities.map((v: { id: string }) => v.id)).toEqual(
      report.vulnerabilities.map((v: { id: string }) => v.id),
    );
    // And the report it writes is one svc reads.
    expect(svc(['ir', 'baseline-transform', at('scuba.json')]).status).toBe(0);
  });
});
