import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FsArtifactWriter } from '../../src/infrastructure/fs/fs-artifact-writer';
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
    expect(readdirSync(dir)).toEqual(['x.json']);
  });

  it('writes members in subdirectories (docs/areas/AC.md), into a new directory and into an existing one', async () => {
    for (const existing of [false, true]) {
      const dir = join(root, 'docs');
      if (existing) writeFileSync(join(dir, 'old.md'), 'kept');
      const tx = await new FsArtifactWriter().begin(dir);
      for (const [name, text] of [['index.md', '# i'], ['areas/AC.md', '# AC'], ['controls/ac-2.md', '# ac-2']]) {
        const sink = tx.open(name);
        sink.write(text);
        await sink.close();
      }
      await tx.commit();
      expect(readFileSync(join(dir, 'areas', 'AC.md'), 'utf8')).toBe('# AC');
      expect(readdirSync(dir).sort()).toEqual(existing ? ['areas', 'controls', 'index.md', 'old.md'] : ['areas', 'controls', 'index.md']);
    }
  });

  it('refuses a member path that climbs out or is not plain (../x, a//b, /abs)', async () => {
    const tx = await new FsArtifactWriter().begin(join(root, 'docs'));
    for (const name of ['../escape.md', 'a//b.md', '/abs.md', 'a/../b.md', '.hidden/x.md']) expect(() => tx.open(name)).toThrow(/not a fresh plain file name/);
    await tx.abort();
  });
});
