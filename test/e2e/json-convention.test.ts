import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DRIFT_CLASSES, DRIFT_SEVERITIES } from '../../src/domain/drift/drift-finding';
import { STATUSES } from '../../src/domain/ksi/status';
import { DESIGN_COMMAND_IDS } from '../support/design-surface';
import { FIXTURES, REFERENCE, ROOT, svc, type SvcRun } from '../support/run-svc';

const SAMPLE = 'fixtures/sample-baseline.json';
const SAMPLE_B = 'fixtures/sample-baseline-b.json';
const SAMPLE_SHA256 = 'sha256:b8b7d4941762ae257015f68359c527947707be8281e3738bc85f1bc48cd25473';
const SCHEMAS = join(REFERENCE, 'oscal', 'schemas');
/** What a terminal would act on or hide: C0 controls but tab and line feed, DEL, C1 controls, the byte-order mark. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufeff]/;

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-json-'));
  const cpo = JSON.parse(readFileSync(join(FIXTURES, 'fedramp', 'cpo-minimal.json'), 'utf8'));
  delete cpo.serviceIdentification.fedRampPackageId;
  delete cpo.serviceProperties.nextOngoingCertificationReportDate;
  const fedramp = {
    fedramp_id: 'FR2611250001',
    package_uri: 'https://trust.example.com/fedramp/cpo.json',
    evidence_base_uri: 'https://trust.example.com/fedramp',
    accountable_official: { name: 'Ada Example', title: 'CISO', email: 'ciso@example.com' },
    cpo,
  };
  writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp }));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const at = (...parts: string[]): string => join(tmp, ...parts);
const run = (args: string[]): SvcRun => svc(args, { env: { SVC_HOME: at('home'), SVC_CONFIG: at('svc.config.json') } });

/** The error object of docs/errors.md, as svc prints it: on stdout, two-space indented, nothing on stderr. */
const jsonError = (code: string, exit: number, message: string): SvcRun => ({
  stdout: `${JSON.stringify({ error: { code, exit, message } }, null, 2)}\n`,
  stderr: '',
  status: exit,
});

describe('svc ir freshness-schedule --json', () => {
  it('prints the object --format json prints, whatever --format says', () => {
    const args = ['ir', 'freshness-schedule', SAMPLE, '--now', '2026-11-21T00:00:00Z'];
    const json = run([...args, '--json']);
    expect(json).toEqual(run([...args, '--format', 'json']));
    expect(run([...args, '--format', 'ics', '--json'])).toEqual(json);
    expect([json.status, json.stderr]).toEqual([0, '']);
    const entry = (ksi_id: string, title: string, owner: string, observed_at: string, age_seconds: number, due_at: string) => ({
      ksi_id,
      title,
      owner,
      frequency_days: 3,
      observed_at,
      dated_by: 'observed_at',
      age_seconds,
      due_at,
      state: 'stale',
    });
    expect(JSON.parse(json.stdout)).toEqual({
      input: { name: 'sample-baseline.json', sha256: SAMPLE_SHA256 },
      now: '2026-11-21T00:00:00Z',
      entries: [
        entry('KSI-IA-02', 'Phishing-resistant MFA for all users', 'identity-team@agency.example', '2026-11-02T14:03:12Z', 1591008, '2026-11-05T14:03:12Z'),
        entry(
          'KSI-AC-02',
          'Privileged and guest accounts are reviewed',
          'identity-team@agency.example',
          '2026-11-02T14:03:40Z',
          1590980,
          '2026-11-05T14:03:40Z',
        ),
        entry('KSI-AU-02', 'Unified audit log covers mailbox access', 'secops-team@agency.example', '2026-11-02T14:04:02Z', 1590958, '2026-11-05T14:04:02Z'),
        entry('KSI-SC-08', 'TLS 1.2 or newer for mail transport', 'platform-team@agency.example', '2026-11-02T14:04:30Z', 1590930, '2026-11-05T14:04:30Z'),
      ],
    });
  });
});

describe('errors under --json: the error object on stdout, the exit code unchanged', () => {
  it('an unknown command, with the hint in the message', () => {
    expect(run(['bogus', '--json'])).toEqual(jsonError('usage', 2, 'No such command bogus; run "svc --help" for the command groups'));
    expect(run(['bogus'])).toEqual({ stdout: '', stderr: 'Error: No such command bogus\nHint: run "svc --help" for the command groups\n', status: 2 });
  });

  it('an unknown command of a topic, and a name from before 0.5.0', () => {
    expect(run(['ir', 'bogus', SAMPLE, '--json'])).toEqual(jsonError('usage', 2, 'No such command ir bogus; run "svc --help" for the command groups'));
    expect(run(['ir-baseline-transform', SAMPLE, '--json'])).toEqual(
      jsonError(
        'usage',
        2,
        'No such command ir-baseline-transform; commands were renamed in 0.5.0; use "svc ir baseline-transform" (group and command separated by a space)',
      ),
    );
  });

  it('an unknown flag, a missing argument and a flag value outside its options', () => {
    expect(run(['ir', 'freshness-schedule', SAMPLE, '--bogus', '--json'])).toEqual(
      jsonError('usage', 2, 'Nonexistent flag: --bogus\nSee more help with --help'),
    );
    expect(run(['ir', 'freshness-schedule', '--json'])).toEqual(
      jsonError('usage', 2, 'Missing 1 required arg:\ninput  Normalized report, evidence-bundle.json, or auditor bundle directory\nSee more help with --help'),
    );
    expect(run(['ir', 'freshness-schedule', SAMPLE, '--format', 'xml', '--json'])).toEqual(
      jsonError('usage', 2, 'Expected --format=xml to be one of: table, ics, json\nSee more help with --help'),
    );
    expect(run(['ir', 'freshness-schedule', SAMPLE, '--bogus'])).toMatchObject({
      stdout: '',
      stderr: expect.stringMatching(/^Error: Nonexistent flag: --bogus\n/),
      status: 2,
    });
  });

  it('a missing input file', () => {
    const missing = at('nope.json');
    expect(run(['ir', 'freshness-schedule', missing, '--json'])).toEqual(jsonError('file-not-found', 3, `${missing}: no such input file; check the path`));
    expect(run(['evidence', 'graph', missing, '--json'])).toEqual(jsonError('file-not-found', 3, `${missing}: no such input file; check the path`));
  });
});

describe('--json on every command', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
    commands: Record<string, { flags: Record<string, { type: string; allowNo?: boolean }> }>;
  };
  const ids = Object.keys(manifest.commands).filter((id) => id !== 'help');

  it("every command of oclif.manifest.json takes --json (all of DESIGN §6's print results)", () => {
    expect(ids).toHaveLength(DESIGN_COMMAND_IDS.length);
    expect(ids.filter((id) => manifest.commands[id].flags.json?.type !== 'boolean')).toEqual([]);
  });
});

/**
 * Keys that are values of a closed vocabulary, not field names (docs/cli.md): statuses, severities, drift classes, the
 * KSI areas of a run, and check outcomes.
 */
const VALUE_KEYS = new Set<string>([...STATUSES, ...DRIFT_SEVERITIES, ...DRIFT_CLASSES, 'UNMAPPED', 'not-applicable']);
const AREA = /^[A-Z]{2,4}$/;
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const HASH_KEYS = new Set(['sha256', 'merkle_root', 'aggregate_hash', 'hash']);

/** Every key that is neither snake_case nor a vocabulary value, and every hash not written `sha256:<hex>`, by JSON path. */
function offences(value: unknown, path = '$', parent = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => offences(v, `${path}[${i}]`, parent));
  if (value === null || typeof value !== 'object') {
    if (typeof value !== 'string') return [];
    const runId = parent === 'id';
    if (HASH_KEYS.has(parent) && !DIGEST.test(value)) return [`${path}: hash ${value}`];
    return /^[0-9a-f]{64}$/.test(value) && !runId ? [`${path}: bare hex`] : [];
  }
  return Object.entries(value).flatMap(([key, v]) => {
    const named = SNAKE.test(key) || VALUE_KEYS.has(key) || (parent === 'areas' && AREA.test(key));
    return [...(named ? [] : [`${path}.${key}: key`]), ...offences(v, `${path}.${key}`, key)];
  });
}

describe('snake_case keys and sha256:<hex> in the --json output of every command run on the fixtures', () => {
  it('finds the offences it looks for', () => {
    expect(
      offences({
        outDir: 1,
        counts: { PASS: 1, Pass: 2 },
        areas: { AC: {} },
        file: { sha256: 'ab'.repeat(32) },
        run: { id: 'cd'.repeat(32) },
        x: 'ef'.repeat(32),
      }),
    ).toEqual(['$.outDir: key', '$.counts.Pass: key', '$.file.sha256: hash ' + 'ab'.repeat(32), '$.x: bare hex']);
  });

  const commands: [string, (string | (() => string))[]][] = [
    ['ir baseline-transform', [SAMPLE]],
    ['ir auditor-bundle', [SAMPLE, '--out-dir', () => at('bundle')]],
    ['ir diff', [SAMPLE, SAMPLE_B]],
    ['ir generate-sar', [SAMPLE, '--out', () => at('sar.json')]],
    ['ir evidence-bundle', [SAMPLE, '--out', () => at('evidence-bundle.json')]],
    ['ir poam-export', [SAMPLE, '--format', 'json', '--out', () => at('poam.json')]],
    ['ir governance-report', [SAMPLE]],
    ['ir governance-report', [SAMPLE, '--out', () => at('governance.md')]],
    ['ir drift-detect', [SAMPLE, SAMPLE_B]],
    ['ir freshness', [SAMPLE, '--now', '2026-11-21T00:00:00Z']],
    ['ir freshness', [join(FIXTURES, 'freshness-cr26.json'), '--class', 'B', '--type', '20x', '--now', '2026-11-21T00:00:00Z']],
    ['ir freshness-schedule', [SAMPLE, '--now', '2026-11-21T00:00:00Z']],
    ['ir dashboard', [SAMPLE, '--out', () => at('dashboard.html')]],
    ['ir ssp-report', [SAMPLE]],
    ['ir ssp-inject', [join(FIXTURES, 'oscal', 'fedramp-ssp-minimal.json'), SAMPLE, '--out', () => at('ssp-injected.json')]],
    ['ir validate', [() => at('bundle')]],
    ['ir validate', [() => at('sar.json'), '--schemas', SCHEMAS]],
    ['adapter run', ['--list']],
    ['adapter run', ['scubagear', join(REFERENCE, 'raw-samples', 'scubagear', 'ScubaResults_fa5589b7-d528-4f80.json'), '--out', () => at('scuba.json')]],
    ['adapter run-baseline', [join(REFERENCE, 'raw-samples', 'scubagear', 'ScubaResults_fa5589b7-d528-4f80.json')]],
    ['canon check', []],
    ['cql query', ['FROM results WHERE status != PASS', '--input', SAMPLE]],
    ['ksi list', ['--area', 'IA']],
    ['ksi list', ['--catalog', 'cr26', '--area', 'IAM']],
    ['ksi evaluate', [() => at('checks.json'), '--out', () => at('evaluated.json')]],
    ['conmon process', [SAMPLE]],
    ['conmon export-oa', ['--from', '2026-01-01', '--to', '2026-12-31']],
    ['conmon dashboard', ['--out', () => at('trends.html')]],
    ['evidence build', [SAMPLE, SAMPLE_B, '--out', () => at('merged.json')]],
    ['evidence graph', [SAMPLE, '--control', 'ac-2']],
    ['oscal generate', [SAMPLE, '--model', 'ssp', '--out', () => at('ssp.json')]],
    ['oscal validate', [() => at('ssp.json'), '--schemas', SCHEMAS]],
    ['oscal validate-ssp', [join(FIXTURES, 'oscal', 'fedramp-ssp-minimal.json'), '--schemas', SCHEMAS]],
    ['substrate walk', [join(FIXTURES, 'substrate', 'tree-a'), '--out', () => at('snap.json')]],
    ['substrate drift', [() => at('snap.json'), () => at('snap.json')]],
    ['generate hdf', [SAMPLE, '--out', () => at('g.hdf.json')]],
    ['generate ssp', [SAMPLE, '--out', () => at('g-ssp.json')]],
    ['generate docx', [SAMPLE, '--out', () => at('g.docx')]],
    ['generate poam', [SAMPLE, '--out', () => at('g-poam.xlsx')]],
    ['generate crm', [SAMPLE, '--out', () => at('g-crm.xlsx')]],
    ['generate inventory', [() => at('snap.json'), '--out', () => at('g-iiw.xlsx')]],
    ['generate sar', [SAMPLE, '--out', () => at('g-sar.docx')]],
    ['generate sap', [SAMPLE, '--out', () => at('g-sap.docx')]],
    ['generate pptx', [SAMPLE, '--out', () => at('g.pptx')]],
    ['generate sbom', ['--out', () => at('g-sbom.json')]],
    ['generate docs', [SAMPLE, '--out', () => at('g-docs')]],
    ['generate site', [SAMPLE, '--out', () => at('g-site')]],
    ['orchestrator list', ['--config', () => at('svc.orchestrator.json'), '--now', '2026-03-06T12:00:00Z']],
    ['orchestrator dispatch', ['m365-daily', '--config', () => at('svc.orchestrator.json')]],
    ['orchestrator schedule', ['--emit', 'crontab', '--config', () => at('svc.orchestrator.json')]],
    ['fedramp rules', ['--class', 'A', '--type', '20x', '--now', '2026-11-25']],
    ['fedramp validate', [join(FIXTURES, 'fedramp', 'sdr-minimal.json'), '--schemas', join(REFERENCE, 'fedramp', 'cr26-schemas')]],
    ['fedramp rules', ['--class', 'D', '--type', '20x', '--rules-file', join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.07.14.01.json')]],
    ['fedramp readiness', ['--class', 'B', '--type', '20x', '--now', '2026-11-25']],
    ['fedramp sdr', [SAMPLE, '--class', 'B', '--type', '20x', '--out', () => at('sdr.json'), '--now', '2026-11-25']],
    ['fedramp cpo', ['--class', 'B', '--type', '20x', '--out', () => at('cpo.json'), '--now', '2026-11-25']],
    // The store's state (the runs recorded above), as a provider packages it.
    ['fedramp package', ['--class', 'B', '--type', '20x', '--out-dir', () => at('fedramp-package'), '--now', '2026-11-25']],
    ['ir validate', [() => at('fedramp-package')]],
    ['vuln list', ['--class', 'B', '--now', '2026-11-25']],
    ['vuln report', ['--format', 'vdr', '--class', 'B', '--now', '2026-11-25', '--out', () => at('vdr.json')]],
  ];

  interface Output {
    name: string;
    status: number | null;
    stderr: string;
    json: Record<string, unknown>;
  }
  // One run after another: later commands read what earlier ones wrote (the bundle, the SAR, the snapshot, the store).
  const outputs: Output[] = [];
  const output = (name: string, nth = 0): Record<string, unknown> => outputs.filter((o) => o.name === name)[nth].json;
  beforeAll(() => {
    writeFileSync(at('checks.json'), JSON.stringify([{ ksi_id: 'KSI-AC-02', check_id: 'okta-mfa', status: 'pass', criticality: 'must' }]));
    const scuba = join(REFERENCE, 'raw-samples', 'scubagear', 'ScubaResults_fa5589b7-d528-4f80.json');
    writeFileSync(
      at('svc.orchestrator.json'),
      JSON.stringify({
        jobs: [{ name: 'm365-daily', adapter: 'scubagear', input: scuba, schedule: '0 6 * * *', outputs: { bundle: 'out/m365', store: true } }],
      }),
    );
    for (const [name, args] of commands) {
      const result = run([...name.split(' '), ...args.map((a) => (typeof a === 'string' ? a : a())), '--json']);
      outputs.push({ name, status: result.status, stderr: result.stderr, json: JSON.parse(result.stdout) as Record<string, unknown> });
    }
  }, 120_000);

  it.each(commands.map(([name], i) => [name, i] as const))('%s (#%i)', (name, i) => {
    const { status, stderr, json } = outputs[i];
    // Checks that found problems exit 1: stale evidence, and MUSTs not met by the one recorded run.
    expect({ name, status: ['ir freshness', 'fedramp readiness'].includes(name) ? status === 1 : status === 0, error: json.error }).toEqual({
      name,
      status: true,
      error: undefined,
    });
    expect(stderr).not.toMatch(RAW_CONTROL);
    // The snapshot is a document whose hashes are hex as sha256sum prints them (docs/substrate.md); its keys are checked.
    const found = offences(json).filter((o) => !(name === 'substrate walk' && / (?:hash|bare hex)/.test(o)));
    expect({ name, found }).toEqual({ name, found: [] });
  });

  it('prints the renamed keys and prefixed hashes', () => {
    const bundle = output('ir auditor-bundle');
    expect(Object.keys(bundle)).toEqual(['input', 'out_dir', 'counts', 'unmapped', 'files', 'merkle_root', 'aggregate_hash']);
    expect(bundle.out_dir).toBe(at('bundle'));
    expect(output('ir validate')).toEqual({
      kind: 'bundle',
      target: at('bundle'),
      files: 6,
      aggregate_hash: bundle.aggregate_hash,
      entries: 5,
      merkle_root: bundle.merkle_root,
    });
    expect(output('oscal validate')).toMatchObject({
      model: 'system-security-plan',
      oscal_version: '1.1.3',
      schema_version: '1.1.3',
      schema_dir: SCHEMAS,
      valid: true,
    });
    const diff = output('ir diff') as { run_a: unknown; hash_deltas: { from: string }[] };
    expect(diff.run_a).toEqual({ name: 'sample-baseline.json', sha256: SAMPLE_SHA256 });
    expect(diff.hash_deltas[0].from).toMatch(DIGEST);
    expect((output('evidence build') as { file: { sha256: string } }).file.sha256).toMatch(DIGEST);
  });
});

describe('control characters in messages are written out, never sent raw', () => {
  const input = (name: string, bytes: Buffer | string): string => {
    writeFileSync(at(name), bytes);
    return at(name);
  };
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

  it('an ESC byte where JSON expects a value: \\u001b, in text and under --json', () => {
    const file = input('esc.json', '[\u001b]');
    const message = `${file}: invalid JSON at line 1, column 2: Unexpected token '\\u001b'; fix the syntax there (a JSON validator shows the context)`;
    expect(run(['ir', 'freshness', file])).toEqual({ stdout: '', stderr: `Error: ${message}\n`, status: 3 });
    expect(run(['ir', 'freshness', file, '--json'])).toEqual(jsonError('invalid-json', 3, message));
  });

  it('a second byte-order mark: U+FEFF (the first one is read as the BOM it is)', () => {
    const file = input('bom-bom.json', Buffer.concat([BOM, BOM, Buffer.from('[]')]));
    const message = `${file}: invalid JSON at line 1, column 1: Unexpected token 'U+FEFF'; fix the syntax there (a JSON validator shows the context)`;
    expect(run(['ir', 'freshness', file])).toEqual({ stdout: '', stderr: `Error: ${message}\n`, status: 3 });
    expect(run(['ir', 'freshness', file, '--json'])).toEqual(jsonError('invalid-json', 3, message));
    expect(run(['ir', 'freshness', input('bom.json', Buffer.concat([BOM, Buffer.from('[]')])), '--json'])).toMatchObject({ status: 0, stderr: '' });
  });

  it('an ESC and a BOM inside a quoted value', () => {
    const esc = input('esc-id.json', '[{"ksi_id":"KSI-AC-02\\u001b[2J","status":"PASS"}]');
    const bom = input('bom-id.json', Buffer.concat([Buffer.from('[{"ksi_id":"KSI-AC-02'), BOM, Buffer.from('","status":"PASS"}]')]));
    const hint =
      'is not a KSI id; write KSI-<AREA>-<NN> with 2-4 upper-case letters and two digits, e.g. "KSI-AC-02", or a FedRAMP mnemonic id such as "KSI-IAM-APM"';
    expect(run(['ir', 'freshness', esc])).toEqual({ stdout: '', stderr: `Error: ${esc}: [0].ksi_id: "KSI-AC-02\\u001b[2J" ${hint}\n`, status: 3 });
    expect(run(['ir', 'freshness', bom])).toEqual({ stdout: '', stderr: `Error: ${bom}: [0].ksi_id: "KSI-AC-02U+FEFF" ${hint}\n`, status: 3 });
    expect(run(['ir', 'freshness', esc, '--json'])).toEqual(jsonError('invalid-report', 3, `${esc}: [0].ksi_id: "KSI-AC-02\\u001b[2J" ${hint}`));
  });

  it('an ESC in a path a warning names', () => {
    const home = at('home\u001b[8m');
    const result = svc(['ir', 'generate-sar', SAMPLE, '--out', at('warned-sar.json')], { env: { SVC_HOME: home } });
    const shown = join(tmp, 'home\\u001b[8m', 'dev-signing-key.pem');
    expect(result).toMatchObject({
      status: 0,
      stderr: `Warning: no signing key given (--key or SVC_SIGNING_KEY): signed with the development key ${shown}, created now; use your own key for a real assessment\n`,
    });
  });

  it('an ESC in an unknown command name', () => {
    const result = run(['bogus\u001b[31m']);
    expect(result).toEqual({ stdout: '', stderr: 'Error: No such command bogus\\u001b[31m\nHint: run "svc --help" for the command groups\n', status: 2 });
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(run(['bogus\u001b[31m', '--json'])).toEqual(jsonError('usage', 2, 'No such command bogus\\u001b[31m; run "svc --help" for the command groups'));
  });
});
