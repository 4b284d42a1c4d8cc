import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UnavailableError } from '../../src/domain/errors';
import { FsArtifactWriter } from '../../src/infrastructure/artifacts/fs-artifact-writer';
import { artifactWriterContract } from '../contracts/artifact-writer.contract';
import { InMemoryArtifactWriter } from '../fakes/in-memory-artifact-writer';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

artifactWriterContract('FsArtifactWriter', async () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-writer-'));
  roots.push(root);
  return {
    writer: new FsArtifactWriter(),
    root,
    read: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined),
    list: (dir) => (existsSync(dir) ? readdirSync(dir).sort() : []),
    seed: (path, text) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
  };
});

artifactWriterContract('InMemoryArtifactWriter (test double)', async () => {
  const writer = new InMemoryArtifactWriter();
  const list = (dir: string) =>
    [...new Set([...writer.files.keys()].filter((p) => p.startsWith(`${dir}/`)).map((p) => p.slice(dir.length + 1).split('/')[0]))].sort();
  return { writer, root: '/mem', read: (path) => writer.files.get(path), list, seed: (path, text) => writer.files.set(path, text) };
});

describe('FsArtifactWriter on disk', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-writer-'));
    roots.push(root);
  });

  it('creates missing parent directories and takes them away again on abort', async () => {
    const dir = join(root, 'a', 'b', 'bundle');
    const tx = await new FsArtifactWriter().begin(dir);
    tx.open('x.json').write('{}');
    await tx.abort();
    expect(readdirSync(root)).toEqual([]);
  });

  it('reports a path through a file as an input error naming the path', async () => {
    writeFileSync(join(root, 'file'), 'x');
    await expect(new FsArtifactWriter().begin(join(root, 'file', 'bundle'))).rejects.toThrow(/a part of the path is a file, not a directory/);
  });

  it('leaves no temporary file after committing', async () => {
    const dir = join(root, 'bundle');
    mkdirSync(dir);
    const tx = await new FsArtifactWriter().begin(dir);
    const sink = tx.open('x.json');
    sink.write('{}');
    await sink.close();
    await tx.commit();
    expect(visible(dir)).toEqual(['x.json']);
  });

  it('replaces only the files a write names: two SARs of other names in one directory both stay, and an old page stays', async () => {
    const dir = join(root, 'shared');
    mkdirSync(dir);
    const write = async (files: Record<string, string>) => {
      const tx = await new FsArtifactWriter().begin(dir);
      for (const [name, text] of Object.entries(files)) {
        const sink = tx.open(name);
        sink.write(text);
        await sink.close();
      }
      await tx.commit();
    };
    await write({ 'a.json': 'A', 'a.json.dsse.json': 'A sig', 'pages/one.md': '1' });
    await write({ 'b.json': 'B', 'b.json.dsse.json': 'B sig', 'pages/two.md': '2' });
    await write({ 'a.json': 'A2', 'a.json.dsse.json': 'A2 sig' });
    expect(visible(dir)).toEqual(['a.json', 'a.json.dsse.json', 'b.json', 'b.json.dsse.json', 'pages']);
    expect(['a.json', 'a.json.dsse.json', 'b.json', 'b.json.dsse.json', 'pages/one.md', 'pages/two.md'].map((f) => read(join(dir, f)))).toEqual([
      'A2',
      'A2 sig',
      'B',
      'B sig',
      '1',
      '2',
    ]);
  });

  it('writes members in subdirectories (docs/areas/AC.md), into a new directory and into an existing one', async () => {
    for (const existing of [false, true]) {
      const dir = join(root, 'docs');
      if (existing) writeFileSync(join(dir, 'old.md'), 'kept');
      const tx = await new FsArtifactWriter().begin(dir);
      for (const [name, text] of [
        ['index.md', '# i'],
        ['areas/AC.md', '# AC'],
        ['controls/ac-2.md', '# ac-2'],
      ]) {
        const sink = tx.open(name);
        sink.write(text);
        await sink.close();
      }
      await tx.commit();
      expect(readFileSync(join(dir, 'areas', 'AC.md'), 'utf8')).toBe('# AC');
      expect(visible(dir)).toEqual(existing ? ['areas', 'controls', 'index.md', 'old.md'] : ['areas', 'controls', 'index.md']);
    }
  });

  it('refuses a member path that climbs out or is not plain (../x, a//b, /abs)', async () => {
    const tx = await new FsArtifactWriter().begin(join(root, 'docs'));
    for (const name of ['../escape.md', 'a//b.md', '/abs.md', 'a/../b.md', '.hidden/x.md']) expect(() => tx.open(name)).toThrow(/not a fresh plain file name/);
    await tx.abort();
  });
});

/**
 * The names in a bundle directory, less the generation a replaced bundle's members link through
 * (bundle-generations.ts): `.svc-current` and the one `.svc-gen-*` it names, checked to be all there is of it.
 */
function visible(dir: string): string[] {
  const names = readdirSync(dir).sort();
  const generations = names.filter((n) => n === '.svc-current' || n.startsWith('.svc-gen-'));
  if (generations.length > 0) expect(generations).toEqual(['.svc-current', readlinkSync(join(dir, '.svc-current'))]);
  return names.filter((n) => !generations.includes(n));
}

/** The tag lock-owner.ts gives temporary names of process `pid` (start time unknown) on this host. */
const tagOf = (pid: number) => `svc-tmp-${createHash('sha256').update(hostname()).digest('hex').slice(0, 8)}-${pid}-0-0badcafe`;
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;
const seed = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const read = (path: string) => readFileSync(path, 'utf8');

async function writeBundle(writer: FsArtifactWriter, dir: string, files: Record<string, string>): Promise<void> {
  const tx = await writer.begin(dir);
  for (const [name, text] of Object.entries(files)) {
    const sink = tx.open(name);
    sink.write(text);
    await sink.close();
  }
  await tx.commit();
}

describe('FsArtifactWriter after a crash (SIGKILL) of another writer', () => {
  let root: string;
  let live: ChildProcess;
  beforeAll(() => {
    live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  });
  afterAll(() => live.kill('SIGKILL'));
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-writer-crash-'));
    roots.push(root);
  });

  it("removes the staging directories and temporary files of a process that is gone, and keeps a live process's", async () => {
    const dir = join(root, 'bundle');
    const dead = tagOf(deadPid());
    const alive = tagOf(live.pid as number);
    seed(join(dir, 'a.json'), 'A');
    seed(join(dir, `.bundle.${dead}`, 'a.json'), 'half of B');
    seed(join(dir, `.bundle.${dead}`, 'controls', 'ac-2.md'), 'half');
    seed(join(dir, `.bundle.${alive}`, 'a.json'), 'C, being written');
    seed(join(root, `.bundle.${dead}`, 'a.json'), 'a new directory, never renamed');
    seed(join(root, `.report.md.${dead}`), 'half a report');
    seed(join(root, `.report.md.${alive}`), 'a report being written');
    seed(join(root, '.report.md.0123456789ab.tmp'), 'not ours to judge');
    const tx = await new FsArtifactWriter().begin(dir);
    expect(readdirSync(root).sort()).toEqual(['.report.md.0123456789ab.tmp', `.report.md.${alive}`, 'bundle']);
    const ours = (name: string) => new RegExp(`^\\.bundle\\.svc-tmp-[0-9a-f]{8}-${process.pid}-`).test(name);
    expect(
      readdirSync(dir)
        .filter((name) => !ours(name))
        .sort(),
    ).toEqual([`.bundle.${alive}`, 'a.json']);
    expect(readdirSync(dir).filter(ours)).toHaveLength(1);
    await tx.abort();
    expect(readdirSync(dir).sort()).toEqual([`.bundle.${alive}`, 'a.json']);
    expect(read(join(dir, 'a.json'))).toBe('A');
  });

  it('removes the temporary file of a single file whose writer is gone, when it next writes into that directory', async () => {
    const dead = tagOf(deadPid());
    seed(join(root, `.report.md.${dead}`), 'half a report');
    const sink = await new FsArtifactWriter().open(join(root, 'other.md'));
    sink.write('# other');
    await sink.close();
    expect(readdirSync(root)).toEqual(['other.md']);
  });

  it('moves in the rest of a bundle whose writer died between two of its moves, before anything else', async () => {
    const dir = join(root, 'bundle');
    const staging = join(dir, `.bundle.${tagOf(deadPid())}`);
    // Bundle A was in place; B had been committed (marker written) and a.json moved in when the writer was killed.
    seed(join(dir, 'a.json'), 'B a');
    seed(join(dir, 'b.json'), 'A b');
    seed(join(dir, 'controls', 'ac-2.md'), 'A ac-2');
    seed(join(staging, 'b.json'), 'B b');
    seed(join(staging, 'controls', 'ac-2.md'), 'B ac-2');
    seed(join(staging, '.svc-commit'), 'a.json\nb.json\ncontrols/ac-2.md\n');
    const writer = new FsArtifactWriter();
    const tx = await writer.begin(dir);
    tx.open('a.json').write('C, aborted');
    await tx.abort();
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json', 'controls']);
    expect([read(join(dir, 'a.json')), read(join(dir, 'b.json')), read(join(dir, 'controls', 'ac-2.md'))]).toEqual(['B a', 'B b', 'B ac-2']);
  });

  it('finishes such a bundle at commit too, then puts the new bundle over it', async () => {
    const dir = join(root, 'bundle');
    seed(join(dir, 'a.json'), 'A a');
    const writer = new FsArtifactWriter();
    const tx = await writer.begin(dir);
    const staging = join(dir, `.bundle.${tagOf(deadPid())}`);
    seed(join(staging, 'a.json'), 'B a');
    seed(join(staging, 'extra.json'), 'B extra');
    seed(join(staging, '.svc-commit'), 'a.json\nextra.json\n');
    const sink = tx.open('a.json');
    sink.write('C a');
    await sink.close();
    await tx.commit();
    expect(visible(dir)).toEqual(['a.json', 'extra.json']);
    expect([read(join(dir, 'a.json')), read(join(dir, 'extra.json'))]).toEqual(['C a', 'B extra']);
  });

  it('takes over the commit lock of a process that is gone', async () => {
    const dir = join(root, 'bundle');
    seed(join(dir, '.svc-commit.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), since: '2026-11-01T00:00:00.000Z' }));
    await writeBundle(new FsArtifactWriter({ lockTimeoutMs: 200 }), dir, { 'a.json': 'B' });
    expect(visible(dir)).toEqual(['a.json']);
  });

  it('waits for a live process moving a bundle into the same directory, then gives up naming it, and leaves the bundle as it was', async () => {
    const dir = join(root, 'bundle');
    seed(join(dir, 'a.json'), 'A');
    const lock = JSON.stringify({ pid: live.pid, host: hostname(), since: '2026-11-01T00:00:00.000Z' });
    seed(join(dir, '.svc-commit.lock'), lock);
    const tx = await new FsArtifactWriter({ lockTimeoutMs: 150 }).begin(dir);
    const sink = tx.open('a.json');
    sink.write('B');
    await sink.close();
    const started = Date.now();
    const commit = tx.commit();
    await expect(commit).rejects.toBeInstanceOf(UnavailableError);
    await expect(commit).rejects.toMatchObject({
      code: 'out-dir-locked',
      message: `${dir}/.svc-commit.lock: the output directory is locked by process ${live.pid} on ${hostname()} since 2026-11-01T00:00:00.000Z while it moves a bundle in; wait for it to finish, or remove the lock file if that process is gone`,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    await tx.abort();
    expect(readdirSync(dir).sort()).toEqual(['.svc-commit.lock', 'a.json']);
    expect([read(join(dir, 'a.json')), read(join(dir, '.svc-commit.lock'))]).toEqual(['A', lock]);
  });
});
