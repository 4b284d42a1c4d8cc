import { createHash } from 'node:crypto';
import { createReadStream, type Dirent } from 'node:fs';
import { open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { parseAllDocuments } from 'yaml';
import { InvalidInputError, NotFoundError } from '../../domain/errors';
import { structuredFormat } from '../../domain/substrate/resource-extraction';
import type { TreeFile, TreeWalk } from '../../domain/substrate/tree-snapshot';
import type { ConfigTreeReader } from '../../ports/config-tree-reader';
import { translateFsError } from '../shared/fs-errors';
import { parseJson } from '../../domain/encoding/json-syntax-problem';

const MIB = 1024 * 1024;
const IGNORE_FILES = ['.gitignore', '.svcignore'];
/** Bytes looked at for a NUL to tell binary files from text (what git does). */
const SNIFF_BYTES = 8000;

export interface TreeReaderOptions {
  /** Files larger than this are hashed while streaming and not parsed (64 MiB). */
  maxParseBytes?: number;
}

/** The ignore rules of one directory: its `.gitignore` then its `.svcignore` (which may re-include). */
interface Rules {
  /** The directory, relative to the root ('' for the root). */
  base: string;
  matcher: Ignore;
}

/**
 * Walks a directory with node:fs. `.git/` and whatever `.gitignore`/`.svcignore` files exclude (at any level,
 * patterns relative to their own directory, the deepest file that has a say deciding, as git does) are left out.
 * A symbolic link is read only when its real path is a file inside the tree's real path; any other link is
 * skipped with the reason, so nothing outside the tree is ever read. Files are read one at a time.
 */
export class FsConfigTreeReader implements ConfigTreeReader {
  private readonly maxParseBytes: number;

  constructor(options: TreeReaderOptions = {}) {
    this.maxParseBytes = options.maxParseBytes ?? 64 * MIB;
  }

  async walk(dir: string): Promise<TreeWalk> {
    const top = resolve(dir);
    let kind;
    try {
      kind = await stat(top);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new NotFoundError('tree-not-found', `${dir}: no such directory; pass the configuration directory to walk`, { cause: error });
      throw translateFsError(error, dir, 'directory');
    }
    if (!kind.isDirectory()) throw new InvalidInputError('tree-not-directory', `${dir}: is a file, expected a directory; pass the directory that holds it`);
    const walk: TreeWalk = { root: basename(top) || top, files: [], skipped: [], unparsed: [] };
    const shown = dir.replace(/[\\/]+$/, '') || dir;
    await new Visit(this.maxParseBytes, await realpath(top), shown, walk).directory(top, '', []);
    return walk;
  }
}

class Visit {
  constructor(
    private readonly maxParseBytes: number,
    private readonly realRoot: string,
    private readonly shown: string,
    private readonly walk: TreeWalk,
  ) {}

  async directory(abs: string, rel: string, inherited: readonly Rules[]): Promise<void> {
    const entries = await this.guard(rel || '.', () => readdir(abs, { withFileTypes: true }));
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    const rules = await this.rules(abs, rel, entries, inherited);
    for (const entry of entries) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.name === '.git' || ignored(rules, path, entry.isDirectory())) continue;
      const full = join(abs, entry.name);
      if (entry.isDirectory()) await this.directory(full, path, rules);
      else if (entry.isSymbolicLink()) await this.link(full, path);
      else if (entry.isFile()) await this.file(full, path);
      else this.skip(path, 'not a regular file');
    }
  }

  private async rules(abs: string, rel: string, entries: readonly Dirent[], inherited: readonly Rules[]): Promise<readonly Rules[]> {
    const present = IGNORE_FILES.filter((name) => entries.some((e) => e.name === name && e.isFile()));
    if (present.length === 0) return inherited;
    const matcher = ignore();
    for (const name of present) matcher.add(await this.guard(rel === '' ? name : `${rel}/${name}`, () => readFile(join(abs, name), 'utf8')));
    return [...inherited, { base: rel, matcher }];
  }

  /** Follows a link only to a file inside the tree; reads the target by its real path, which the check just vetted. */
  private async link(full: string, path: string): Promise<void> {
    let target: string;
    try {
      target = await realpath(full);
    } catch {
      return this.skip(path, 'broken symbolic link');
    }
    if (target !== this.realRoot && !target.startsWith(this.realRoot + sep)) return this.skip(path, 'symbolic link to outside the tree (not followed)');
    const info = await this.guard(path, () => stat(target));
    if (info.isDirectory()) return this.skip(path, 'symbolic link to a directory (not followed)');
    if (!info.isFile()) return this.skip(path, 'symbolic link to something that is not a regular file');
    await this.file(target, path);
  }

  private async file(full: string, path: string): Promise<void> {
    const { size } = await this.guard(path, () => stat(full));
    if (size > this.maxParseBytes) {
      const sha256 = await this.guard(path, () => streamedSha256(full));
      const format = (await this.guard(path, () => head(full))).includes(0) ? 'binary' : 'text';
      this.walk.files.push({ path, sha256, bytes: size, format });
      this.walk.unparsed.push({ path, reason: `larger than ${sizeText(this.maxParseBytes)}: hashed, not parsed for resources` });
      return;
    }
    const bytes = await this.guard(path, () => readFile(full));
    this.walk.files.push({ path, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, ...this.parse(path, bytes) });
  }

  /** JSON (`.json`, `.tfstate`) and YAML (`.yaml`, `.yml`) are parsed; a file that does not parse stops the walk. */
  private parse(path: string, bytes: Buffer): Pick<TreeFile, 'format' | 'documents'> {
    const syntax = /\.(json|tfstate)$/i.test(path) ? 'json' : /\.ya?ml$/i.test(path) ? 'yaml' : undefined;
    if (syntax === undefined) return { format: bytes.subarray(0, SNIFF_BYTES).includes(0) ? 'binary' : 'text' };
    const text = bytes.toString('utf8', bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
    const where = `${this.shown}/${path}`;
    const documents = syntax === 'json' ? [parseJson(text, where)] : parseYaml(text, where);
    return { format: structuredFormat(path, syntax, documents), documents };
  }

  private skip(path: string, reason: string): void {
    this.walk.skipped.push({ path, reason });
  }

  private async guard<T>(path: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw translateFsError(error, `${this.shown}/${path}`, 'file');
    }
  }
}

/** The deepest ignore file that says anything about `path` decides (a deeper `!pattern` re-includes). */
function ignored(rules: readonly Rules[], path: string, directory: boolean): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const { base, matcher } = rules[i];
    const relative = (base === '' ? path : path.slice(base.length + 1)) + (directory ? '/' : '');
    const verdict = matcher.test(relative);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/** Every document of a YAML stream as plain data; the first error names the file, line and column. */
function parseYaml(text: string, where: string): unknown[] {
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error) {
      const position = error.linePos?.[0];
      const at = position ? ` at line ${position.line}, column ${position.col}` : '';
      const problem = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw new InvalidInputError('invalid-yaml', `${where}: invalid YAML${at}: ${problem}; fix the syntax there`);
    }
  }
  try {
    return list.map((doc) => doc.toJS());
  } catch (error) {
    throw new InvalidInputError('invalid-yaml', `${where}: cannot read the YAML: ${(error as Error).message}; simplify the document`, { cause: error });
  }
}

async function streamedSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function head(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function sizeText(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}
