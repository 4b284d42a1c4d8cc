import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, svc } from '../support/run-svc';

const TREE_A = join(FIXTURES, 'substrate', 'tree-a');
const ROOT_A = 'a3dc00da0c691461f19fad8531de6132aa3650277970f9a80c60d676c885fbed';

let tmp: string;
let outside: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-substrate-'));
  outside = mkdtempSync(join(tmpdir(), 'svc-substrate-outside-'));
  writeFileSync(join(outside, 'credentials.json'), '{"token": "never read"}');
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
const at = (...parts: string[]) => join(tmp, ...parts);

/** A copy of tree-a at `dir`, with a symbolic link pointing out of the tree. */
function copyTree(dir: string): string {
  cpSync(TREE_A, dir, { recursive: true });
  symlinkSync(join(outside, 'credentials.json'), join(dir, 'app', 'credentials.json'));
  return dir;
}

/** tree-b: tree-a with an IAM role changed, the RoleBinding removed, a setting renamed and the README edited (built once). */
function treeB(dir: string): string {
  if (existsSync(dir)) return dir;
  copyTree(dir);
  const state = join(dir, 'terraform', 'terraform.tfstate');
  writeFileSync(state, readFileSync(state, 'utf8').replace('"max_session_duration": 3600', '"max_session_duration": 43200'));
  const workloads = join(dir, 'k8s', 'workloads.yaml');
  writeFileSync(workloads, readFileSync(workloads, 'utf8').replace(/---\napiVersion: rbac[^]*?---\n/, '---\n'));
  writeFileSync(join(dir, 'app', 'settings.json'), '{ "logLevel": "debug", "features": { "mfaPrompt": true, "export": false }, "retention": 90 }\n');
  writeFileSync(join(dir, 'README.md'), 'Configuration of the sample system (edited).\n');
  return dir;
}

describe('svc substrate walk', () => {
  it('prints the counts, the skipped link and the Merkle root, and writes the snapshot', () => {
    const tree = copyTree(at('one', 'tree-a'));
    const run = svc(['substrate', 'walk', tree, '--out', at('one.json')]);
    expect(run).toEqual({
      stdout: [
        `Walking ${tree} ...`,
        'Files: 8',
        'Resources: 17 (identity 3, access 5, network 4, data 3, other 2)',
        'Skipped: 1 (app/credentials.json: symbolic link to outside the tree (not followed))',
        `Merkle root: ${ROOT_A}`,
        `Snapshot written to ${at('one.json')}`,
        '',
      ].join('\n'),
      stderr: '',
      status: 0,
    });
  });

  it('gives byte-identical snapshots for the same tree walked twice and for a copy elsewhere; --json prints the snapshot', () => {
    const moved = copyTree(at('elsewhere', 'deeper', 'tree-a'));
    expect(svc(['substrate', 'walk', at('one', 'tree-a'), '--out', at('again.json')]).status).toBe(0);
    expect(svc(['substrate', 'walk', moved, '--out', at('moved.json')]).status).toBe(0);
    const first = readFileSync(at('one.json'));
    expect(readFileSync(at('again.json')).equals(first)).toBe(true);
    expect(readFileSync(at('moved.json')).equals(first)).toBe(true);
    const json = svc(['substrate', 'walk', moved, '--json']);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(first.toString('utf8')));
    expect(JSON.parse(json.stdout).root).toBe('tree-a');
  });

  it('refuses a missing directory and a broken JSON file (exit 3, one line naming the place)', () => {
    expect(svc(['substrate', 'walk', at('nope')])).toEqual({
      stdout: '',
      stderr: `Error: ${at('nope')}: no such directory; pass the configuration directory to walk\n`,
      status: 3,
    });
    const broken = copyTree(at('broken'));
    writeFileSync(join(broken, 'app', 'settings.json'), '{\n  "logLevel": "info",\n}\n');
    const run = svc(['substrate', 'walk', broken]);
    expect([run.status, run.stderr]).toEqual([
      3,
      expect.stringMatching(/^Error: .*\/broken\/app\/settings\.json: invalid JSON at line 3, column 1: .*; fix the syntax there.*\n$/),
    ]);
  });
});

describe('svc substrate drift', () => {
  const table = () => svc(['substrate', 'drift', at('one.json'), treeB(at('b', 'tree-b'))]);

  it('prints the classified changes between a snapshot and a changed tree as a Markdown table', () => {
    const run = table();
    expect([run.stderr, run.status]).toEqual(['', 0]);
    expect(run.stdout.replace(/(Snapshot B: .*merkle root )[0-9a-f]{64}/, '$1<root>')).toBe(
      [
        '# Substrate drift: one.json -> tree-b',
        '',
        `Snapshot A: one.json (8 files, merkle root ${ROOT_A})`,
        'Snapshot B: tree-b (8 files, merkle root <root>)',
        '',
        '| Severity | Class | Subject | Change | Reason |',
        '|---|---|---|---|---|',
        '| P1 | DRIFT-AUTHZ | k8s:rbac.authorization.k8s.io/v1/RoleBinding/shop/web-reader | removed | access resource removed (was in k8s/workloads.yaml) |',
        '| P2 | DRIFT-AUTHZ | terraform:aws_iam_role.admin | changed | access resource changed: content hash d5f24661c2dc -> bc0fcaea81c6 |',
        '| P3 | DRIFT-SCHEMA | file:app/settings.json | changed | top-level keys added: retention; top-level keys removed: retentionDays |',
        '| P3 | DRIFT-SCHEMA | file:k8s/workloads.yaml | changed | top-level keys removed: roleRef, subjects |',
        '| P4 | DRIFT-PROVENANCE | file:README.md | changed | content changed (sha256 42b2d9854325 -> 46a5b0e5494b) but no resource in it did |',
        '',
        'Findings: 5 (P1 1, P2 1, P3 2, P4 1)',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 under --fail-on when a finding reaches that severity, and prints findings and counts under --json', () => {
    expect(svc(['substrate', 'drift', at('one.json'), treeB(at('b', 'tree-b')), '--fail-on', 'P1']).status).toBe(1);
    expect(svc(['substrate', 'drift', at('one.json'), at('again.json'), '--fail-on', 'P4']).status).toBe(0);
    const run = svc(['substrate', 'drift', at('one', 'tree-a'), at('b', 'tree-b'), '--json', '--fail-on', 'P2']);
    expect(run.status).toBe(1);
    const json = JSON.parse(run.stdout);
    expect(json.findings[0]).toEqual({
      severity: 'P1',
      class: 'DRIFT-AUTHZ',
      subject: 'k8s:rbac.authorization.k8s.io/v1/RoleBinding/shop/web-reader',
      change: 'removed',
      reason: 'access resource removed (was in k8s/workloads.yaml)',
    });
    expect(json.counts).toEqual({
      total: 5,
      severity: { P1: 1, P2: 1, P3: 2, P4: 1 },
      class: { 'DRIFT-IDENTITY': 0, 'DRIFT-AUTHZ': 2, 'DRIFT-SEMANTIC': 0, 'DRIFT-PROVENANCE': 1, 'DRIFT-SCHEMA': 2 },
    });
    expect([json.a.name, json.b.name]).toEqual(['tree-a', 'tree-b']);
  });

  it('refuses a file that is not a snapshot and a missing one (exit 3)', () => {
    const notSnapshot = svc(['substrate', 'drift', 'fixtures/sample-baseline.json', at('one.json')]);
    expect(notSnapshot).toEqual({
      stdout: '',
      stderr:
        'Error: fixtures/sample-baseline.json: schema: expected "svc.substrate-snapshot/v1", found nothing; pass a snapshot written by svc substrate walk\n',
      status: 3,
    });
    const missing = svc(['substrate', 'drift', at('one.json'), 'nope.json']);
    expect([missing.status, missing.stdout]).toEqual([3, '']);
    expect(missing.stderr).toMatch(/^Error: nope\.json: .*\n$/);
  });
});
