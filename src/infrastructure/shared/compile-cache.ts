import { hash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Script } from 'node:vm';

/**
 * V8's code cache for the CommonJS modules a CLI process loads, kept between runs: what Node 22 does with
 * `module.enableCompileCache()`, for Node 20, which has none. Compiling the ~230 modules of a command (oclif, tsyringe,
 * the composition root) took about a fifth of the CPU time of a warm `svc oscal validate`; with their code cache, loading
 * them takes about 14 ms less (docs/performance.md).
 *
 * One file per Node version and installation holds the code cache of every module loaded so far, each with the digest
 * of the source it was made from and its own: a module whose source changed, or whose entry is damaged, is compiled as
 * usual and its entry made again. Entries are made when the process ends (so they hold the functions the run
 * compiled, not just the top level) and written only when a run compiled something: a warm run reads and never writes.
 * The file is only used when the current user owns it and nobody else may write it, since it is run as code. It is an
 * optimisation: when it cannot be read or written, modules are compiled as they are without it.
 */
export interface CompileCacheOptions {
  /** Directory of the cache file; made on the first write. */
  dir: string;
  /** The installation whose modules are cached: names the cache file; module paths are kept relative to it. */
  root: string;
}

const FORMAT = 'svc-compile-cache/1';
/** Node's CommonJS wrapper (Module.wrapper): a module compiled in it behaves as Node's own compilation of it. */
const HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const TAIL = '\n});';
/** A module that imports dynamically needs Node's own compilation: a vm.Script's import() would need an experimental loader. */
const DYNAMIC_IMPORT = /\bimport\s*\(/;

interface CjsModule {
  exports: unknown;
  require(id: string): unknown;
}

interface ModuleInternals {
  prototype: { _compile(this: CjsModule, content: string, filename: string, ...rest: unknown[]): unknown };
  _resolveFilename(request: string, parent: CjsModule, isMain: boolean, options?: { paths?: string[] }): string;
  _resolveLookupPaths(request: string, parent: CjsModule): string[] | null;
  _extensions: NodeJS.RequireExtensions;
  _cache: NodeJS.Dict<NodeModule>;
  enableCompileCache?: (dir: string) => unknown;
}

/** [path relative to root, digest of the source, offset of the code cache in the data, its length, its digest] */
type IndexEntry = [string, string, number, number, string];

interface Compiled {
  key: string;
  source: string;
  script: Script;
}

let enabled = false;

/** Installs the cache for the rest of the process (once; later calls do nothing). */
export function enableCompileCache(options: CompileCacheOptions): void {
  if (enabled || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  enabled = true;
  const internals = Module as unknown as ModuleInternals;
  if (typeof internals.enableCompileCache === 'function') {
    internals.enableCompileCache(options.dir); // Node 22 and later: Node's own
    return;
  }
  // A policy manifest checks each module's integrity inside Node's own compilation.
  if (/--(experimental-policy|policy-integrity)/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)) return;
  const cache = new CodeCache(options);
  const compile = internals.prototype._compile;
  internals.prototype._compile = function (this: CjsModule, content: string, filename: string, ...rest: unknown[]): unknown {
    // Source maps are registered by Node's compilation; an ES module or a script with a #! line compiles only there.
    if (process.sourceMapsEnabled || (rest[0] !== undefined && rest[0] !== 'commonjs') || content.startsWith('#!') || DYNAMIC_IMPORT.test(content)) {
      return compile.call(this, content, filename, ...rest);
    }
    const script = cache.compile(filename, content);
    // What is not a CommonJS script (ES module syntax in a .js file Node would detect, a syntax error) goes to Node as it is.
    if (script === undefined) return compile.call(this, content, filename, ...rest);
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return Reflect.apply(wrapper, this.exports, [this.exports, requireFor(this, internals), this, filename, dirname(filename)]);
  };
  process.once('exit', () => cache.save());
}

/** The `require` Node gives a module (makeRequireFunction in Node's CommonJS loader). */
function requireFor(module: CjsModule, internals: ModuleInternals): NodeJS.Require {
  const require = function require(id: string) {
    return module.require(id);
  } as NodeJS.Require;
  const resolveFilename = function resolve(request: string, options?: { paths?: string[] }): string {
    return internals._resolveFilename(expectString(request), module, false, options);
  };
  resolveFilename.paths = function paths(request: string): string[] | null {
    return internals._resolveLookupPaths(expectString(request), module);
  };
  require.resolve = resolveFilename;
  require.main = process.mainModule;
  require.extensions = internals._extensions;
  require.cache = internals._cache;
  return require;
}

function expectString(request: unknown): string {
  if (typeof request !== 'string') {
    throw Object.assign(new TypeError(`The "request" argument must be of type string. Received ${request === null ? 'null' : typeof request}`), {
      code: 'ERR_INVALID_ARG_TYPE',
    });
  }
  return request;
}

const digest = (data: string | Buffer): string => hash('sha256', data, 'base64url').slice(0, 22);

class CodeCache {
  private readonly root: string;
  private readonly file: string;
  private fd: number | undefined;
  private dataStart = 0;
  private readonly entries = new Map<string, IndexEntry>();
  /** Entries this run used, and modules it compiled without one (their entries are made at exit). */
  private readonly used = new Set<string>();
  private readonly compiled = new Map<string, Compiled>();
  /** A code cache of a fixed script, to tell at exit whether V8's flags still are those of the start (see save). */
  private readonly probe = probe();

  constructor(options: CompileCacheOptions) {
    this.root = resolve(options.root);
    this.file = join(options.dir, `${process.version}-${process.arch}-${digest(this.root).slice(0, 12)}.bin`);
    this.open();
  }

  /** The module's script, from its cached code when there is a usable entry; undefined when it does not compile. */
  compile(filename: string, content: string): Script | undefined {
    const key = filename.startsWith(this.root + sep) ? filename.slice(this.root.length + 1) : relative(this.root, filename);
    const source = digest(content);
    const cachedData = this.read(key, source);
    let script: Script;
    try {
      // The wrapper's head is on the module's first line: the negative offset keeps that line's columns those of the file.
      script = new Script(HEAD + content + TAIL, { filename, columnOffset: -HEAD.length, cachedData });
    } catch {
      return undefined;
    }
    if (cachedData !== undefined && !script.cachedDataRejected) this.used.add(key);
    else this.compiled.set(key, { key, source, script });
    return script;
  }

  /**
   * Writes the file again when this run compiled a module without its entry: the entries of this run, and the others of
   * the old file whose module still exists. Not when V8's flags changed during the run (a command that collects garbage
   * itself sets --expose-gc): V8 refuses a code cache made under other flags, so the next run could use none of it.
   */
  save(): void {
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (this.compiled.size === 0 || !probe().equals(this.probe)) return;
      const kept: [IndexEntry, Buffer][] = [];
      for (const [key, entry] of this.entries) {
        if (this.compiled.has(key) || (!this.used.has(key) && !existsSync(resolve(this.root, key)))) continue;
        const data = fd === undefined ? undefined : readEntry(fd, this.dataStart, entry);
        if (data !== undefined) kept.push([entry, data]);
      }
      for (const { key, source, script } of this.compiled.values()) {
        const data = script.createCachedData();
        kept.push([[key, source, 0, data.length, digest(data)], data]);
      }
      let offset = 0;
      const index = kept.map(([[key, source, , length, check]]) => {
        const entry: IndexEntry = [key, source, offset, length, check];
        offset += length;
        return entry;
      });
      const head = Buffer.from(JSON.stringify({ format: FORMAT, entries: index }));
      const size = Buffer.alloc(4);
      size.writeUInt32LE(head.length);
      writeAtomically(this.file, [size, head, ...kept.map(([, data]) => data)]);
    } catch {
      // only an optimisation: the next run compiles as this one did
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  private open(): void {
    let fd: number | undefined;
    try {
      fd = openSync(this.file, 'r');
      const stats = fstatSync(fd);
      if (typeof process.getuid === 'function' && (stats.uid !== process.getuid() || (stats.mode & 0o022) !== 0)) throw new Error('not trusted');
      const size = readExactly(fd, 4, 0);
      const length = size?.readUInt32LE(0) ?? Infinity;
      const head = length <= stats.size - 4 ? readExactly(fd, length, 4) : undefined;
      const index = JSON.parse(head?.toString('utf8') ?? 'null') as { format?: unknown; entries?: unknown } | null;
      if (index?.format !== FORMAT || !Array.isArray(index.entries)) throw new Error('not a cache file');
      this.dataStart = 4 + length;
      for (const entry of index.entries as IndexEntry[]) {
        if (Array.isArray(entry) && entry.length === 5 && entry[2] + entry[3] <= stats.size - this.dataStart) this.entries.set(entry[0], entry);
      }
      this.fd = fd;
    } catch {
      if (fd !== undefined) closeSync(fd);
    }
  }

  private read(key: string, source: string): Buffer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry[1] !== source || this.fd === undefined) return undefined;
    return readEntry(this.fd, this.dataStart, entry);
  }
}

/** An entry's code cache, when it is all there and undamaged: V8 checks its header, not its contents. */
function readEntry(fd: number, dataStart: number, [, , offset, length, check]: IndexEntry): Buffer | undefined {
  const data = readExactly(fd, length, dataStart + offset);
  return data !== undefined && digest(data) === check ? data : undefined;
}

function readExactly(fd: number, length: number, position: number): Buffer | undefined {
  try {
    const buffer = Buffer.allocUnsafeSlow(length);
    return readSync(fd, buffer, 0, length, position) === length ? buffer : undefined;
  } catch {
    return undefined;
  }
}

function probe(): Buffer {
  return new Script('0', { filename: 'svc-compile-cache-probe' }).createCachedData();
}

/** A temporary file beside the cache file, renamed over it: a concurrent run reads the old file or the new one. */
function writeAtomically(file: string, chunks: Buffer[]): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat(chunks), { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
