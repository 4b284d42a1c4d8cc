import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Cr26DocumentType } from '../../src/domain/fedramp/cr26-documents';
import { FEDRAMP_SCHEMA_GENERATIONS, fedrampSchemaErrors, judgedBy } from '../support/fedramp-schemas';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';
import request from 'supertest';
import { buildApi } from '../../src/interfaces/http/server';
import { capturingLogger, proxyConfig } from '../support/api';

/*
 * Issue 34: the whole CR26 walk (rules, readiness, SDR, CPO, OCR, VDR, AVI, history and the package, an SCN, an
 * incident report) once per FedRAMP rules release in ../shared and once per schema generation, each document checked
 * by the independent validator against the generation it was written for. Any release from 2026.07.14.01 on works
 * through SVC_FEDRAMP_RULES alone.
 */

const RELEASES = ['2026.07.14.01', '2026.09.13.02', '2026.10.05.01'];
const NEWEST_RELEASE = RELEASES[RELEASES.length - 1];
const NEWEST_GENERATION = FEDRAMP_SCHEMA_GENERATIONS[FEDRAMP_SCHEMA_GENERATIONS.length - 1];
const rulesFile = (release: string) => join(REFERENCE, 'fedramp', `fedramp-consolidated-rules.${release}.json`);
const NOW = '2026-11-25T00:00:00Z';
const OBSERVED = '2026-11-24T08:00:00Z';

/** Each release with the newest generation, then each older generation with the newest release. */
const WALKS = [
  ...RELEASES.map((release) => ({ release, schemas: NEWEST_GENERATION })),
  ...FEDRAMP_SCHEMA_GENERATIONS.filter((g) => g !== NEWEST_GENERATION).map((schemas) => ({ release: NEWEST_RELEASE, schemas })),
];

const PACKAGE_DOCUMENTS: [string, Cr26DocumentType][] = [
  ['cpo.json', 'cpo'],
  ['sdr.json', 'sdr'],
  ['ocr-sample.json', 'ocr'],
  ['vdr.json', 'vdr'],
  ['avi.json', 'avi'],
  ['vulnerability-history.json', 'history'],
];

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-fedramp-releases-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(WALKS)('the CR26 walk with rules $release and schemas from $schemas', ({ release, schemas }) => {
  const work = () => join(tmp, `${release}-${basename(schemas)}`);
  const at = (...parts: string[]) => join(work(), ...parts);
  const read = (...parts: string[]) => JSON.parse(readFileSync(at(...parts), 'utf8')) as Record<string, unknown>;
  const run = (args: string[]): SvcRun =>
    svc(args, {
      cwd: work(),
      env: {
        SVC_HOME: at('.svc'),
        SVC_FEDRAMP_RULES: rulesFile(release),
        SVC_FEDRAMP_SCHEMAS: schemas,
        SVC_CACHE_DIR: join(tmp, 'cache'),
        SOURCE_DATE_EPOCH: String(Date.parse(NOW) / 1000),
      },
    });
  const ok = (args: string[]): SvcRun => {
    const r = run(args);
    if (r.status !== 0) throw new Error(`svc ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r;
  };

  beforeAll(() => {
    rmSync(work(), { recursive: true, force: true });
    mkdirSync(work(), { recursive: true });
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: { ...PACKAGE_PROFILE, advisors: ['Example Advisory LLC'] } }));
    writeFileSync(
      at('report.json'),
      JSON.stringify({
        schema_version: '1',
        generated_at: OBSERVED,
        source: { tool: 'Prowler', version: '5.0.0' },
        results: [
          { ksi_id: 'KSI-IAM-APM', status: 'PASS', observed_at: OBSERVED, checks: [{ id: 'iam_root_mfa_enabled', status: 'PASS' }] },
          { ksi_id: 'KSI-CNA-RNT', status: 'FAIL', observed_at: OBSERVED, checks: [{ id: 'vpc_flow_logs_enabled', status: 'FAIL' }] },
        ],
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
    ok(['conmon', 'process', 'report.json', '--now', OBSERVED]);
  });

  it('names the release in use in rules and readiness', () => {
    expect((JSON.parse(ok(['fedramp', 'rules', '--json']).stdout) as { release: { version: string } }).release.version).toBe(release);
    expect(ok(['fedramp', 'rules']).stdout.split('\n')[0]).toMatch(new RegExp(`^CR26 ${release.replace(/\./g, '\\.')}, 20x Class B, `));
    const readiness = run(['fedramp', 'readiness', '--json', '--now', NOW]);
    expect([0, 1]).toContain(readiness.status);
    expect((JSON.parse(readiness.stdout) as { rules_version: string }).rules_version).toBe(release);
  });

  it("writes a package whose every document the generation's schemas accept", () => {
    const r = ok(['fedramp', 'package', '--out-dir', 'pkg', '--now', NOW]);
    expect(r.stdout).not.toContain('not validated');
    // The CPO's advisors: written where the generation's CPO schema declares them, else the package says it left them out.
    expect(r.stdout.includes('\nNote: fedramp.advisors is not written: ')).toBe(schemas !== NEWEST_GENERATION);
    for (const [file, type] of PACKAGE_DOCUMENTS) expect([file, fedrampSchemaErrors(type, read('pkg', file), schemas)]).toEqual([file, []]);
  });

  it("writes the CPO's advisors where the generation's CPO schema declares them (0.1.6 on), else says it left them out", () => {
    const r = ok(['fedramp', 'cpo', '--out', 'cpo.json']);
    const cpo = read('cpo.json');
    expect(fedrampSchemaErrors('cpo', cpo, schemas)).toEqual([]);
    if (schemas === NEWEST_GENERATION) {
      expect(cpo.advisors).toEqual([{ name: 'Example Advisory LLC' }]);
      expect(r.stdout).not.toContain('Note:');
    } else {
      expect(cpo).not.toHaveProperty('advisors');
      expect(r.stdout).toMatch(
        /\nNote: fedramp\.advisors is not written: fedramp-certification-package-overview-schema-2026-06-24\.json \(\$schemaVersion 0\.1\.[24]\) declares no advisors \(CPO 0\.1\.6 does\)\n/,
      );
    }
  });

  it("serves the trust center's documents, each one the generation's schemas accept", async () => {
    const api = buildApi(proxyConfig(), {
      env: {
        ...process.env,
        SVC_HOME: at('.svc'),
        SVC_STORE: '',
        SVC_SIGNING_KEY: '',
        SVC_CONFIG: '',
        SVC_FEDRAMP_RULES: rulesFile(release),
        SVC_FEDRAMP_SCHEMAS: schemas,
        SVC_CACHE_DIR: join(tmp, 'cache'),
      },
      cwd: work(),
      logger: capturingLogger().logger,
    });
    const served: [string, Cr26DocumentType][] = [
      ['public', 'cpo'],
      ['cpo', 'cpo'],
      ['sdr', 'sdr'],
      ['vdr', 'vdr'],
      ['avi', 'avi'],
      ['history', 'history'],
    ];
    for (const [route, type] of served) {
      const res = await request(api.handler).get(`/fedramp/${route}`).set('X-Forwarded-User', 'alice@SVC.TEST').set('Accept', 'application/json');
      expect([route, res.status, fedrampSchemaErrors(type, res.body, schemas)]).toEqual([route, 200, []]);
    }
  });

  it("writes an SCN and an incident report the generation's schemas accept", () => {
    const scn = JSON.parse(
      ok([
        'fedramp',
        'scn',
        '--now',
        NOW,
        '--type',
        'adaptive',
        '--summary',
        'Rotate the TLS certificates',
        '--start',
        '2026-12-01',
        '--finish',
        '2026-12-02',
        '--out',
        'scn.json',
        '--json',
      ]).stdout,
    ) as { validated: { judged_by: unknown } };
    expect(fedrampSchemaErrors('scn', read('scn.json'), schemas)).toEqual([]);
    expect(scn.validated.judged_by).toEqual(judgedBy(schemas, 'scn'));
    const incident = JSON.parse(
      ok([
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
        NOW,
        '--out',
        'incident.json',
        '--json',
      ]).stdout,
    ) as { validation: { judged_by: unknown } };
    expect(fedrampSchemaErrors('incident', read('incident.json'), schemas)).toEqual([]);
    expect(incident.validation.judged_by).toEqual(judgedBy(schemas, 'incident'));
  });
});
