import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyDsseEnvelope } from '../support/dsse-verifier';
import { fedrampSchemaErrors, FEDRAMP_SCHEMAS } from '../support/fedramp-schemas';
import { FIXTURES, svc, type SvcRun } from '../support/run-svc';
import { PACKAGE_PROFILE, prowlerPackageReport as report } from '../support/fedramp-profile';

const EPOCH = String(Date.parse('2026-11-20T09:00:00Z') / 1000);
const NOW = '2026-11-25T00:00:00Z';
const PROFILE = PACKAGE_PROFILE;
const VULNERABILITY_FILES = ['vdr.json', 'vdr.md', 'avi.json', 'avi.md', 'vulnerability-history.json', 'vulnerability-history.md'];
const FILES = [
  'cpo.json',
  'cpo.md',
  'manifest.json',
  'ocr-sample.json',
  'ocr-sample.md',
  'package.dsse.json',
  'sdr.json',
  'sdr.md',
  ...VULNERABILITY_FILES,
].sort();

let tmp: string;
let work: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-fedramp-package-'));
  work = join(tmp, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'svc.config.json'), JSON.stringify({ fedramp: PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
  // A report of CR26 ids observed the day before --now, and one of the same KSIs half a year old.
  writeFileSync(
    join(work, 'fresh.json'),
    JSON.stringify(report('2026-11-24T08:00:00Z', { ksi_id: 'KSI-AC-02', status: 'WARN', observed_at: '2026-11-24T08:00:00Z' })),
  );
  writeFileSync(join(work, 'old.json'), JSON.stringify(report('2026-05-04T08:00:00Z')));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function inWork(args: string[]): SvcRun {
  return svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc'), SOURCE_DATE_EPOCH: EPOCH, SVC_CACHE_DIR: join(tmp, 'cache') } });
}
const at = (...parts: string[]) => join(work, ...parts);
const sha256 = (...parts: string[]) =>
  createHash('sha256')
    .update(readFileSync(at(...parts)))
    .digest('hex');
const read = (...parts: string[]) => JSON.parse(readFileSync(at(...parts), 'utf8'));

describe('svc fedramp package', () => {
  let run: SvcRun;
  beforeAll(() => {
    expect(inWork(['conmon', 'process', 'fresh.json']).status).toBe(0);
    run = inWork(['fedramp', 'package', 'fresh.json', '--out-dir', 'pkg', '--now', NOW]);
  });

  it('writes every file, says each digest and the signature, and that the OCR is a sample', () => {
    const lines = run.stdout.split('\n');
    expect(run.status).toBe(0);
    expect(lines[0]).toBe(`Package written to pkg (14 files, aggregate ${read('pkg', 'manifest.json').aggregate_hash})`);
    expect(lines.slice(1, 14)).toEqual(
      ['cpo.json', 'cpo.md', 'sdr.json', 'sdr.md', 'ocr-sample.json', 'ocr-sample.md', ...VULNERABILITY_FILES, 'manifest.json'].map(
        (f) => `- ${f} sha256:${sha256('pkg', f)}`,
      ),
    );
    expect(lines[14]).toMatch(/^Signed package\.dsse\.json \(ES256, key [\w-]{43}\)$/);
    expect(lines.slice(15)).toEqual([
      'SDR: 155 rules (no statement supplied 146), 46 KSIs (no evidence 36)',
      `Validated against FedRAMP's schemas in ${FEDRAMP_SCHEMAS}`,
      "Judged: fresh.json, the run store's state",
      'Note: ocr-sample.json is a sample built from the run store: no OCR is recorded for this period (FRC-CSO-PKG asks for a real or example OCR)',
      '',
    ]);
    expect(readdirSync(at('pkg')).sort()).toEqual(FILES);
  });

  it("holds documents valid against FedRAMP's schemas (an independent validator), the OCR marked as a sample", () => {
    expect(fedrampSchemaErrors('cpo', read('pkg', 'cpo.json'))).toEqual([]);
    expect(fedrampSchemaErrors('sdr', read('pkg', 'sdr.json'))).toEqual([]);
    const ocr = read('pkg', 'ocr-sample.json');
    expect(fedrampSchemaErrors('ocr', ocr)).toEqual([]);
    expect(ocr).toMatchObject({
      sample: true,
      certificationPackageOverviewUri: PROFILE.package_uri,
      reportPeriod: { from: '2026-08-26', to: '2026-11-25' },
      plannedCertificationDataChanges: { planningHorizonThrough: '2027-02-25', changes: [] },
      activeAgencies: ['Department of Examples'],
      reportableIncidents: { incidents: [] },
    });
    expect(read('pkg', 'cpo.json').serviceIdentification.fedRampPackageId).toBe('FR2611250001');
    expect(readFileSync(at('pkg', 'ocr-sample.md'), 'utf8')).toContain('# Ongoing Certification Report (SAMPLE)');
  });

  it('holds the VDR and AVI of the month before --now and the historical activity from the vulnerability register, valid and with twins', () => {
    const vdr = read('pkg', 'vdr.json');
    expect(fedrampSchemaErrors('vdr', vdr)).toEqual([]);
    expect(fedrampSchemaErrors('avi', read('pkg', 'avi.json'))).toEqual([]);
    const history = read('pkg', 'vulnerability-history.json');
    expect(fedrampSchemaErrors('history', history)).toEqual([]);
    expect(vdr.reportPeriod).toEqual({ from: '2026-10-26T00:00:00Z', to: NOW });
    expect(vdr.vulnerabilities).toEqual([
      {
        providerTrackingId: `VG-${createHash('sha256').update('vpc_flow_logs_enabled').digest('hex').slice(0, 16)}`,
        detection: { detectedAt: '2026-11-24T08:00:00Z', detectionSource: 'Prowler' },
        vulnerabilityDescription: 'vpc_flow_logs_enabled: VPC Flow Logs are not enabled (on 1 resource: vpc-0a1b)',
        potentialAgencyImpact: expect.stringMatching(/^N3: /),
        evaluationCompletedAt: '2026-11-24T08:00:00Z',
        isInternetReachable: false,
        isLikelyExploitable: false,
        currentRating: 3,
        overdueStatus: { isOverdue: false },
      },
    ]);
    expect(history).toEqual({
      certificationPackageOverviewUri: PROFILE.package_uri,
      generatedAt: NOW,
      activeVulnerabilities: vdr.vulnerabilities,
      acceptedVulnerabilities: [],
    });
    const twin = readFileSync(at('pkg', 'vdr.md'), 'utf8').split('\n');
    expect(twin.slice(0, 3)).toEqual(['# Vulnerability Detail Report', '', '- FedRAMP ID: FR2611250001']);
    expect(twin).toContain(
      `| ${vdr.vulnerabilities[0].providerTrackingId} | vpc_flow_logs_enabled: VPC Flow Logs are not enabled (on 1 resource: vpc-0a1b) | 2026-11-24T08:00:00Z (Prowler) | 2026-11-24T08:00:00Z | no | no | N3 | no |  |`,
    );
    expect(readFileSync(at('pkg', 'avi.md'), 'utf8')).toContain('\n## Accepted vulnerabilities (0)\n\nNone.\n');
  });

  it('hashes resource names in the vulnerability documents with --redact (VER-RPT-NID)', () => {
    expect(inWork(['fedramp', 'package', 'fresh.json', '--out-dir', 'pkg-redacted', '--redact', '--now', NOW]).status).toBe(0);
    const hashed = `resource-${createHash('sha256').update('vpc-0a1b').digest('hex').slice(0, 12)}`;
    expect(read('pkg-redacted', 'vdr.json').vulnerabilities[0].vulnerabilityDescription).toBe(
      `vpc_flow_logs_enabled: VPC Flow Logs are not enabled (on 1 resource: ${hashed})`,
    );
    for (const f of VULNERABILITY_FILES) expect([f, readFileSync(at('pkg-redacted', f), 'utf8').includes('vpc-0a1b')]).toEqual([f, false]);
  });

  it('signs an in-toto Statement naming every file with its digest; the envelope verifies with standard DSSE tooling', () => {
    const { payload } = verifyDsseEnvelope(readFileSync(at('pkg', 'package.dsse.json'), 'utf8'));
    const statement = JSON.parse(payload.toString('utf8'));
    expect(statement.subject).toEqual(FILES.filter((f) => f !== 'package.dsse.json').map((name) => ({ name, digest: { sha256: sha256('pkg', name) } })));
    expect(statement.predicate).toMatchObject({
      fedRampPackageId: 'FR2611250001',
      rulesVersion: '2026.10.05.01',
      type: '20x',
      class: 'B',
      generatedAt: NOW,
      initial: false,
      sampleOcr: true,
    });
  });

  it('is byte-identical when written again, but for the signature (its payload is the same)', () => {
    expect(inWork(['fedramp', 'package', 'fresh.json', '--out-dir', 'pkg-again', '--now', NOW]).status).toBe(0);
    for (const f of FILES.filter((name) => name !== 'package.dsse.json')) expect([f, sha256('pkg-again', f)]).toEqual([f, sha256('pkg', f)]);
    expect(read('pkg-again', 'package.dsse.json').payload).toBe(read('pkg', 'package.dsse.json').payload);
  });

  it('verifies with ir validate (exit 0)', () => {
    expect(inWork(['ir', 'validate', 'pkg'])).toEqual({
      status: 0,
      stderr: '',
      stdout: `FedRAMP certification package pkg verified (FR2611250001, ${NOW})\nFiles: 14 (aggregate ${read('pkg', 'manifest.json').aggregate_hash})\nSignature: ES256 by key ${read('pkg', 'package.dsse.json').signatures[0].keyid}\n`,
    });
  });

  it.each([
    [
      'a changed document',
      (d: string) => writeFileSync(join(d, 'sdr.json'), readFileSync(join(d, 'sdr.json'), 'utf8').replace('Implemented', 'Implemented ')),
      /^Error: .*\/sdr\.json: sha256 is sha256:[0-9a-f]{64}, manifest\.json says sha256:[0-9a-f]{64}; the package was changed after it was signed\n$/,
    ],
    ['a missing twin', (d: string) => rmSync(join(d, 'cpo.md')), /^Error: .*\/cpo\.md: missing; the package is incomplete\n$/],
    [
      'a manifest rewritten to match a changed file',
      (d: string) => {
        writeFileSync(join(d, 'cpo.md'), 'forged\n');
        const m = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
        m.files['cpo.md'].sha256 = `sha256:${createHash('sha256').update('forged\n').digest('hex')}`;
        writeFileSync(join(d, 'manifest.json'), JSON.stringify(m, null, 2));
      },
      /^Error: .*\/manifest\.json: sha256 is sha256:[0-9a-f]{64}, the signed statement says sha256:[0-9a-f]{64}; the package was changed after it was signed\n$/,
    ],
    [
      'an added file',
      (d: string) => writeFileSync(join(d, 'extra.json'), '{}'),
      /^Error: .*\/extra\.json: not part of the package \(neither manifest\.json nor the signed statement names it\); the package was changed after it was signed\n$/,
    ],
    [
      'a forged signature',
      (d: string) => {
        const e = JSON.parse(readFileSync(join(d, 'package.dsse.json'), 'utf8'));
        e.signatures[0].sig = Buffer.from('forged').toString('base64');
        writeFileSync(join(d, 'package.dsse.json'), JSON.stringify(e));
      },
      /^Error: .*\/package\.dsse\.json: the ES256 signature does not verify with key [\w-]{43}; the package was changed after it was signed\n$/,
    ],
  ])('finds %s (exit 4)', (name, change, message) => {
    const copy = at(`pkg-${name.replace(/\W+/g, '-')}`);
    cpSync(at('pkg'), copy, { recursive: true });
    change(copy);
    const result = inWork(['ir', 'validate', copy]);
    expect([result.status, result.stdout]).toEqual([4, '']);
    expect(result.stderr).toMatch(message);
  });

  it("records in manifest.json, for each CR26 document, the $schemaVersion and sha256 of FedRAMP's schema it was validated against", () => {
    const manifest = read('pkg', 'manifest.json');
    // The directory of fedramp_schemas: FedRAMP's first generation (2026-07-15), whose file names say 2026-06-24 as all do.
    expect(manifest.schemas).toEqual({
      definitions: {
        type: 'definitions',
        file: 'fedramp-common-definitions-schema-2026-06-24.json',
        $schemaVersion: '0.1.1',
        sha256: 'sha256:b6cffd3632ba524cc5a5e44f6c62e6fdcae7993221e558d32761f15d212117c1',
      },
    });
    expect(manifest.files['sdr.json'].schema).toEqual({
      type: 'sdr',
      file: 'fedramp-security-decision-record-schema-2026-06-24.json',
      $schemaVersion: '1.0.0',
      sha256: 'sha256:d598637cd4bb0f52425d7186ddc6f9463dcdda02734533623322e031d9b97b1a',
    });
    expect(manifest.files['sdr.md'].schema).toBeUndefined();
  });

  it('with no --schemas, environment or config: validated against the newest schemas svc carries (2026-10-08), each recorded', () => {
    const plain = at('carried');
    mkdirSync(plain);
    writeFileSync(join(plain, 'svc.config.json'), JSON.stringify({ fedramp: PROFILE }));
    const inPlain = (args: string[]) =>
      svc(args, { cwd: plain, env: { SVC_HOME: join(plain, '.svc'), SOURCE_DATE_EPOCH: EPOCH, SVC_CACHE_DIR: join(tmp, 'cache'), SVC_FEDRAMP_SCHEMAS: '' } });
    expect(inPlain(['conmon', 'process', at('fresh.json')]).status).toBe(0);
    const result = inPlain(['fedramp', 'package', '--out-dir', 'pkg', '--now', NOW]);
    expect([result.status, result.stderr]).toEqual([0, expect.stringMatching(/^Warning: no signing key given .*\n$/)]);
    expect(result.stdout).toContain(
      "\nValidated against FedRAMP's schemas of 2026-10-08, carried by svc (manifest.json records each document's $schemaVersion and sha256)\n",
    );
    expect(result.stdout).not.toContain('not validated');
    const manifest = JSON.parse(readFileSync(join(plain, 'pkg', 'manifest.json'), 'utf8'));
    const schema = (type: string, stem: string, version: string, hex: string) => ({
      type,
      file: `fedramp-${stem}-schema-2026-06-24.json`,
      $schemaVersion: version,
      sha256: `sha256:${hex}`,
    });
    expect(manifest.schemas).toEqual({
      carried: '2026-10-08',
      definitions: schema('definitions', 'common-definitions', '0.4.0', '62c59d20731cbbd3151951c6772a5cd75439f338dc4f7f1adb522dcfc7424cc9'),
    });
    const judged = Object.fromEntries(
      Object.entries(manifest.files as Record<string, { schema?: unknown }>).flatMap(([name, f]) => (f.schema === undefined ? [] : [[name, f.schema]])),
    );
    expect(judged).toEqual({
      'avi.json': schema('avi', 'accepted-vulnerability-info', '0.1.1', '2c17ba6e21abd1951e29cf59d90e69d39468c01eb1ad69a6c690233e196f68e2'),
      'cpo.json': schema('cpo', 'certification-package-overview', '0.1.6', '23fa88449e501b7a07ca51cbcdd0169e1072ea82d927c4c13380858035b79379'),
      'ocr-sample.json': schema('ocr', 'ongoing-certification-report', '0.2.1', 'c67f4e79a107f106abc2dce50043e798f9708e80a5df2c52e41ed700a3a542c8'),
      'sdr.json': schema('sdr', 'security-decision-record', '1.1.1', '6a6d7dca1a9ae0031c06df6213bf5c5631e9b9b5fb81c050403cfd723484be86'),
      'vdr.json': schema('vdr', 'vulnerability-detail-report', '0.1.1', '92b2918106c0117ba84d14a5da33762dbb5df2acbf5303a806f6d4bbea98f60b'),
      'vulnerability-history.json': schema('history', 'historical-ver-activity', '0.1.1', '51011860138687f25b858b840eefe2b077f31a183ba5d625c461ac296c58df9f'),
    });
    const sdr = JSON.parse(readFileSync(join(plain, 'pkg', 'sdr.json'), 'utf8'));
    expect(JSON.stringify(sdr.fedRampRequirements.find((r: { frrId?: string }) => JSON.stringify(r).includes('FRC-CSO-JSN')))).toContain(
      "against FedRAMP's schema (fedramp-security-decision-record-schema-2026-06-24.json, $schemaVersion 1.1.1, sha256:6a6d7dca1a9ae0031c06df6213bf5c5631e9b9b5fb81c050403cfd723484be86).",
    );
    expect(inPlain(['ir', 'validate', 'pkg']).status).toBe(0);
  });

  it('writes the information resources and flows with --substrate, listed and signed like the rest', () => {
    expect(inWork(['substrate', 'walk', join(FIXTURES, 'substrate', 'tree-a'), '--out', 'snapshot.json']).status).toBe(0);
    const result = inWork(['fedramp', 'package', 'fresh.json', '--out-dir', 'pkg-substrate', '--substrate', 'snapshot.json', '--now', NOW]);
    expect(result.status).toBe(0);
    expect(Object.keys(read('pkg-substrate', 'manifest.json').files)).toEqual(
      [
        'cpo.json',
        'cpo.md',
        'information-flows.json',
        'information-flows.md',
        'information-resources.json',
        'information-resources.md',
        'ocr-sample.json',
        'ocr-sample.md',
        'sdr.json',
        'sdr.md',
        ...VULNERABILITY_FILES,
      ].sort(),
    );
    expect(inWork(['ir', 'validate', 'pkg-substrate']).status).toBe(0);
  });
});

describe('svc fedramp package --initial (FRC-APP-FCP)', () => {
  it('refuses statuses older than 7 days, naming each, and writes nothing (exit 1)', () => {
    // A store whose state is the old run alone, packaged as the store's state (no input).
    const inOld = (args: string[]) =>
      svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc-old'), SOURCE_DATE_EPOCH: EPOCH, SVC_CACHE_DIR: join(tmp, 'cache') } });
    expect(inOld(['conmon', 'process', 'old.json']).status).toBe(0);
    const result = inOld(['fedramp', 'package', '--out-dir', 'pkg-initial-old', '--initial', '--now', NOW]);
    expect(result).toEqual({
      status: 1,
      stderr: '',
      stdout: [
        'Refusing an initial package (FRC-APP-FCP): 5 statuses are older than 7 days:',
        '- the run is as of 2026-05-04T08:00:00Z, before 2026-11-18T00:00:00Z',
        '- KSI-CNA-RNT: 1 of 1 contributing result older than 2026-11-18, the oldest observed 2026-05-04 (Prowler result for KSI-CNA-RNT)',
        '- KSI-IAM-APM: 1 of 1 contributing result older than 2026-11-18, the oldest observed 2026-05-04 (Prowler result for KSI-IAM-APM)',
        // The register is the old run's own (before, an input was judged against another run's register).
        '- the vulnerability register is of run 1, as of 2026-05-04T08:00:00Z, before 2026-11-18T00:00:00Z',
        '- vulnerabilities: 1 of 1 open groups last evaluated before 2026-11-18T00:00:00Z, the oldest VG-3d4882887af28957 (vpc_flow_logs_enabled) on 2026-05-04T08:00:00Z',
        'Nothing was written to pkg-initial-old; run the scans again, record the run, and write the package',
        '',
      ].join('\n'),
    });
    expect(existsSync(at('pkg-initial-old'))).toBe(false);
  });

  it("refuses to package an input that is not the run store's state: its SDR would judge one report, its VDR the store (exit 2, nothing written)", () => {
    const result = inWork(['fedramp', 'package', 'old.json', '--out-dir', 'pkg-mixed', '--now', NOW]);
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "Error: old.json is not the run store's state (1 source: Prowler), whose vulnerability register the package's VDR and AVI report; record it (svc conmon process old.json) and run svc fedramp package without an input to package the store's state\n",
    });
    expect(existsSync(at('pkg-mixed'))).toBe(false);
  });

  it('refuses a vulnerability register judged from an old run and open vulnerabilities not evaluated within 7 days', () => {
    const result = inWork(['fedramp', 'package', 'fresh.json', '--out-dir', 'pkg-initial-later', '--initial', '--now', '2026-12-05T00:00:00Z']);
    expect([result.status, result.stderr]).toEqual([1, '']);
    expect(result.stdout.split('\n').filter((l) => l.startsWith('- the') || l.startsWith('- vulnerabilities'))).toEqual([
      '- the run is as of 2026-11-24T08:00:00Z, before 2026-11-28T00:00:00Z',
      '- the vulnerability register is of run 1, as of 2026-11-24T08:00:00Z, before 2026-11-28T00:00:00Z',
      `- vulnerabilities: 1 of 1 open groups last evaluated before 2026-11-28T00:00:00Z, the oldest VG-${createHash('sha256').update('vpc_flow_logs_enabled').digest('hex').slice(0, 16)} (vpc_flow_logs_enabled) on 2026-11-24T08:00:00Z`,
    ]);
    expect(existsSync(at('pkg-initial-later'))).toBe(false);
  });

  it('writes an initial package whose statuses are fresh, and says so in the signed statement', () => {
    expect(inWork(['fedramp', 'package', 'fresh.json', '--out-dir', 'pkg-initial', '--initial', '--now', NOW]).status).toBe(0);
    expect(read('pkg-initial', 'manifest.json').package.initial).toBe(true);
  });

  it('refuses a profile without the CPO keys before writing anything (exit 3)', () => {
    const dir = at('no-cpo');
    mkdirSync(dir);
    const { cpo: _cpo, ...rest } = PROFILE;
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: rest }));
    const result = svc(['fedramp', 'package', at('fresh.json'), '--out-dir', 'pkg'], { cwd: dir, env: { SVC_HOME: join(dir, '.svc') } });
    expect([result.status, result.stdout]).toEqual([3, '']);
    expect(result.stderr).toMatch(/^Error: .*svc\.config\.json: fedramp\.cpo: missing; svc fedramp package needs it: /);
    expect(existsSync(join(dir, 'pkg'))).toBe(false);
  });
});
