import { spawnSync } from 'node:child_process';
import { createHash, createPublicKey } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSvcApi, type StartedApi } from '../support/api';
import { verifyDsseEnvelope } from '../support/dsse-verifier';
import { REFERENCE, svc } from '../support/run-svc';

/**
 * docs/walkthrough.md, step by step, as a user runs it in an empty directory with SVC_HOME there: ScubaGear raw
 * results → normalized report → auditor bundle → signed SAR → verified → conmon run → dashboards → svc-api.
 */
const SCUBA = 'ScubaResults_fa5589b7-d528-4f80.json';
const SCHEMAS = join(REFERENCE, 'oscal', 'schemas');
const MERKLE_ROOT = 'sha256:5a74a9e290000659b01be1c84bcc84ad98cb0b60fdcda2217c961ea68abc037f';
const ALICE = { 'X-Forwarded-User': 'alice@SVC.TEST' };
const BOB = { 'X-Forwarded-User': 'bob@SVC.TEST' };

describe('docs/walkthrough.md', () => {
  let work: string;
  let env: NodeJS.ProcessEnv;
  let keyid: string;
  const inWork = (args: string[]) => svc(args, { cwd: work, env });

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-walkthrough-'));
    env = { SVC_HOME: join(work, '.svc'), SOURCE_DATE_EPOCH: undefined }; // as a user runs it: the real clock
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('1. normalizes ScubaGear raw results into a report', () => {
    copyFileSync(join(REFERENCE, 'raw-samples', 'scubagear', SCUBA), join(work, SCUBA));
    expect(inWork(['adapter', 'run-baseline', SCUBA, '--out', 'report.json'])).toEqual({
      stdout:
        `Normalized ${SCUBA} (ScubaGear 1.8.0): 92 checks, 26 KSIs\nPASS: 11\nWARN: 4\nFAIL: 11\n` +
        'Checks: pass 57, fail 26, error 0, manual 0, not-applicable 9, omitted 0, incorrect 0\nUnmapped checks: 0\n' +
        'Not assessed: 4 (KSI-AC-19, KSI-AU-04, KSI-AU-11, KSI-SI-10)\nReport written to report.json\n',
      stderr: '',
      status: 0,
    });
    const report = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8'));
    expect(report.source).toMatchObject({ tool: 'ScubaGear', version: '1.8.0', tenant: 'tqhjy.onmicrosoft.com', raw_file: SCUBA });
    const { checks, ...first } = report.results[0];
    expect(first).toEqual({
      ksi_id: 'KSI-AC-02',
      status: 'FAIL',
      details: '5 of 9 checks passed; 3 failed or errored (MS.AAD.7.4v1, MS.AAD.7.5v1, MS.AAD.7.7v1); 1 not assessed.',
      observed_at: '2026-05-04T17:15:48.307Z',
      source: 'ScubaGear 1.8.0',
    });
    expect(checks).toHaveLength(9);
  });

  it('2. builds the auditor bundle and verifies it', () => {
    expect(inWork(['ir', 'auditor-bundle', 'report.json', '--out-dir', 'bundle'])).toEqual({
      stdout:
        'Building auditor bundle from report.json ...\nMapped 26 KSIs to controls and policies\nBundle written to bundle\nEvidence: 26\nActions: 26\nPOA&M: 15\n',
      stderr: '',
      status: 0,
    });
    expect(readdirSync(join(work, 'bundle')).sort()).toEqual([
      'evidence-bundle.json',
      'governance-report.md',
      'lineage.json',
      'manifest.json',
      'poam.json',
      'ssp-narrative.md',
    ]);
    const validate = inWork(['ir', 'validate', 'bundle']);
    expect(validate.stdout).toMatch(
      new RegExp(`^Bundle bundle verified\\nFiles: 6 \\(aggregate sha256:[0-9a-f]{64}\\)\\nEntries: 26 \\(Merkle root ${MERKLE_ROOT}\\)\\n$`),
    );
    expect(validate.status).toBe(0);
  });

  it('3-4. signs the SAR with a new EC P-256 key from openssl, and verifies it against NIST schemas; the SSP validates too', () => {
    const openssl = spawnSync('openssl', ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'assessor.pem'], {
      cwd: work,
      encoding: 'utf8',
    });
    expect(openssl.status).toBe(0);
    const jwk = createPublicKey(readFileSync(join(work, 'assessor.pem'))).export({ format: 'jwk' });
    keyid = createHash('sha256')
      .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
      .digest('base64url');

    const sign = inWork(['ir', 'generate-sar', 'bundle', '--out', 'sar.json', '--key', 'assessor.pem']);
    const digest = `sha256:${createHash('sha256')
      .update(readFileSync(join(work, 'sar.json')))
      .digest('hex')}`;
    expect(sign).toEqual({
      stdout: `SAR written to sar.json (${digest})\nSignature written to sar.json.dsse.json (ES256, key ${keyid})\n`,
      stderr: '',
      status: 0,
    });

    expect(inWork(['ir', 'validate', 'sar.json', '--schemas', SCHEMAS])).toEqual({
      stdout: `SAR sar.json verified\nDigest: ${digest}\nSignature: ES256 by key ${keyid} (sar.json.dsse.json)\nsar.json: OSCAL 1.1.3 assessment-results, judged by the 1.1.3 schemas\nValid\n`,
      stderr: '',
      status: 0,
    });

    const ssp = inWork(['oscal', 'generate', 'bundle', '--model', 'ssp', '--out', 'ssp.json']);
    expect(ssp.stdout).toMatch(/^OSCAL SSP written to ssp\.json \(uuid [0-9a-f-]{36}\)\n$/);
    expect(inWork(['oscal', 'validate', 'ssp.json', '--schemas', SCHEMAS])).toEqual({
      stdout: 'ssp.json: OSCAL 1.1.3 system-security-plan, judged by the 1.1.3 schemas and the FedRAMP Rev 5 Moderate Baseline (its own)\nValid\n',
      stderr: '',
      status: 0,
    });
  });

  it('5. records the run in the run store under SVC_HOME, its SAR signed with the key of step 3, and sends its events', () => {
    const run = inWork(['conmon', 'process', 'bundle', '--key', 'assessor.pem', '--sink', 'ndjson:events.ndjson']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      new RegExp(
        `^Recording bundle in ${join(work, '.svc', 'store')} \\.\\.\\.\\nRecorded run 1: [0-9a-f]{12} \\(as of \\S+\\)\\nSource: ScubaGear \\(tqhjy\\.onmicrosoft\\.com\\)\\n` +
          'KSIs: 26 \\(PASS 11, WARN 4, FAIL 11\\)\\nPOA&M: 15 open \\(15 opened, 0 closed, 15 overdue\\)\\n' +
          `Drift: 0 findings \\(P1 0, P2 0, P3 0, P4 0\\)\\nEvents: 31\\n- ndjson:${join(work, 'events.ndjson')}: delivered 31\\n$`,
      ),
    );
    expect(run.status).toBe(0);
    const kinds = readFileSync(join(work, 'events.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).kind as string);
    expect(Object.fromEntries([...new Set(kinds)].map((k) => [k, kinds.filter((x) => x === k).length]))).toEqual({
      'run.recorded': 1,
      'poam.opened': 15,
      'poam.overdue': 15,
    });
  });

  it('6. writes the conmon and the run dashboards', () => {
    expect(inWork(['conmon', 'dashboard', '--out', 'conmon.html'])).toEqual({ stdout: 'Dashboard of 1 run written to conmon.html\n', stderr: '', status: 0 });
    expect(inWork(['ir', 'dashboard', 'bundle', '--out', 'dashboard.html'])).toEqual({
      stdout: 'Dashboard written to dashboard.html\n',
      stderr: '',
      status: 0,
    });
    for (const page of ['conmon.html', 'dashboard.html']) expect(readFileSync(join(work, page), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
  });

  it('7. serves the run through svc-api behind a trusted proxy: findings, manifest, and the SAR signed by the same key', async () => {
    const config = {
      host: '127.0.0.1',
      port: 0,
      auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
      roles: { auditor: ['alice@SVC.TEST'], operator: ['bob@SVC.TEST'] },
      signing_key: 'assessor.pem',
      log: { file: 'svc-api.log' },
    };
    writeFileSync(join(work, 'svc-api.json'), JSON.stringify(config, null, 2));
    let api: StartedApi | undefined;
    try {
      api = await startSvcApi(['--config', join(work, 'svc-api.json')], env);
      const get = async (path: string, headers: Record<string, string> = ALICE) => fetch(`${api!.url}${path}`, { headers });

      expect(await (await get('/health/ready', {})).json()).toEqual({ status: 'ready', checks: { store: { ok: true }, signer: { ok: true } } });
      expect(await (await get('/health/ready', BOB)).json()).toEqual({
        status: 'ready',
        checks: { store: { ok: true, detail: `${join(work, '.svc', 'store')}: 1 run` }, signer: { ok: true, detail: `ES256 key ${keyid} (file)` } },
      });

      const findings = (await (await get('/auditor/findings?status=FAIL&limit=2')).json()) as any;
      expect(findings.run).toMatchObject({ seq: 1, merkle_root: MERKLE_ROOT });
      expect(findings.items.map((f: any) => [f.ksi_id, f.status, f.action.action, f.action.severity, f.poam_id])).toEqual([
        ['KSI-AC-02', 'FAIL', 'REMEDIATE', 'Critical', 'POAM-KSI-AC-02'],
        ['KSI-AC-05', 'FAIL', 'REMEDIATE', 'Critical', 'POAM-KSI-AC-05'],
      ]);
      expect(findings.total).toBe(11);

      const manifest = (await (await get('/auditor/manifest')).json()) as any;
      const bundleManifest = JSON.parse(readFileSync(join(work, 'bundle', 'manifest.json'), 'utf8'));
      expect(manifest.counts).toEqual({ results: 26, pass: 11, warn: 4, fail: 11, mapped: 26, unmapped: 0 });
      expect(manifest.evidence_bundle).toEqual({ sha256: bundleManifest.files['evidence-bundle.json'].sha256, entries: 26, href: '/auditor/evidence' });
      expect(manifest.input.name).toBe('report.json');
      const sarEntry = manifest.artifacts.find((a: any) => a.name === 'sar.json');

      const sar = await get('/auditor/oscal/sar');
      const sarBytes = Buffer.from(await sar.arrayBuffer());
      const sarHex = createHash('sha256').update(sarBytes).digest('hex');
      expect(sarEntry).toEqual({
        name: 'sar.json',
        href: '/auditor/oscal/sar',
        media_type: 'application/json',
        sha256: `sha256:${sarHex}`,
        bytes: sarBytes.length,
      });
      expect(sar.headers.get('etag')).toBe(`"${sarHex}"`);
      expect(sar.headers.get('content-digest')).toBe(`sha-256=:${createHash('sha256').update(sarBytes).digest('base64')}:`);
      const envelope = await (await get('/auditor/oscal/sar?envelope=1')).text();
      expect(verifyDsseEnvelope(envelope).keyid).toBe(keyid);
      writeFileSync(join(work, 'served-sar.json'), sarBytes);
      writeFileSync(join(work, 'served-sar.json.dsse.json'), envelope);
      const validate = inWork(['ir', 'validate', 'served-sar.json', '--keyid', keyid, '--schemas', SCHEMAS]);
      expect(validate).toEqual({
        stdout: `SAR served-sar.json verified\nDigest: sha256:${sarHex}\nSignature: ES256 by key ${keyid} (served-sar.json.dsse.json)\nserved-sar.json: OSCAL 1.1.3 assessment-results, judged by the 1.1.3 schemas\nValid\n`,
        stderr: '',
        status: 0,
      });

      const anonymous = await get('/auditor/manifest', {});
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({
        code: 'authentication-required',
        status: 401,
        detail: 'authentication required: proxy',
        instance: '/auditor/manifest',
      });
    } finally {
      if (api) expect(await api.stop()).toBe(0);
    }
    const log = readFileSync(join(work, 'svc-api.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(log.at(-1)).toMatchObject({ route: '/auditor/manifest', status: 401, principal: null, remote: '127.0.0.1' });
    expect(log.filter((l) => l.principal === 'alice@SVC.TEST').map((l) => `${l.status} ${l.route}`)).toEqual([
      '200 /auditor/findings',
      '200 /auditor/manifest',
      '200 /auditor/oscal/sar',
      '200 /auditor/oscal/sar',
    ]);
  });
});
