import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE, svc } from '../support/run-svc';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-errors-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
}

describe('version, help and names', () => {
  it('svc --version starts with svc/0.5.0', () => {
    for (const flag of ['--version', '-v']) {
      const run = svc([flag]);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^svc\/0\.5\.0 linux-x64 node-v\d+\.\d+\.\d+\n$/);
    }
  });

  it('svc --version --json: the same, and what the build carries: the rules release and the schema sets, each schema by $schemaVersion and sha256', () => {
    const run = svc(['--version', '--json']);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({
      name: 'svc',
      version: '0.5.0',
      platform: 'linux-x64',
      node: process.version,
      carries: {
        fedramp_schemas: { generations: ['2026-07-15', '2026-09-17', '2026-10-08'], default: '2026-10-08' },
        oscal_schemas: ['1.1.3', '1.2.1', '1.2.2'],
      },
    });
    expect(out.carries.rules).toEqual({
      version: expect.stringMatching(/^\d{4}\.\d{2}\.\d{2}\.\d{2}$/),
      date: expect.any(String),
      file: expect.stringMatching(/^fedramp-consolidated-rules\..*\.json$/),
      sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(out.carries.fedramp_schemas.schemas).toContainEqual({
      type: 'sdr',
      schema_version: '1.1.1',
      sha256: 'sha256:6a6d7dca1a9ae0031c06df6213bf5c5631e9b9b5fb81c050403cfd723484be86',
      file: 'fedramp-security-decision-record-schema-2026-06-24.json',
    });
    expect(out.carries.fedramp_schemas.schemas).toHaveLength(11);
    expect(svc(['-v', '--json']).stdout).toBe(run.stdout);
  });

  it('svc --help lists the groups and svc ir --help the commands', () => {
    const help = svc(['--help']).stdout;
    for (const topic of ['ir', 'evidence', 'ksi', 'canon']) expect(help).toMatch(new RegExp(`^  ${topic} +\\S`, 'm'));
    const ir = svc(['ir', '--help']).stdout;
    for (const command of ['auditor-bundle', 'baseline-transform', 'diff', 'evidence-bundle', 'governance-report', 'ssp-report'])
      expect(ir).toContain(`  ir ${command}`);
    expect(svc(['ir', 'auditor-bundle', '--help']).stdout).toContain('--out-dir=<dir>');
  });

  it('rejects a pre-0.5.0 command name with the current form as hint, exit 2', () => {
    expect(svc(['ir-baseline-transform', 'fixtures/sample-baseline.json'])).toEqual({
      stdout: '',
      stderr:
        'Error: No such command ir-baseline-transform\nHint: commands were renamed in 0.5.0; use "svc ir baseline-transform" (group and command separated by a space)\n',
      status: 2,
    });
  });

  it('rejects an unknown command and flag, and a missing argument, exit 2', () => {
    expect(svc(['ir', 'bogus'])).toMatchObject({ stderr: 'Error: No such command ir bogus\nHint: run "svc --help" for the command groups\n', status: 2 });
    expect(svc(['ir', 'baseline-transform', 'x.json', '--bogus'])).toMatchObject({
      stderr: expect.stringMatching(/^Error: Nonexistent flag: --bogus/),
      status: 2,
    });
    expect(svc(['ir', 'baseline-transform'])).toMatchObject({ stderr: expect.stringMatching(/^Error: Missing 1 required arg:\ninput/), status: 2 });
    expect(svc(['ksi', 'list', '--area', 'XX'])).toMatchObject({
      stderr: expect.stringMatching(/^Error: --area XX: not a family of the catalog; use one of AC, AT/),
      status: 2,
    });
  });

  const READINESS_READS =
    "it reads the run store's state, the latest run of every source (svc conmon process <report>... records them), the provider's statements (fedramp.statements) and the fedramp profile of svc.config.json";

  it('a file given to a command that takes none: says so and what the command reads, exit 2', () => {
    const refused = `Error: svc fedramp readiness takes no file or other argument (given "merged.json"): ${READINESS_READS}; see "svc fedramp readiness --help"\n`;
    expect(svc(['fedramp', 'readiness', 'merged.json'])).toEqual({ stdout: '', stderr: refused, status: 2 });
    expect(svc(['fedramp', 'readiness', '--class', 'C', 'merged.json'])).toEqual({ stdout: '', stderr: refused, status: 2 });
    expect(svc(['ksi', 'list', 'a.json', 'b.json'])).toEqual({
      stdout: '',
      stderr:
        'Error: svc ksi list takes no file or other argument (given "a.json", "b.json"): it reads the built-in KSI catalog, or with --catalog cr26 the KSIs of the CR26 rules in use; see "svc ksi list --help"\n',
      status: 2,
    });
    expect(JSON.parse(svc(['fedramp', 'readiness', 'merged.json', '--json']).stdout)).toEqual({
      error: {
        code: 'usage',
        exit: 2,
        message: `svc fedramp readiness takes no file or other argument (given "merged.json"): ${READINESS_READS}; see "svc fedramp readiness --help"`,
      },
    });
  });

  it('every command that takes no arguments says what it reads', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, { args: object; reads?: string }>;
    };
    const without = Object.entries(manifest.commands).filter(([, c]) => Object.keys(c.args).length === 0);
    expect(without.length).toBeGreaterThan(10);
    expect(without.filter(([, c]) => !c.reads).map(([id]) => id)).toEqual([]);
  });

  it('a mistyped command or flag: the nearest one, exit 2', () => {
    expect(svc(['fedramp', 'readines'])).toEqual({
      stdout: '',
      stderr: 'Error: No such command fedramp readines\nHint: did you mean "svc fedramp readiness"?\n',
      status: 2,
    });
    expect(svc(['conmon', 'proces', 'report.json'])).toEqual({
      stdout: '',
      stderr: 'Error: No such command conmon proces\nHint: did you mean "svc conmon process"?\n',
      status: 2,
    });
    expect(svc(['fedram'])).toEqual({ stdout: '', stderr: 'Error: No such command fedram\nHint: did you mean "svc fedramp"?\n', status: 2 });
    expect(svc(['fedramp', 'cpo', '--ot', 'cpo.json'])).toEqual({ stdout: '', stderr: 'Error: Nonexistent flag: --ot; did you mean --out?\n', status: 2 });
    expect(svc(['fedramp', 'cpo', '--ot', 'cpo.json', '--clas', 'C'])).toEqual({
      stdout: '',
      stderr: 'Error: Nonexistent flags: --ot, --clas; did you mean --out for --ot, --class for --clas?\n',
      status: 2,
    });
    expect(JSON.parse(svc(['conmon', 'proces', '--json']).stdout)).toEqual({
      error: { code: 'usage', exit: 2, message: 'No such command conmon proces; did you mean "svc conmon process"?' },
    });
  });
});

describe('bad inputs: one line naming the file, the place and the fix, exit 3', () => {
  it.each<[string, string | Buffer, string]>([
    [
      'invalid JSON',
      '[\n  {"ksi_id": "KSI-AC-02", "status": "PASS"},\n  {"ksi_id": "KSI-AU-02" "status": "PASS"}\n]\n',
      "invalid JSON at line 3, column 26: Expected ',' or '}' after property value; fix the syntax there (a JSON validator shows the context)",
    ],
    ['a wrong status spelling', '[{"ksi_id":"KSI-AC-02","status":"pass"}]', '[0].status: "pass" is not a status; use exactly PASS, WARN or FAIL (upper case)'],
    [
      'a bad ksi_id',
      '{"results":[{"ksi_id":"AC-2","status":"PASS"}]}',
      'results[0].ksi_id: "AC-2" is not a KSI id; write KSI-<AREA>-<NN> with 2-4 upper-case letters and two digits, e.g. "KSI-AC-02", or a FedRAMP mnemonic id such as "KSI-IAM-APM"',
    ],
    ['a missing ksi_id', '{"results":[{"status":"PASS"}]}', 'results[0].ksi_id: missing; every result needs a ksi_id such as "KSI-AC-02"'],
    [
      'a duplicate ksi_id',
      '[{"ksi_id":"KSI-AC-02","status":"PASS"},{"ksi_id":"KSI-AC-02","status":"FAIL"}]',
      '[1].ksi_id: duplicate "KSI-AC-02" (first at [0]); keep one result per KSI, or merge several reports with "svc evidence build"',
    ],
  ])('%s', (_what, content, message) => {
    const input = file(`bad-${_what.replace(/\W+/g, '-')}.json`, content);
    expect(svc(['ir', 'baseline-transform', input])).toEqual({ stdout: '', stderr: `Error: ${input}: ${message}\n`, status: 3 });
  });

  it('accepts a UTF-8 byte-order mark', () => {
    const input = file('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"ksi_id":"KSI-AC-02","status":"PASS"}]')]));
    expect(svc(['ir', 'baseline-transform', input])).toMatchObject({ status: 0, stdout: expect.stringContaining('Total: 1\nPASS: 1\n') });
  });

  it('accepts an empty list: zero counts', () => {
    const input = file('empty.json', '[]');
    expect(svc(['ir', 'baseline-transform', input]).stdout).toBe(
      `Transforming ${input} ...\nMapped 0 KSIs to controls and policies\nTotal: 0\nPASS: 0\nWARN: 0\nFAIL: 0\nUnmapped: 0\n`,
    );
  });

  it.each([
    ['ir', 'auditor-bundle', 'nessus/sample-basic-network-scan-2hosts.nessus', 'Nessus', ['--out-dir', 'bundle']],
    ['ir', 'evidence-bundle', 'prowler/example_output_aws.ocsf.json', 'Prowler', ['--out', 'evidence.json']],
    ['ir', 'baseline-transform', 'trivy/misconfigurations_and_secrets.json', 'Trivy', []],
    ['ir', 'freshness', 'scubagear/ScubaResults_fa5589b7-d528-4f80.json', 'ScubaGear', []],
    ['conmon', 'process', 'ckl/red_hat_good.ckl', 'DISA STIG Viewer', []],
  ])("a scanner's own output to svc %s %s (%s): run svc adapter run auto on it first, exit 3", (group, command, sample, tool, flags) => {
    const raw = join(REFERENCE, 'raw-samples', sample);
    const run = svc([group, command, raw, ...flags], { cwd: tmp, env: { SVC_HOME: join(tmp, 'home') } });
    expect(run).toEqual({
      stdout: '',
      stderr: `Error: ${raw}: this is ${tool} output, not a normalized report; run "svc adapter run auto ${raw} --out report.json" first and pass report.json\n`,
      status: 3,
    });
    expect(readdirSync(tmp)).not.toContain('bundle');
  });

  it('names a missing file and a directory given as a file', () => {
    expect(svc(['ir', 'baseline-transform', join(tmp, 'nope.json')])).toMatchObject({
      stderr: `Error: ${join(tmp, 'nope.json')}: no such input file; check the path\n`,
      status: 3,
    });
    expect(svc(['ir', 'baseline-transform', tmp])).toMatchObject({
      stderr: `Error: ${tmp}: is a directory, expected a JSON file; pass the report file itself\n`,
      status: 3,
    });
  });

  it('prints the error as JSON under --json, with the same exit code', () => {
    const run = svc(['ir', 'baseline-transform', join(tmp, 'nope.json'), '--json']);
    expect(run.status).toBe(3);
    expect(JSON.parse(run.stdout)).toEqual({
      error: { code: 'file-not-found', exit: 3, message: `${join(tmp, 'nope.json')}: no such input file; check the path` },
    });
  });

  it('refuses a malformed SOURCE_DATE_EPOCH as an environment problem, exit 5', () => {
    const run = svc(['ir', 'auditor-bundle', 'fixtures/sample-baseline.json', '--out-dir', join(tmp, 'never')], { env: { SOURCE_DATE_EPOCH: 'yesterday' } });
    expect(run).toMatchObject({
      status: 5,
      stderr: 'Error: SOURCE_DATE_EPOCH=yesterday is not a count of seconds since 1970; set it to e.g. $(git log -1 --format=%ct) or unset it\n',
    });
    expect(readdirSync(tmp)).not.toContain('never');
  });
});

describe('nothing is lost or half-written on error', () => {
  it('does not create the output directory when the input is bad', () => {
    const input = file('dup.json', '[{"ksi_id":"KSI-AC-02","status":"PASS"},{"ksi_id":"KSI-AC-02","status":"PASS"}]');
    const out = join(tmp, 'new', 'bundle');
    expect(svc(['ir', 'auditor-bundle', input, '--out-dir', out]).status).toBe(3);
    expect(readdirSync(tmp)).not.toContain('new');
  });

  it('keeps an earlier bundle whole when a new run fails', () => {
    const out = join(tmp, 'kept');
    expect(svc(['ir', 'auditor-bundle', 'fixtures/sample-baseline.json', '--out-dir', out]).status).toBe(0);
    const before = Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]));
    const input = file('bad-status.json', '[{"ksi_id":"KSI-AC-02","status":"Pass"}]');
    expect(svc(['ir', 'auditor-bundle', input, '--out-dir', out]).status).toBe(3);
    expect(Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]))).toEqual(before);
  });

  it('refuses a file where the output directory should be', () => {
    const out = file('a-file', 'x');
    expect(svc(['ir', 'auditor-bundle', 'fixtures/sample-baseline.json', '--out-dir', out])).toMatchObject({
      status: 3,
      stderr: `Error: ${out}: is a file, expected a directory for the bundle; pass a directory path\n`,
    });
    expect(readFileSync(out, 'utf8')).toBe('x');
  });

  it('refuses a directory where an output file should be', () => {
    const out = join(tmp, 'a-dir');
    mkdirSync(out);
    expect(svc(['ir', 'evidence-bundle', 'fixtures/sample-baseline.json', '--out', out])).toMatchObject({
      status: 3,
      stderr: `Error: ${out}: is a directory, expected a file path; name the file to write\n`,
    });
  });

  it('refuses a tampered bundle with exit 4', () => {
    const out = join(tmp, 'tampered');
    svc(['ir', 'auditor-bundle', 'fixtures/sample-baseline.json', '--out-dir', out]);
    const path = join(out, 'evidence-bundle.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('Three guest accounts', 'No guest accounts'));
    expect(svc(['evidence', 'graph', out])).toMatchObject({
      status: 4,
      stderr: expect.stringMatching(
        /entry KSI-AC-02: content_hash records sha256:\w+, the entry hashes to sha256:\w+; the bundle was changed after it was written\n$/,
      ),
    });
  });
});
