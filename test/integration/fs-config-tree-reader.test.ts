import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsConfigTreeReader } from '../../src/infrastructure/substrate/fs-config-tree-reader';
import type { TreeWalk } from '../../src/domain/substrate/tree-snapshot';
import { FIXTURES } from '../support/run-svc';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-tree-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function put(path: string, content: string): void {
  mkdirSync(join(tmp, path, '..'), { recursive: true });
  writeFileSync(join(tmp, path), content);
}

const paths = (walk: TreeWalk) => walk.files.map((f) => `${f.path} ${f.format}`);

async function refusal(dir: string): Promise<string> {
  try {
    await new FsConfigTreeReader().walk(dir);
  } catch (error) {
    return `${(error as { code: string }).code}: ${(error as Error).message}`;
  }
  return 'walked';
}

describe('FsConfigTreeReader', () => {
  it('walks the fixture tree: formats detected, .gitignore and a nested .svcignore honoured', async () => {
    const walk = await new FsConfigTreeReader().walk(join(FIXTURES, 'substrate', 'tree-a'));
    expect(walk.root).toBe('tree-a');
    expect(paths(walk).sort()).toEqual([
      '.gitignore text',
      'README.md text',
      'app/settings.json json',
      'k8s/network/deny-all.yaml kubernetes',
      'k8s/workloads.yaml kubernetes',
      'm365/.svcignore text',
      'm365/ProviderSettingsExport.json m365-settings',
      'terraform/terraform.tfstate terraform-state',
    ]);
    const workloads = walk.files.find((f) => f.path === 'k8s/workloads.yaml');
    expect((workloads?.documents ?? []).map((d) => (d as { kind: string }).kind)).toEqual(['ServiceAccount', 'RoleBinding', 'Deployment']);
    expect([walk.skipped, walk.unparsed]).toEqual([[], []]);
  });

  it('honours ignore files at two levels, relative to their own directory, a deeper one re-including', async () => {
    put('.gitignore', '*.log\nsecret/\n/top-only.txt\n');
    put('a.log', 'x');
    put('top-only.txt', 'x');
    put('secret/key.json', '{}');
    put('sub/.svcignore', '!keep.log\nlocal.txt\n');
    put('sub/keep.log', 'x');
    put('sub/drop.log', 'x');
    put('sub/local.txt', 'x');
    put('sub/top-only.txt', 'x');
    put('local.txt', 'x');
    put('.git/config', 'x');
    const walk = await new FsConfigTreeReader().walk(tmp);
    expect(walk.files.map((f) => f.path)).toEqual(['.gitignore', 'local.txt', 'sub/.svcignore', 'sub/keep.log', 'sub/top-only.txt']);
  });

  it('records a link to a file inside the tree with the target content, and skips links outside, to directories and broken ones', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'svc-outside-'));
    try {
      writeFileSync(join(outside, 'passwd.json'), '{"secret": true}');
      put('tree/real.json', '{"a": 1}');
      put('tree/dir/x.txt', 'x');
      symlinkSync('real.json', join(tmp, 'tree', 'inside.json'));
      symlinkSync(join(outside, 'passwd.json'), join(tmp, 'tree', 'outside.json'));
      symlinkSync(outside, join(tmp, 'tree', 'outside-dir'));
      symlinkSync('dir', join(tmp, 'tree', 'inside-dir'));
      symlinkSync('missing.json', join(tmp, 'tree', 'broken.json'));
      const walk = await new FsConfigTreeReader().walk(join(tmp, 'tree'));
      expect(paths(walk)).toEqual(['dir/x.txt text', 'inside.json json', 'real.json json']);
      expect(walk.files[1].sha256).toBe(walk.files[2].sha256);
      expect(walk.skipped).toEqual([
        { path: 'broken.json', reason: 'broken symbolic link' },
        { path: 'inside-dir', reason: 'symbolic link to a directory (not followed)' },
        { path: 'outside-dir', reason: 'symbolic link to outside the tree (not followed)' },
        { path: 'outside.json', reason: 'symbolic link to outside the tree (not followed)' },
      ]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('reads multi-document YAML as one document per ---, and a UTF-8 byte-order mark in JSON', async () => {
    put('m.yaml', 'a: 1\n---\nb: [2]\n---\n');
    put('bom.json', '\ufeff{"x": 1}');
    const walk = await new FsConfigTreeReader().walk(tmp);
    expect(walk.files.map((f) => [f.path, f.format, f.documents])).toEqual([
      ['bom.json', 'json', [{ x: 1 }]],
      ['m.yaml', 'yaml', [{ a: 1 }, { b: [2] }, null]],
    ]);
  });

  it('fails on a JSON or YAML file that does not parse, naming the file, line and column', async () => {
    put('conf/bad.json', '{\n  "a": 1,\n  "b": }\n');
    expect(await refusal(tmp)).toMatch(/^invalid-json: .*\/conf\/bad\.json: invalid JSON at line 3, column 8: Unexpected token '}'[^]*; fix the syntax there/);
    rmSync(join(tmp, 'conf', 'bad.json'));
    put('conf/bad.yaml', 'a: 1\n---\nb: [1,\n c: d: e\n');
    expect(await refusal(tmp)).toMatch(
      /^invalid-yaml: .*\/conf\/bad\.yaml: invalid YAML at line 4, column 5: Block collections are not allowed within flow collections; fix the syntax there$/,
    );
  });

  it('refuses a missing directory and a file given as the directory', async () => {
    expect(await refusal(join(tmp, 'nope'))).toBe(`tree-not-found: ${join(tmp, 'nope')}: no such directory; pass the configuration directory to walk`);
    put('f.json', '{}');
    expect(await refusal(join(tmp, 'f.json'))).toBe(
      `tree-not-directory: ${join(tmp, 'f.json')}: is a file, expected a directory; pass the directory that holds it`,
    );
  });

  it('hashes a file above the parse limit without parsing it, and says so', async () => {
    put('big.json', '{"not": "parsed"');
    put('small.json', '{}');
    const walk = await new FsConfigTreeReader({ maxParseBytes: 10 }).walk(tmp);
    expect(walk.files.map((f) => [f.path, f.format, f.documents])).toEqual([
      ['big.json', 'text', undefined],
      ['small.json', 'json', [{}]],
    ]);
    expect(walk.files[0].sha256).toBe(createHash('sha256').update('{"not": "parsed"').digest('hex'));
    expect(walk.unparsed).toEqual([{ path: 'big.json', reason: 'larger than 10 bytes: hashed, not parsed for resources' }]);
  });

  it('gives the same walk for a copy of the tree elsewhere', async () => {
    const source = join(FIXTURES, 'substrate', 'tree-a');
    cpSync(source, join(tmp, 'x', 'tree-a'), { recursive: true });
    const [here, there] = [await new FsConfigTreeReader().walk(source), await new FsConfigTreeReader().walk(join(tmp, 'x', 'tree-a'))];
    expect(there).toEqual(here);
  });
});
