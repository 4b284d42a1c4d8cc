import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';

/**
 * Issue 34: a release that lacks rules svc relies on. Derived here from the official 2026.10.05.01 file by deleting
 * five rules wherever they occur; svc says which and what it does instead, and cites none of them anywhere else.
 */
const RELEASES = join(REFERENCE, 'fedramp');
const LATEST = join(RELEASES, 'fedramp-consolidated-rules.2026.10.05.01.json');
const FIRST = join(RELEASES, 'fedramp-consolidated-rules.2026.07.14.01.json');
const DROPPED = ['FRC-CSO-JSN', 'FRC-CSX-MOT', 'FRC-CSX-VVK', 'SDR-CSX-KMT', 'VDR-TFR-MVX'];
const NOW = '2026-12-10T00:00:00Z';
/** Class C: FRC-CSX-VVK and FRC-CSX-MOT give it numbers (2 methods, 6 months), were they there. */
const PROFILE = { ...PACKAGE_PROFILE, class: 'C' };
/** A report keyed by CR26 ids: one machine-based result a month old (stale by VDR-TFR-MVX's cadence, were it there). */
const REPORT = {
  schema_version: '1',
  generated_at: '2026-12-09T08:00:00Z',
  source: { tool: 'svc-fixture', version: '1' },
  results: [
    { ksi_id: 'KSI-IAM-APM', status: 'PASS', observed_at: '2026-12-09T07:00:00Z', checks: [{ id: 'passkeys-only', status: 'PASS' }] },
    { ksi_id: 'KSI-CNA-RNT', status: 'PASS', observed_at: '2026-11-01T07:00:00Z', checks: [{ id: 'deny-by-default', status: 'PASS' }] },
  ],
};
const LINES = [
  'Not in CR26 2026.10.05.01: FRC-CSO-JSN (svc relies on it for the JSON documents it writes); without it, svc still validates them against the schemas but judges no rule by it',
  'Not in CR26 2026.10.05.01: FRC-CSX-MOT (svc relies on it for the KSI metrics history a class must supply); without it, history is not judged',
  'Not in CR26 2026.10.05.01: FRC-CSX-VVK (svc relies on it for the automated validation methods a KSI must have); without it, automated methods are counted, not judged',
  'Not in CR26 2026.10.05.01: SDR-CSX-KMT (svc relies on it for the KSI metrics the SDR carries); without it, the SDR carries no KSI metrics and they are not judged',
  'Not in CR26 2026.10.05.01: VDR-TFR-MVX (svc relies on it for the cadence of machine-based evidence for 20x); without it, machine-based evidence is not judged for freshness',
];

/** `document` without the keys `ids`, wherever they occur. */
function without(document: unknown, ids: readonly string[]): unknown {
  if (Array.isArray(document)) return document.map((item) => without(item, ids));
  if (document === null || typeof document !== 'object') return document;
  return Object.fromEntries(Object.entries(document).filter(([key]) => !ids.includes(key)).map(([key, value]) => [key, without(value, ids)]));
}
/** The ids of DROPPED that `text` names. */
const cited = (text: string) => DROPPED.filter((id) => text.includes(id));

let tmp: string;
let work: string;
let rules: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-relied-rules-'));
  work = join(tmp, 'work');
  mkdirSync(work);
  rules = join(tmp, 'rules-without-five.json');
  writeFileSync(rules, JSON.stringify(without(JSON.parse(readFileSync(LATEST, 'utf8')), DROPPED)));
  writeFileSync(join(work, 'svc.config.json'), JSON.stringify({ fedramp: PROFILE }));
  writeFileSync(join(work, 'report.json'), JSON.stringify(REPORT));
  expect(inWork(['conmon', 'process', 'report.json']).status).toBe(0);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function inWork(args: string[], release = rules): SvcRun {
  return svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc'), SVC_FEDRAMP_RULES: release, SVC_CACHE_DIR: join(tmp, 'cache') } });
}

describe('a release without five rules svc relies on', () => {
  it('the derived release holds none of them (other rules still name some in their text and related ids)', () => {
    const keys = (o: unknown): string[] => (o === null || typeof o !== 'object' ? [] : Object.entries(o).flatMap(([k, v]) => [k, ...keys(v)]));
    expect(cited(keys(JSON.parse(readFileSync(rules, 'utf8'))).join(' '))).toEqual([]);
    expect(cited(keys(JSON.parse(readFileSync(LATEST, 'utf8'))).join(' '))).toEqual(DROPPED);
  });

  it('svc fedramp rules says each, one line, in text and --json', () => {
    const text = inWork(['fedramp', 'rules', '--now', NOW]);
    expect(text.status).toBe(0);
    expect(text.stdout.split('\n').slice(1, 6)).toEqual(LINES);
    const json = JSON.parse(inWork(['fedramp', 'rules', '--now', NOW, '--json']).stdout);
    expect(json.missing_rules.map((m: { id: string }) => m.id)).toEqual(DROPPED);
    expect(json.missing_rules[1]).toEqual({ id: 'FRC-CSX-MOT', uses: 'the KSI metrics history a class must supply', without: 'history is not judged' });
  });

  it('svc fedramp rules --rules-file with the first release says none', () => {
    const json = JSON.parse(inWork(['fedramp', 'rules', '--now', NOW, '--rules-file', FIRST, '--json']).stdout);
    expect(json.missing_rules).toBeUndefined();
  });

  it('readiness exits normally, says each, and cites none of them anywhere else (text and --json)', () => {
    const run = inWork(['fedramp', 'readiness', '--now', NOW]);
    expect([run.status, run.stderr]).toEqual([1, '']);
    const lines = run.stdout.split('\n');
    expect(lines.slice(2, 7)).toEqual(LINES);
    expect(cited([...lines.slice(0, 2), ...lines.slice(7)].join('\n'))).toEqual([]);
    const json = JSON.parse(inWork(['fedramp', 'readiness', '--now', NOW, '--json']).stdout);
    expect(json.missing_rules.map((m: { id: string }) => m.id)).toEqual(DROPPED);
    expect(cited(JSON.stringify({ ...json, missing_rules: undefined }))).toEqual([]);
    // The month-old machine-based result is not judged stale: no cadence to judge it by.
    expect(lines.find((l) => l.startsWith('KSI-CNA-RNT'))).toMatch(/^KSI-CNA-RNT\s+MUST\s+met\b/);
  });

  it('the SDR, JSON and Markdown, cites none of them', () => {
    const run = inWork(['fedramp', 'sdr', 'report.json', '--out', 'sdr.json', '--now', NOW]);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const json = readFileSync(join(work, 'sdr.json'), 'utf8');
    expect(cited(json)).toEqual([]);
    expect(JSON.parse(json).ksiMetrics).toBeUndefined();
    expect(cited(readFileSync(join(work, 'sdr.md'), 'utf8'))).toEqual([]);
    expect(cited(run.stdout)).toEqual([]);
  });

  it('the package is written, and its SDR cites none of them', () => {
    const run = inWork(['fedramp', 'package', '--out-dir', 'pkg', '--now', NOW]);
    expect(run.status).toBe(0);
    expect(cited(run.stdout + run.stderr)).toEqual([]);
    expect(cited(readFileSync(join(work, 'pkg', 'sdr.json'), 'utf8') + readFileSync(join(work, 'pkg', 'sdr.md'), 'utf8'))).toEqual([]);
  });
});

describe('FRC-CSO-JSN in readiness, from the data', () => {
  const jsn = (release: string) => {
    const json = JSON.parse(inWork(['fedramp', 'readiness', '--now', NOW, '--json'], release).stdout) as { rules: { id: string; status: string }[] };
    return json.rules.find((r) => r.id === 'FRC-CSO-JSN');
  };

  it('2026.07.14.01 asks only schema-valid JSON: the provider states it', () => {
    expect(jsn(FIRST)).toMatchObject({ status: 'needs_statement' });
  });

  it('2026.10.05.01 also asks public JSON web frameworks can read: svc judges it by how svc-api serves it', () => {
    expect(jsn(LATEST)).toMatchObject({ status: 'met' });
    const run = inWork(['fedramp', 'sdr', 'report.json', '--out', 'sdr-latest.json', '--now', NOW], LATEST);
    expect(run.status).toBe(0);
    const sdr = JSON.parse(readFileSync(join(work, 'sdr-latest.json'), 'utf8')) as { fedRampRequirements: { frrID: string; frrImplementation: string[] }[] };
    expect(sdr.fedRampRequirements.find((r) => r.frrID === 'FRC-CSO-JSN')?.frrImplementation).toEqual([
      "svc fedramp package validates every JSON document it writes against FedRAMP's schemas (the newest set svc carries, or --schemas) and records each one's $schemaVersion and sha256 in its manifest. svc-api serves the public JSON (GET /fedramp/public) with CORS (Access-Control-Allow-Origin: \\*, no credentials, an OPTIONS preflight), Content-Type: application/json and X-Content-Type-Options: nosniff (docs/api.md).",
    ]);
  });
});
