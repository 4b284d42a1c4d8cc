import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';

/*
 * Scanner text is untrusted: a finding title can hold terminal escape sequences (an OSC 8 hyperlink, a screen clear,
 * an 8-bit CSI). Every text output svc writes (Markdown, CSV, what it prints) writes each control character out as
 * `\u001b` and the like (docs/decisions.md); the JSON documents keep the text as the scanner gave it, escaped as JSON
 * escapes it. Here a real Grype report (reference raw-samples) with one poisoned vulnerability description.
 */
const POISON = '\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007 \u001b[2J\u009b31m wiped';
/** What markdownText makes of it: each control as its escape, whose backslash Markdown escapes, and `[`, `]` escaped. */
const POISON_MD = '\\\\u001b\\]8;;http://evil.example\\\\u0007click\\\\u001b\\]8;;\\\\u0007 \\\\u001b\\[2J\\\\u009b31m wiped';
/** Control characters a terminal or viewer acts on: C0 but tab and LF, DEL, C1, the line separators. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
const NOW = '2024-07-24T00:00:00Z';
const CVE = 'CVE-2021-36159';

let work: string;
const run = (args: string[]): SvcRun => svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc') } });
const at = (name: string) => join(work, name);

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-scanner-text-'));
  const grype = JSON.parse(readFileSync(join(REFERENCE, 'raw-samples', 'grype', 'anchore_grype.json'), 'utf8'));
  const match = grype.matches.find((m: { vulnerability: { id: string } }) => m.vulnerability.id === CVE);
  match.vulnerability.description = POISON;
  for (const related of match.relatedVulnerabilities) related.description = POISON;
  writeFileSync(at('grype.json'), JSON.stringify(grype));
  writeFileSync(
    at('svc.config.json'),
    JSON.stringify({
      fedramp: { type: '20x', class: 'D', package_uri: 'https://trust.example.com/fedramp/cpo.json', agencies: [{ name: 'Department of Examples' }] },
    }),
  );
  expect(run(['adapter', 'run', 'grype', 'grype.json', '--out', 'report.json']).status).toBe(0);
  expect(run(['conmon', 'process', 'report.json']).status).toBe(0);
  // Flag the group as an incident (VER-TFR-IRI: internet-reachable, likely exploitable, N5) for svc fedramp incident.
  expect(
    run(['vuln', 'evaluate', CVE, '--irv', 'yes', '--lev', 'yes', '--n', '5', '--reason', 'exposed', '--by', 'ada@example.com', '--now', NOW]).status,
  ).toBe(0);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a finding title with terminal escape sequences, from a real Grype report', () => {
  it('is kept as the scanner wrote it in the normalized report', () => {
    const report = JSON.parse(readFileSync(at('report.json'), 'utf8'));
    expect(report.vulnerabilities.find((v: { finding_id: string }) => v.finding_id === CVE).title).toContain('\u001b]8;;http://evil.example\u0007click');
  });

  it('svc vuln report --format md prints and writes it with every control written out', () => {
    const printed = run(['vuln', 'report', '--format', 'md', '--now', NOW]);
    expect([printed.status, printed.stderr]).toEqual([0, '']);
    expect(CONTROL.test(printed.stdout)).toBe(false);
    expect(printed.stdout.split('\n').filter((line) => line.includes(` | ${CVE} | ${POISON_MD} | `))).toHaveLength(1);
    expect(run(['vuln', 'report', '--format', 'md', '--now', NOW, '--out', 'monthly.md']).status).toBe(0);
    const written = readFileSync(at('monthly.md'), 'utf8');
    expect(CONTROL.test(written)).toBe(false);
    expect(written).toContain(POISON_MD);
  });

  it('the JSON svc prints (--json, or a document without --out) is the same JSON, its C1 controls escaped for the terminal', () => {
    for (const args of [
      ['vuln', 'list', '--now', NOW, '--json'],
      ['vuln', 'report', '--format', 'vdr', '--now', NOW],
    ]) {
      const r = run(args);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(CONTROL.test(r.stdout.replace(/\n/g, ''))).toBe(false);
      expect(r.stdout).toContain('\\u009b31m');
      expect(JSON.stringify(JSON.parse(r.stdout))).toContain(JSON.stringify(POISON).slice(1, -1));
    }
  });

  it('the vulnerability POA&M as CSV holds it with its controls written out, and no CR but the record ends', () => {
    expect(run(['ir', 'poam-export', '--source', 'vulnerabilities', '--format', 'csv', '--out', 'poam.csv', '--now', NOW]).status).toBe(0);
    const csv = readFileSync(at('poam.csv'), 'utf8');
    expect(CONTROL.test(csv.replace(/\r\n/g, '\n'))).toBe(false);
    expect(csv).toContain('\\u001b]8;;http://evil.example\\u0007click\\u001b]8;;\\u0007 \\u001b[2J\\u009b31m wiped');
  });

  it("the incident report's Markdown twin, and what svc fedramp incident prints, write the controls out", () => {
    const r = run(['fedramp', 'incident', '--type', 'initial', '--group', CVE, '--now', NOW, '--out', 'incident.json', '--draft']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(CONTROL.test(r.stdout)).toBe(false);
    const twin = readFileSync(at('incident.md'), 'utf8');
    expect(CONTROL.test(twin)).toBe(false);
    expect(twin).toContain(POISON_MD);
    // The JSON document keeps the scanner's text (canonical JSON escapes C0; the C1 control is the character itself).
    expect(JSON.stringify(JSON.parse(readFileSync(at('incident.json'), 'utf8')))).toContain(JSON.stringify(POISON).slice(1, -1));
    const printed = run(['fedramp', 'incident', '--type', 'initial', '--group', CVE, '--now', NOW, '--draft']);
    expect(printed.status).toBe(0);
    expect(CONTROL.test(printed.stdout.replace(/\n/g, '') + printed.stderr.replace(/\n/g, ''))).toBe(false);
    expect(JSON.stringify(JSON.parse(printed.stdout))).toContain(JSON.stringify(POISON).slice(1, -1));
  });
});
