import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FEDRAMP_SCHEMAS } from '../support/fedramp-schemas';
import { BIN, type SvcRun } from '../support/run-svc';

/*
 * docs/fedramp.md: "nothing is written unless it is recorded, and nothing is recorded unless it is written". svc fedramp
 * scn, incident and ocr write their files to temporaries, append the journal entry, then rename the temporaries into
 * place (docs/decisions.md). A run store that cannot be written, or is locked, leaves neither a file nor an entry; so
 * does an output directory that cannot be written; a rename that fails after the entry was appended says which entry.
 *
 * chmod does not stop root: run as root, these tests run svc as nobody (uid 65534) in a directory nobody owns.
 */
const ROOT = process.getuid?.() === 0;
const NOBODY = 65534;
const NOW = '2026-11-25T00:00:00Z';
const PROFILE = {
  type: '20x',
  class: 'B',
  fedramp_id: 'FR2611250001',
  package_uri: 'https://trust.example.com/fedramp/cpo.json',
  agencies: [{ name: 'Department of Examples' }],
};

let tmp: string;
afterAll(() => {
  for (const dir of [join(tmp, 'ro', '.svc', 'store'), join(tmp, 'ro', 'sealed')]) if (existsSync(dir)) chmodSync(dir, 0o700);
  rmSync(tmp, { recursive: true, force: true });
});
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-record-write-'));
});

/** A work directory with the profile; owned by nobody when the tests run as root. */
function workDir(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
  if (ROOT) {
    chownSync(tmp, NOBODY, NOBODY);
    chownSync(dir, NOBODY, NOBODY);
    chownSync(join(dir, 'svc.config.json'), NOBODY, NOBODY);
  }
  return dir;
}

/** The built CLI in `dir`, with its own svc home and cache, as nobody when the tests run as root. */
function svcIn(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): SvcRun {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, SOURCE_DATE_EPOCH: '1767225600', SVC_HOME: join(dir, '.svc'), SVC_CACHE_DIR: join(dir, '.cache'), ...env },
    encoding: 'utf8',
    ...(ROOT ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}

/** The journal's lines as the file store keeps them. */
const journal = (dir: string) => readFileSync(join(dir, '.svc', 'store', 'journal.ndjson'), 'utf8');

/** Every name under `dir` (the writer's staging directories and generations included), for before and after. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => !p.startsWith('.cache'))
    .sort();
}

const COMMANDS: [string, string[]][] = [
  ['svc fedramp scn', ['fedramp', 'scn', '--type', 'adaptive', '--summary', 'New MFA provider', '--finish', '2026-12-18', '--now', NOW]],
  [
    'svc fedramp incident',
    ['fedramp', 'incident', '--type', 'initial', '--summary', 'Credential stuffing', '--n', '3', '--occurred-at', '2026-11-24T09:00:00Z', '--now', NOW],
  ],
  ['svc fedramp ocr', ['fedramp', 'ocr', '--to', '2026-11-24', '--now', NOW]],
];

describe('a run store that cannot be written: nothing written, nothing recorded', () => {
  let dir: string;
  beforeAll(() => {
    dir = workDir('ro');
    // An SCN recorded while the store could be written: the journal exists and verifies.
    const first = svcIn(dir, [
      'fedramp',
      'scn',
      '--type',
      'adaptive',
      '--summary',
      'First change',
      '--finish',
      '2026-12-01',
      '--now',
      NOW,
      '--out',
      'first.json',
    ]);
    expect([first.status, first.stderr]).toEqual([0, '']);
    chmodSync(join(dir, '.svc', 'store'), 0o500);
  });

  it.each(COMMANDS)('%s exits 5 naming the store, and leaves no file, temporary or journal entry', (_name, args) => {
    const before = tree(dir);
    const entries = journal(dir);
    const run = svcIn(dir, [...args, '--out', 'out.json']);
    expect(run).toEqual({
      status: 5,
      stdout: '',
      stderr: `Error: ${join(dir, '.svc', 'store', 'store.lock')}: permission denied; check the run store lock's permissions\n`,
    });
    expect(tree(dir)).toEqual(before);
    expect(journal(dir)).toBe(entries);
  });

  it('--draft still writes: it records nothing', () => {
    const run = svcIn(dir, [...COMMANDS[0][1], '--out', 'draft.json', '--draft']);
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(existsSync(join(dir, 'draft.json'))).toBe(true);
  });
});

describe('a run store locked by another process: nothing written, nothing recorded', () => {
  let dir: string;
  beforeAll(() => {
    dir = workDir('locked');
    expect(
      svcIn(dir, ['fedramp', 'scn', '--type', 'adaptive', '--summary', 'First change', '--finish', '2026-12-01', '--now', NOW, '--out', 'first.json']).status,
    ).toBe(0);
    // Held by this (live) test process, on this host.
    writeFileSync(join(dir, '.svc', 'store', 'store.lock'), JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-11-01T00:00:00.000Z' }));
  });

  it.each(COMMANDS)('%s exits 5 naming the lock and its holder, and leaves no file or journal entry', (_name, args) => {
    const before = tree(dir);
    const entries = journal(dir);
    const run = svcIn(dir, [...args, '--out', join('sub', 'out.json')], { SVC_STORE_LOCK_WAIT_MS: '1' });
    expect(run).toEqual({
      status: 5,
      stdout: '',
      stderr: `Error: ${join(dir, '.svc', 'store', 'store.lock')}: the run store is locked by process ${process.pid} on ${hostname()} since 2026-11-01T00:00:00.000Z; wait for it to finish, or remove the lock file if that process is gone\n`,
    });
    expect(tree(dir)).toEqual(before);
    expect(journal(dir)).toBe(entries);
  });
});

describe('an output directory that cannot be written: nothing recorded', () => {
  let dir: string;
  beforeAll(() => {
    dir = workDir('out');
    expect(
      svcIn(dir, ['fedramp', 'scn', '--type', 'adaptive', '--summary', 'First change', '--finish', '2026-12-01', '--now', NOW, '--out', 'first.json']).status,
    ).toBe(0);
    mkdirSync(join(dir, 'sealed'));
    if (ROOT) chownSync(join(dir, 'sealed'), NOBODY, NOBODY);
    chmodSync(join(dir, 'sealed'), 0o500);
    writeFileSync(join(dir, 'a-file'), '');
  });

  it.each(COMMANDS)('%s: a read-only directory exits 5, a file where the directory should be exits 3; no entry either way', (_name, args) => {
    const entries = journal(dir);
    expect(svcIn(dir, [...args, '--out', join('sealed', 'out.json')])).toEqual({
      status: 5,
      stdout: '',
      stderr: `Error: sealed: permission denied; check the output directory's permissions\n`,
    });
    expect(svcIn(dir, [...args, '--out', join('a-file', 'out.json')])).toEqual({
      status: 3,
      stdout: '',
      stderr: 'Error: a-file: is a file, expected a directory for the bundle; pass a directory path\n',
    });
    expect(readdirSync(join(dir, 'sealed'))).toEqual([]);
    expect(journal(dir)).toBe(entries);
  });
});

describe('files that cannot be put in place after the entry was appended', () => {
  it('say which journal entry records the document, why the files are not there, and how to write them without recording it twice (exit 5)', () => {
    const dir = workDir('after');
    mkdirSync(join(dir, 'out'));
    if (ROOT) chownSync(join(dir, 'out'), NOBODY, NOBODY);
    // Another (live) process moving a bundle into out/: the rename waits for it, 10 s, and gives up.
    writeFileSync(join(dir, 'out', '.svc-commit.lock'), JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-11-01T00:00:00.000Z' }));
    const run = svcIn(dir, [...COMMANDS[0][1], '--out', 'out/scn.json']);
    const store = join(dir, '.svc', 'store');
    expect(run).toEqual({
      status: 5,
      stdout: '',
      stderr:
        `Error: out/scn.json: recorded as journal entry 1 of ${store}, but its files could not be put in place (out/.svc-commit.lock: the output directory is locked by process ${process.pid} on ${hostname()} since 2026-11-01T00:00:00.000Z while it moves a bundle in; wait for it to finish, or remove the lock file if that process is gone); ` +
        'neither it nor its twin was written. Fix that, then run the same command with --draft to write them without recording the SCN a second time\n',
    });
    expect(readdirSync(join(dir, 'out'))).toEqual(['.svc-commit.lock']);
    expect(journal(dir).trim().split('\n')).toHaveLength(1);
    // The advice holds: --draft writes the document the entry records.
    rmSync(join(dir, 'out', '.svc-commit.lock'));
    expect(svcIn(dir, [...COMMANDS[0][1], '--out', 'out/scn.json', '--draft']).status).toBe(0);
    const entry = JSON.parse(journal(dir).trim()) as { record: { document: unknown } };
    expect(JSON.parse(readFileSync(join(dir, 'out', 'scn.json'), 'utf8'))).toEqual(entry.record.document);
  });
});
