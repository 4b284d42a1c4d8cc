import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';
import request from 'supertest';
import { buildApi } from '../../src/interfaces/http/server';
import { capturingLogger, proxyConfig } from '../support/api';

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
  return Object.fromEntries(
    Object.entries(document)
      .filter(([key]) => !ids.includes(key))
      .map(([key, value]) => [key, without(value, ids)]),
  );
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

/**
 * A release without the rules svc's documents cite by id where they apply (the trust center's, the information
 * resources', the CPO twin's, the reports'): every document is still written and served, and none cites them.
 */
describe('a release without the rules the documents cite', () => {
  const CITED = [
    'CCM-OCR-NRD',
    'CDS-CSO-HAD',
    'CDS-CSO-PUB',
    'CDS-TRC-AAI',
    'CDS-TRC-ACL',
    'CDS-TRC-USH',
    'CDS-UTC-AAD',
    'CPO-CSO-MTD',
    'CPO-CSO-OSA',
    'CCM-OCR-AVL',
    'FRC-CSO-PKG',
    'IEC-CSO-EFI',
    'MAS-CSO-FLO',
    'MAS-CSO-IIR',
    'MAS-CSO-TPR',
    'SDR-CSF-CTF',
    'SDR-CSX-KMT',
    'VER-RPT-AVI',
    'VER-RPT-NID',
    'VER-TFR-MHR',
    'VER-TFR-MRH',
  ];
  const OBSERVED = '2026-11-24T08:00:00Z';
  const AT = '2026-12-01T00:00:00Z';
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let sample: SvcRun;
  const run = (args: string[]): SvcRun => {
    const r = svc(args, { cwd: dir, env });
    if (r.status !== 0) throw new Error(`svc ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r;
  };
  const citedIn = (text: string) => CITED.filter((id) => text.includes(id));

  beforeAll(() => {
    dir = join(tmp, 'cited');
    mkdirSync(join(dir, 'infra', 'k8s'), { recursive: true });
    const file = join(tmp, 'rules-without-cited.json');
    writeFileSync(file, JSON.stringify(without(JSON.parse(readFileSync(LATEST, 'utf8')), CITED)));
    env = { SVC_HOME: join(dir, '.svc'), SVC_FEDRAMP_RULES: file, SVC_CACHE_DIR: join(tmp, 'cache'), SOURCE_DATE_EPOCH: String(Date.parse(AT) / 1000) };
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: PROFILE }));
    writeFileSync(
      join(dir, 'infra', 'k8s', 'app.yaml'),
      'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny-all\n  namespace: prod\nspec:\n  podSelector: {}\n',
    );
    writeFileSync(
      join(dir, 'report.json'),
      JSON.stringify({
        ...REPORT,
        generated_at: OBSERVED,
        results: REPORT.results.map((r) => ({ ...r, observed_at: OBSERVED })),
        vulnerabilities: [
          {
            id: 'VULN-0a1b2c3d4e5f60718293',
            source: 'Prowler',
            finding_id: 'vpc_flow_logs_enabled',
            resource: 'vpc-0a1b',
            title: 'VPC Flow Logs are not enabled',
            scanner_severity: 'medium',
            detected_at: OBSERVED,
            kind: 'configuration',
          },
        ],
      }),
    );
    run(['conmon', 'process', 'report.json', '--now', OBSERVED]);
    run(['substrate', 'walk', 'infra', '--out', 'snapshot.json']);
    sample = run(['fedramp', 'package', '--out-dir', 'pkg-sample', '--now', AT]);
    run(['fedramp', 'ocr', '--to', '2026-11-30', '--now', AT]);
  });

  it('a package before any OCR is recorded: its sample OCR and the note say so, citing none of them', () => {
    expect(sample.stdout).toContain('\nNote: ocr-sample.json is a sample built from the run store: no OCR is recorded for this period\n');
    expect(
      citedIn(
        sample.stdout + readFileSync(join(dir, 'pkg-sample', 'ocr-sample.json'), 'utf8') + readFileSync(join(dir, 'pkg-sample', 'ocr-sample.md'), 'utf8'),
      ),
    ).toEqual([]);
  });

  it('the package, its twins and the command cite none of them', () => {
    const r = run(['fedramp', 'package', '--out-dir', 'pkg', '--substrate', 'snapshot.json', '--redact', '--now', AT]);
    const files = readdirSync(join(dir, 'pkg')).filter((f) => /\.(json|md)$/.test(f));
    expect(files).toEqual(
      expect.arrayContaining(['cpo.md', 'information-resources.json', 'information-flows.md', 'ocr.json', 'vdr.md', 'vulnerability-history.md']),
    );
    expect(files.map((f) => [f, citedIn(readFileSync(join(dir, 'pkg', f), 'utf8'))]).filter(([, ids]) => ids.length > 0)).toEqual([]);
    expect(citedIn(r.stdout + r.stderr)).toEqual([]);
  });

  it('the monthly vulnerability report, Markdown and HTML, and an incident report cite none of them', () => {
    for (const format of ['md', 'html'])
      expect([format, citedIn(run(['vuln', 'report', '--format', format, '--redact', '--now', AT]).stdout)]).toEqual([format, []]);
    run([
      'fedramp',
      'incident',
      '--type',
      'initial',
      '--summary',
      'Credential stuffing against the admin portal',
      '--n',
      '4',
      '--occurred-at',
      '2026-11-24T23:00:00Z',
      '--draft',
      '--now',
      AT,
      '--out',
      'incident.json',
    ]);
    expect(citedIn(readFileSync(join(dir, 'incident.json'), 'utf8') + readFileSync(join(dir, 'incident.md'), 'utf8'))).toEqual([]);
  });

  it('svc-api serves every trust center document, JSON and page, and the access report, citing none of them', async () => {
    const api = buildApi(proxyConfig(), {
      env: { ...process.env, ...env, SVC_STORE: '', SVC_SIGNING_KEY: '', SVC_CONFIG: '' },
      cwd: dir,
      logger: capturingLogger().logger,
    });
    const served: string[] = [];
    for (const route of ['public', 'cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history', 'snapshots', 'sdr?snapshot=2026-11-30', 'access']) {
      for (const accept of ['application/json', 'text/html']) {
        if (route === 'access' && accept === 'text/html') continue;
        const res = await request(api.handler)
          .get(`/fedramp/${route}`)
          .set('X-Forwarded-User', route === 'access' ? 'bob@SVC.TEST' : 'alice@SVC.TEST')
          .set('Accept', accept);
        served.push(`${route} ${accept} ${res.status} ${citedIn(res.text).join(' ')}`.trim());
      }
    }
    expect(served.filter((s) => !/ 200$/.test(s))).toEqual([]);
    const metrics = await request(api.handler).get('/fedramp/metrics').set('X-Forwarded-User', 'alice@SVC.TEST').set('Accept', 'application/json');
    expect([metrics.status, metrics.body.detail]).toEqual([404, 'CR26 2026.10.05.01 holds no SDR-CSX-KMT: the SDR carries no KSI metrics under it']);
    const access = await request(api.handler).get('/fedramp/access').set('X-Forwarded-User', 'bob@SVC.TEST').set('Accept', 'application/json');
    expect([access.body.rules, access.body.notify_fedramp]).toEqual([[], undefined]);
    const snapshots = await request(api.handler).get('/fedramp/snapshots').set('X-Forwarded-User', 'alice@SVC.TEST').set('Accept', 'application/json');
    expect(snapshots.body.snapshots.map((s: { snapshot: string }) => s.snapshot)).toEqual(['2026-11-30']);
  });
});
