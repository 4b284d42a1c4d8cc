import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyDsseEnvelope } from '../support/dsse-verifier';
import { REFERENCE, ROOT, svc } from '../support/run-svc';
import { schemaErrors } from '../support/oscal-schemas';
import { PureJsHashing } from '../fakes/pure-js-hashing';

const EXAMPLES = join(REFERENCE, 'oscal', 'examples');
const SCHEMAS = join(REFERENCE, 'oscal', 'schemas');
const REPORT = 'fixtures/sample-baseline.json';
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-oscal-'));
  env = { SVC_OSCAL_SCHEMAS: SCHEMAS, SVC_CACHE_DIR: join(tmp, 'cache'), SVC_HOME: join(tmp, 'home') };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => svc(args, { env: { ...env, ...extra } });
const at = (name: string) => join(tmp, name);
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });

describe('svc oscal validate', () => {
  it.each(readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')))('finds NIST example %s valid (exit 0)', (name) => {
    const result = run(['oscal', 'validate', join(EXAMPLES, name)]);
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toMatch(/\nValid( \(1 warning\))?\n$/);
  });

  it('prints what it judged the document by, and the verdict', () => {
    const file = join(EXAMPLES, 'ssp_ifa_ssp-example.json');
    expect(run(['oscal', 'validate', file]).stdout).toBe(
      `${file}: OSCAL 1.1.2 system-security-plan, judged by the 1.1.3 schemas and the FedRAMP Rev 5 Moderate Baseline (its own)\nValid\n`,
    );
    expect(run(['oscal', 'validate', file, '--oscal-version', '1.2.1']).stdout).toContain('judged by the 1.2.1 schemas');
  });

  it('lists each problem with its JSON path, grouped, and exits 1; --json gives the same as data', () => {
    const ssp = JSON.parse(readFileSync(join(EXAMPLES, 'ssp_ifa_ssp-example.json'), 'utf8'));
    delete ssp['system-security-plan'].metadata.title;
    ssp['system-security-plan'].metadata.roles[0].id = '1owner';
    ssp['system-security-plan'].metadata['responsible-parties'][0]['role-id'] = 'auditor';
    writeFileSync(at('broken-ssp.json'), JSON.stringify(ssp));
    const result = run(['oscal', 'validate', at('broken-ssp.json')]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      [
        `${at('broken-ssp.json')}: OSCAL 1.1.2 system-security-plan, judged by the 1.1.3 schemas and the FedRAMP Rev 5 Moderate Baseline (its own)`,
        'Schema (2 errors):',
        "  system-security-plan.metadata: must have required property 'title'",
        '  system-security-plan.metadata.roles[0].id: must be a token (a letter or _ first, then letters, digits, . - _)',
        'References (1 error):',
        '  system-security-plan.metadata.responsible-parties[0].role-id: role-id "auditor" is not defined in metadata.roles; add {"id": "auditor", "title": ...} there [role-reference-resolves]',
        'Invalid: 3 errors',
        '',
      ].join('\n'),
    );
    const json = run(['oscal', 'validate', at('broken-ssp.json'), '--json']);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ model: 'system-security-plan', schema_version: '1.1.3', valid: false, errors: 3, warnings: 0 });
    expect(JSON.parse(json.stdout).problems.map((p: { rule: string }) => p.rule)).toEqual(['required', 'pattern', 'role-reference-resolves']);
  });

  it('judges an empty title invalid by the 1.2.1 schemas only', () => {
    const sap = JSON.parse(readFileSync(join(EXAMPLES, 'ap_ifa_assessment-plan-example.json'), 'utf8'));
    sap['assessment-plan'].metadata.title = '';
    writeFileSync(at('untitled-ap.json'), JSON.stringify(sap));
    expect(run(['oscal', 'validate', at('untitled-ap.json')]).status).toBe(0);
    const strict = run(['oscal', 'validate', at('untitled-ap.json'), '--oscal-version', '1.2.1']);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toContain('  assessment-plan.metadata.title: must be a single non-empty line\n');
  });

  it('exits 3 for a file that is not JSON or not OSCAL, 5 when no schemas can be found, 2 for an unknown release', () => {
    writeFileSync(at('not-json.json'), '{"system-security-plan": {');
    const notJson = run(['oscal', 'validate', at('not-json.json')]);
    expect([notJson.status, notJson.stderr]).toEqual([3, expect.stringMatching(/^Error: .*not-json\.json: invalid JSON at line 1, column \d+/)]);
    const report = run(['oscal', 'validate', REPORT]);
    expect(report).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${REPORT}: not an OSCAL document: root keys "schema_version", "generated_at", "source", "results"; expected exactly one of catalog, profile, component-definition, system-security-plan, assessment-plan, assessment-results, plan-of-action-and-milestones, mapping-collection\n`,
    });
    // With none given or configured, NIST's release schemas svc carries judge; a directory given that holds none is exit 5.
    const carried = svc(['oscal', 'validate', join(EXAMPLES, 'ssp_ifa_ssp-example.json'), '--json'], {
      cwd: tmp,
      env: { SVC_CACHE_DIR: env.SVC_CACHE_DIR, SVC_OSCAL_SCHEMAS: '' },
    });
    expect([carried.status, carried.stderr]).toEqual([0, '']);
    expect(JSON.parse(carried.stdout)).toMatchObject({
      schema_version: '1.1.3',
      schema: join(ROOT, 'schemas', 'oscal', '1.1.3', 'oscal_ssp_schema.json'),
      schema_sha256: 'sha256:da5f452b9e7bdf85246b79ed32475cd419321eb600e6928439ae67aef5a63e53',
      schema_dir: join(ROOT, 'schemas', 'oscal'),
      schemas_carried: true,
      valid: true,
    });
    const noSchemas = svc(['oscal', 'validate', join(EXAMPLES, 'ssp_ifa_ssp-example.json'), '--schemas', join(tmp, 'no-such-dir')], {
      cwd: tmp,
      env: { SVC_CACHE_DIR: env.SVC_CACHE_DIR },
    });
    expect(noSchemas.status).toBe(5);
    expect(noSchemas.stderr).toBe(
      `Error: OSCAL schemas not found in ${join(tmp, 'no-such-dir')}: pass --schemas <dir>, set SVC_OSCAL_SCHEMAS, or set "oscal_schemas" in svc.config.json to a directory holding NIST's release schemas (1.1.3/, 1.2.1/ with oscal_*_schema.json)\n`,
    );
    const release = run(['oscal', 'validate', join(EXAMPLES, 'ssp_ifa_ssp-example.json'), '--oscal-version', '1.3.0']);
    expect([release.status, release.stderr]).toEqual([
      2,
      `Error: --oscal-version 1.3.0: ${SCHEMAS} has no such schema release; pick one of ${readdirSync(SCHEMAS).sort().join(', ')}\n`,
    ]);
  });

  it('keeps the compiled validators in the cache directory for later runs', () => {
    const cache = join(tmp, 'fresh-cache');
    const first = run(['oscal', 'validate', join(EXAMPLES, 'poam_ifa_plan-of-action-and-milestones.json')], { SVC_CACHE_DIR: cache });
    const files = readdirSync(join(cache, 'oscal')).sort();
    expect(files.filter((f) => f.endsWith('.js'))).toHaveLength(1);
    const second = run(['oscal', 'validate', join(EXAMPLES, 'poam_ifa_plan-of-action-and-milestones.json')], { SVC_CACHE_DIR: cache });
    expect(second).toEqual(first);
    expect(readdirSync(join(cache, 'oscal')).sort()).toEqual(files);
  });
});

describe('svc oscal validate-ssp', () => {
  const MINIMAL = 'fixtures/oscal/fedramp-ssp-minimal.json';

  it('passes a complete FedRAMP SSP against its own (Low) baseline', () => {
    expect(run(['oscal', 'validate-ssp', MINIMAL])).toEqual({
      status: 0,
      stderr: '',
      stdout: `${MINIMAL}: OSCAL 1.1.2 system-security-plan, judged by the 1.1.3 schemas and the FedRAMP Rev 5 Low Baseline (its own)\nValid\n`,
    });
  });

  it('reports every Moderate control the SSP lacks, folded after 25, exit 1', () => {
    const result = run(['oscal', 'validate-ssp', MINIMAL, '--baseline', 'moderate']);
    expect(result.status).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[1]).toBe('FedRAMP SSP rules (167 errors):');
    expect(lines[2]).toBe(
      '  system-security-plan.control-implementation.implemented-requirements: no implemented-requirement for ac-2.1 of FedRAMP Rev 5 Moderate Baseline; add {"uuid": "<new uuid>", "control-id": "ac-2.1"} with its implementation status [baseline-control-implemented]',
    );
    expect(lines.slice(-2)).toEqual(['  ... and 142 more [baseline-control-implemented] (--json lists every one)', 'Invalid: 167 errors']);
    expect(JSON.parse(run(['oscal', 'validate-ssp', MINIMAL, '--baseline', 'moderate', '--json']).stdout).problems).toHaveLength(167);
  });

  it('holds the NIST example to the FedRAMP rules it does not meet', () => {
    const result = run(['oscal', 'validate-ssp', join(EXAMPLES, 'ssp_ifa_ssp-example.json'), '--json']);
    expect(result.status).toBe(1);
    const rules = new Set(JSON.parse(result.stdout).problems.map((p: { rule: string }) => p.rule));
    // Its roles are its own, its system id is a UUID, its sensitivity level is a bare "moderate", and it covers one control.
    expect([...rules]).toEqual([
      ...[
        'system-owner',
        'authorizing-official',
        'system-poc-management',
        'system-poc-technical',
        'information-system-security-officer',
        'authorizing-official-poc',
      ].map((r) => `role-defined-${r}`),
      'has-system-id',
      'has-system-name-short',
      'has-security-sensitivity-level',
      'has-security-impact-level',
      'baseline-control-implemented',
    ]);
  });

  it('refuses a document that is not an SSP, exit 3', () => {
    const file = join(EXAMPLES, 'ar_ifa_assessment-results-example.json');
    expect(run(['oscal', 'validate-ssp', file])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${file}: is an OSCAL assessment-results, not a system-security-plan; validate it with svc oscal validate\n`,
    });
  });
});

describe('svc oscal generate', () => {
  it.each(['ssp', 'sar', 'sap', 'poam'])('writes a %s that svc and both schema releases accept, the same bytes every time', (model) => {
    const out = at(`generated-${model}.json`);
    const result = run(['oscal', 'generate', REPORT, '--model', model, '--out', out]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^OSCAL ${model.toUpperCase()} written to ${out} \\(uuid [0-9a-f-]{36}\\)\\n$`));
    const document = JSON.parse(readFileSync(out, 'utf8'));
    expect([schemaErrors(document, '1.1.3'), schemaErrors(document, '1.2.1')]).toEqual([[], []]);
    expect(run(['oscal', 'validate', out]).stdout).toMatch(/\nValid\n$/);
    expect(run(['oscal', 'generate', REPORT, '--model', model]).stdout).toBe(readFileSync(out, 'utf8'));
  });

  it('generates from an auditor bundle, verifying it first, with the bundle files as hashed evidence', () => {
    const bundle = at('bundle-for-oscal');
    expect(run(['ir', 'auditor-bundle', REPORT, '--out-dir', bundle]).status).toBe(0);
    const sar = JSON.parse(run(['oscal', 'generate', bundle, '--model', 'sar']).stdout);
    const files = sar['assessment-results']['back-matter'].resources.filter((r: { rlinks?: { href: string }[] }) => !r.rlinks?.[0].href.includes('#'));
    const hashed = files.filter((r: { rlinks: { hashes?: unknown }[] }) => r.rlinks[0].hashes);
    expect(hashed.map((r: { rlinks: { href: string; hashes: { value: string }[] }[] }) => [r.rlinks[0].href, r.rlinks[0].hashes[0].value])).toEqual(
      ['evidence-bundle.json', 'governance-report.md', 'lineage.json', 'poam.json', 'ssp-narrative.md', 'manifest.json'].map((name) => [
        name,
        sha256(readFileSync(join(bundle, name))),
      ]),
    );
    writeFileSync(join(bundle, 'poam.json'), '{}');
    const tampered = run(['oscal', 'generate', bundle, '--model', 'sar']);
    expect([tampered.status, tampered.stderr]).toEqual([
      4,
      expect.stringMatching(
        /^Error: poam\.json: sha256 is sha256:[0-9a-f]{64}, manifest\.json records sha256:[0-9a-f]{64}; the bundle was changed after manifest\.json was written\n$/,
      ),
    ]);
  });

  it('refuses a POA&M when every result passed, exit 3', () => {
    writeFileSync(at('all-pass.json'), JSON.stringify([{ ksi_id: 'KSI-AC-02', status: 'PASS' }]));
    expect(run(['oscal', 'generate', at('all-pass.json'), '--model', 'poam'])).toEqual({
      status: 3,
      stdout: '',
      stderr: 'Error: all-pass.json: every result is PASS, so there is no POA&M item to write; an OSCAL POA&M needs at least one\n',
    });
  });
});

describe('svc ir generate-sar and svc ir validate', () => {
  const keys: Record<string, string> = {};
  beforeAll(() => {
    keys.ES256 = at('p256.pem');
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', keys.ES256);
    keys.EdDSA = at('ed25519.pem');
    openssl('genpkey', '-algorithm', 'ED25519', '-out', keys.EdDSA);
    keys.PS256 = at('rsa.pem');
    openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', keys.PS256);
  });

  it.each(['ES256', 'EdDSA', 'PS256'])('signs with a %s key; an independent DSSE verifier and openssl agree', (algorithm) => {
    const out = at(`sar-${algorithm}.json`);
    const result = run(['ir', 'generate-sar', REPORT, '--out', out, '--key', keys[algorithm]]);
    expect([result.status, result.stderr]).toEqual([0, '']);
    const bytes = readFileSync(out);
    const envelope = readFileSync(`${out}.dsse.json`, 'utf8');
    const verified = verifyDsseEnvelope(envelope);
    const statement = JSON.parse(verified.payload.toString('utf8'));
    expect(result.stdout).toBe(
      `SAR written to ${out} (sha256:${sha256(bytes)})\nSignature written to ${out}.dsse.json (${algorithm}, key ${verified.keyid})\n`,
    );
    expect(statement).toMatchObject({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: `sar-${algorithm}.json`, digest: { sha256: sha256(bytes) } }],
      predicateType: 'urn:compliance-evidence-service:predicate:oscal-assessment-results:v1',
    });
    const sar = JSON.parse(bytes.toString('utf8'));
    expect(bytes.toString('utf8')).toBe(new PureJsHashing().canonicalize(sar));
    expect(statement.predicate.document).toEqual({
      uuid: sar['assessment-results'].uuid,
      'oscal-version': '1.1.3',
      'last-modified': sar['assessment-results'].metadata['last-modified'],
    });
    expect(statement.predicate.evidence).toHaveLength(6);
    // A third party with only the public key and openssl: PAE bytes, signature, verify.
    const payload = verified.payload;
    const pae = Buffer.concat([Buffer.from(`DSSEv1 28 application/vnd.in-toto+json ${payload.length} `), payload]);
    writeFileSync(at('pae.bin'), pae);
    writeFileSync(at('sig.bin'), Buffer.from(JSON.parse(envelope).signatures[0].sig, 'base64'));
    writeFileSync(at('pub.pem'), openssl('pkey', '-in', keys[algorithm], '-pubout'));
    const verify =
      algorithm === 'EdDSA'
        ? ['pkeyutl', '-verify', '-pubin', '-inkey', at('pub.pem'), '-rawin', '-in', at('pae.bin'), '-sigfile', at('sig.bin')]
        : [
            'dgst',
            '-sha256',
            '-verify',
            at('pub.pem'),
            '-signature',
            at('sig.bin'),
            ...(algorithm === 'PS256' ? ['-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:32'] : []),
            at('pae.bin'),
          ];
    expect(openssl(...verify).toString()).toMatch(/Verified OK|Signature Verified Successfully/);
    const check = run(['ir', 'validate', out]);
    expect([check.status, check.stderr]).toEqual([0, '']);
    expect(check.stdout).toBe(
      [
        `SAR ${out} verified`,
        `Digest: sha256:${sha256(bytes)}`,
        `Signature: ${algorithm} by key ${verified.keyid} (${out}.dsse.json)`,
        `${out}: OSCAL 1.1.3 assessment-results, judged by the 1.1.3 schemas`,
        'Valid',
        '',
      ].join('\n'),
    );
  });

  it('verifies by hand with the shell steps of docs/oscal.md (sha256sum, jq, base64, openssl)', () => {
    const dir = at('by-hand');
    execFileSync('mkdir', ['-p', dir]);
    expect(run(['ir', 'generate-sar', REPORT, '--out', join(dir, 'sar.json'), '--key', keys.ES256]).status).toBe(0);
    writeFileSync(join(dir, 'pub.pem'), openssl('pkey', '-in', keys.ES256, '-pubout'));
    const doc = readFileSync('docs/oscal.md', 'utf8');
    const script = /### By hand, with standard tools[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const output = execFileSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, encoding: 'utf8' });
    const [claimed, actual, verdict] = output.trim().split('\n');
    expect(actual).toBe(`${claimed}  sar.json`);
    expect(verdict).toBe('Verified OK');
  });

  it('signs with a development key under the svc home when no key is given, with a warning', () => {
    const home = at('dev-home');
    const first = run(['ir', 'generate-sar', REPORT, '--out', at('dev-sar.json')], { SVC_HOME: home });
    expect(first.status).toBe(0);
    expect(first.stderr).toBe(
      `Warning: no signing key given (--key or SVC_SIGNING_KEY): signed with the development key ${join(home, 'dev-signing-key.pem')}, created now; use your own key for a real assessment\n`,
    );
    expect(statSync(join(home, 'dev-signing-key.pem')).mode & 0o777).toBe(0o600);
    const second = run(['ir', 'generate-sar', REPORT, '--out', at('dev-sar-2.json')], { SVC_HOME: home });
    expect(second.stderr).toBe(
      `Warning: no signing key given (--key or SVC_SIGNING_KEY): signed with the development key ${join(home, 'dev-signing-key.pem')}; use your own key for a real assessment\n`,
    );
    expect(verifyDsseEnvelope(readFileSync(at('dev-sar-2.json.dsse.json'), 'utf8')).keyid).toBe(
      verifyDsseEnvelope(readFileSync(at('dev-sar.json.dsse.json'), 'utf8')).keyid,
    );
    const fromEnv = run(['ir', 'generate-sar', REPORT, '--out', at('env-sar.json')], { SVC_HOME: home, SVC_SIGNING_KEY: keys.EdDSA });
    expect([fromEnv.status, fromEnv.stderr, fromEnv.stdout]).toEqual([0, '', expect.stringContaining('(EdDSA, key ')]);
  });

  it('exits 5 for a missing or unusable key, naming it but never its contents; nothing is written', () => {
    const missing = run(['ir', 'generate-sar', REPORT, '--out', at('no-key-sar.json'), '--key', at('nope.pem')]);
    expect([missing.status, missing.stderr]).toEqual([
      5,
      `Error: ${at('nope.pem')}: no such key file; pass --key <pem>, set SVC_SIGNING_KEY, or omit both to use the development key\n`,
    ]);
    writeFileSync(at('pub-only.pem'), openssl('pkey', '-in', keys.ES256, '-pubout'));
    const publicOnly = run(['ir', 'generate-sar', REPORT, '--out', at('no-key-sar.json'), '--key', at('pub-only.pem')]);
    expect([publicOnly.status, publicOnly.stderr]).toEqual([5, expect.stringContaining(`${at('pub-only.pem')}: not a usable signing key (a public key)`)]);
    expect(publicOnly.stderr).not.toContain('BEGIN');
    expect(existsSync(at('no-key-sar.json'))).toBe(false);
  });

  describe('a flipped byte anywhere is caught, exit 4', () => {
    let out: string;
    beforeAll(() => {
      out = at('flip-sar.json');
      expect(run(['ir', 'generate-sar', REPORT, '--out', out, '--key', keys.ES256]).status).toBe(0);
    });

    it.each([
      ['the SAR', '', 0.5],
      ['the SAR near its start', '', 0.01],
      ['the envelope payload', '.dsse.json', 0.3],
      ['the envelope signature', '.dsse.json', 0.93],
    ])('in %s', (_, suffix, where) => {
      const file = out + suffix;
      const original = readFileSync(file);
      try {
        writeFileSync(file, flipped(original, Math.floor(original.length * where)));
        const result = run(['ir', 'validate', out]);
        expect([result.status, result.stdout]).toEqual([4, '']);
        expect(result.stderr).toMatch(/^Error: .*(changed after signing|changed after it was signed|changed after svc wrote it)\n$/);
      } finally {
        writeFileSync(file, original);
      }
      expect(run(['ir', 'validate', out]).status).toBe(0);
    });

    it('in the key id, and a signature by another key than --keyid', () => {
      const envelope = JSON.parse(readFileSync(`${out}.dsse.json`, 'utf8'));
      const keyid = envelope.signatures[0].keyid as string;
      const other = run(['ir', 'validate', out, '--keyid', 'AAAA']);
      expect([other.status, other.stdout, other.stderr]).toEqual([4, '', `Error: ${out}: signed by key ${keyid}, not by --keyid AAAA\n`]);
      envelope.signatures[0].keyid = keyid.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
      writeFileSync(at('keyid-sar.json'), readFileSync(out));
      writeFileSync(at('keyid-sar.json.dsse.json'), JSON.stringify(envelope));
      const result = run(['ir', 'validate', at('keyid-sar.json')]);
      expect([result.status, result.stderr]).toEqual([
        4,
        expect.stringContaining(`keyid ${envelope.signatures[0].keyid} is not the thumbprint of the key it carries (${keyid})`),
      ]);
    });

    it('a reformatted copy still verifies: the signature covers the canonical form', () => {
      writeFileSync(at('pretty-sar.json'), JSON.stringify(JSON.parse(readFileSync(out, 'utf8')), null, 2));
      writeFileSync(at('pretty-sar.json.dsse.json'), readFileSync(`${out}.dsse.json`));
      const result = run(['ir', 'validate', at('pretty-sar.json')]);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('(of its canonical form; the file itself is formatted differently)');
    });

    it('a SAR without its envelope is exit 3', () => {
      writeFileSync(at('unsigned-sar.json'), readFileSync(out));
      expect(run(['ir', 'validate', at('unsigned-sar.json')])).toEqual({
        status: 3,
        stdout: '',
        stderr: `Error: ${at('unsigned-sar.json')}.dsse.json: not found; ir validate checks a bundle directory, an evidence-bundle.json, or a SAR signed by svc ir generate-sar (its envelope sits beside it)\n`,
      });
    });
  });

  describe('an auditor bundle', () => {
    let bundle: string;
    beforeAll(() => {
      bundle = at('validate-bundle');
      expect(run(['ir', 'auditor-bundle', REPORT, '--out-dir', bundle]).status).toBe(0);
    });

    it('verifies, naming what it checked', () => {
      const result = run(['ir', 'validate', bundle]);
      const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8'));
      expect(result).toEqual({
        status: 0,
        stderr: '',
        stdout: `Bundle ${bundle} verified\nFiles: 6 (aggregate ${manifest.aggregate_hash})\nEntries: ${manifest.counts.results} (Merkle root ${manifest.merkle_root})\n`,
      });
      expect(run(['ir', 'validate', join(bundle, 'evidence-bundle.json')]).stdout).toBe(
        `Evidence bundle ${join(bundle, 'evidence-bundle.json')} verified\nEntries: ${manifest.counts.results} (Merkle root ${manifest.merkle_root})\n`,
      );
    });

    it.each(['evidence-bundle.json', 'governance-report.md', 'lineage.json', 'poam.json', 'ssp-narrative.md', 'manifest.json'])(
      'catches one flipped byte in %s and names the file',
      (name) => {
        const file = join(bundle, name);
        const original = readFileSync(file);
        // In the manifest, flip a digit of a file's recorded hash: its other bytes (tool, time) are descriptive.
        const where = name === 'manifest.json' ? original.indexOf('"sha256:', original.indexOf('"files"')) + 20 : Math.floor(original.length / 2);
        try {
          writeFileSync(file, flipped(original, where));
          const result = run(['ir', 'validate', bundle]);
          expect([result.status, result.stdout]).toEqual([4, '']);
          expect(result.stderr).toMatch(/^Error: (\S+): .*; the bundle was changed after manifest\.json was written\n$/);
          expect(['evidence-bundle.json', 'governance-report.md', 'lineage.json', 'poam.json', 'ssp-narrative.md']).toContain(
            /^Error: (\S+):/.exec(result.stderr)?.[1],
          );
          if (name !== 'manifest.json') expect(result.stderr).toContain(`Error: ${name}: sha256 is sha256:`);
        } finally {
          writeFileSync(file, original);
        }
      },
    );

    it('catches an entry changed with the manifest rewritten to match', () => {
      const copy = at('rewritten-bundle');
      execFileSync('cp', ['-r', bundle, copy]);
      const evidence = JSON.parse(readFileSync(join(copy, 'evidence-bundle.json'), 'utf8'));
      evidence.entries[0].status = 'PASS';
      const text = new PureJsHashing().canonicalize(evidence);
      writeFileSync(join(copy, 'evidence-bundle.json'), text);
      const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8'));
      manifest.files['evidence-bundle.json'] = { sha256: `sha256:${sha256(text)}`, bytes: Buffer.byteLength(text) };
      const names = Object.keys(manifest.files).sort();
      manifest.aggregate_hash = `sha256:${sha256(names.map((n) => `${manifest.files[n].sha256.slice(7)}  ${n}\n`).join(''))}`;
      writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest));
      const result = run(['ir', 'validate', copy]);
      expect([result.status, result.stderr]).toEqual([
        4,
        expect.stringContaining(`evidence-bundle.json: entry ${evidence.entries[0].ksi_id}: content_hash records sha256:`),
      ]);
    });

    it('a directory without a manifest is not an svc artifact (exit 3), a missing file is a mismatch (exit 4)', () => {
      expect(run(['ir', 'validate', 'fixtures'])).toEqual({
        status: 3,
        stdout: '',
        stderr: 'Error: not an svc artifact: fixtures: no manifest.json; pass an auditor bundle directory written by svc ir auditor-bundle\n',
      });
      const copy = at('incomplete-bundle');
      execFileSync('cp', ['-r', bundle, copy]);
      rmSync(join(copy, 'lineage.json'));
      expect(run(['ir', 'validate', copy])).toEqual({
        status: 4,
        stdout: '',
        stderr: `Error: lineage.json: missing from ${copy}, though manifest.json lists it; the bundle is incomplete\n`,
      });
    });
  });
});

describe('svc ir ssp-inject', () => {
  const IFA = join(EXAMPLES, 'ssp_ifa_ssp-example.json');

  it('adds a requirement per control the run touches; the result validates; every other line is kept', () => {
    const out = at('injected-ifa.json');
    const result = run(['ir', 'ssp-inject', IFA, REPORT, '--out', out]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      `SSP written to ${out}\nUpdated: 0\nAdded: 20 (ac-2, ac-2.1, ac-2.2, ac-2.3, ac-2.4, ac-2.5, ac-2.7, ac-2.9, ac-2.12, ac-2.13, au-2, ia-2, ia-2.1, ia-2.2, ia-2.5, ia-2.6, ia-2.8, ia-2.12, sc-8, sc-8.1)\n`,
    );
    expect(run(['oscal', 'validate', out]).stdout).toMatch(/\nValid\n$/);
    expect([schemaErrors(JSON.parse(readFileSync(out, 'utf8')), '1.1.3'), schemaErrors(JSON.parse(readFileSync(out, 'utf8')), '1.2.1')]).toEqual([[], []]);
    const before = readFileSync(IFA, 'utf8').split('\n');
    const after = readFileSync(out, 'utf8').split('\n');
    expect(dropped(before, after)).toEqual(['      "last-modified": "2024-03-01T13:57:28.355446-04:00",']);
  });

  it('updates the requirements an SSP has, and injecting again changes nothing', () => {
    const once = at('injected-minimal.json');
    const result = run(['ir', 'ssp-inject', 'fixtures/oscal/fedramp-ssp-minimal.json', REPORT, '--out', once]);
    expect(result.stdout).toContain(
      'Updated: 9 (ac-2, au-2, ia-2, ia-2.1, ia-2.2, ia-2.8, ia-2.12, sc-8, sc-8.1)\nAdded: 11 (ac-2.1, ac-2.2, ac-2.3, ac-2.4, ac-2.5, ac-2.7, ac-2.9, ac-2.12, ac-2.13, ia-2.5, ia-2.6)\n',
    );
    const ssp = JSON.parse(readFileSync(once, 'utf8'))['system-security-plan'];
    const ia2 = ssp['control-implementation']['implemented-requirements'].find((r: { 'control-id': string }) => r['control-id'] === 'ia-2');
    expect(ia2.props.find((p: { name: string }) => p.name === 'implementation-status')).toEqual({
      name: 'implementation-status',
      ns: 'https://fedramp.gov/ns/oscal', // the SSP's own prop, updated in place
      value: 'planned',
      remarks: 'KSI-IA-02 is FAIL: REMEDIATE within 7 days as POAM-KSI-IA-02.',
    });
    expect(ia2['by-components']).toHaveLength(2);
    const twice = at('injected-twice.json');
    expect(run(['ir', 'ssp-inject', once, REPORT, '--out', twice]).status).toBe(0);
    expect(readFileSync(twice, 'utf8')).toBe(readFileSync(once, 'utf8'));
    const low = JSON.parse(run(['oscal', 'validate-ssp', once, '--json']).stdout);
    expect(new Set(low.problems.map((p: { rule: string }) => p.rule))).toEqual(new Set(['no-extraneous-control']));
  });

  it('refuses a document that is not an SSP, exit 3', () => {
    const file = join(EXAMPLES, 'poam_ifa_plan-of-action-and-milestones.json');
    expect(run(['ir', 'ssp-inject', file, REPORT, '--out', at('x.json')])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${file}: is an OSCAL plan-of-action-and-milestones, not a system-security-plan; pass the SSP to write into first\n`,
    });
    expect(existsSync(at('x.json'))).toBe(false);
  });
});

/** The byte at `at` replaced by another printable one (a hex digit stays a hex digit). */
function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  const c = String.fromCharCode(copy[at]);
  copy[at] = (/[0-9a-f]/.test(c) ? (c === '0' ? '1' : '0') : c === 'A' ? 'B' : 'A').charCodeAt(0);
  return copy;
}

/** Lines of `before` that `after` does not keep in the same order. */
function dropped(before: string[], after: string[]): string[] {
  const lost: string[] = [];
  let j = 0;
  for (const line of before) {
    const found = after.indexOf(line, j);
    if (found < 0) lost.push(line);
    else j = found + 1;
  }
  return lost;
}
