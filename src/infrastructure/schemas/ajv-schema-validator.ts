import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import type { ErrorObject, Options } from 'ajv';
import { ConfigError, IntegrityError } from '../../domain/errors';
import { cr26Shapes } from '../../domain/fedramp/schema-shapes';
import { CR26_DEFINITIONS_STEM, CR26_DOCUMENT_TYPES, cr26TypeOfStem, type Cr26DocumentType } from '../../domain/fedramp/cr26-documents';
import { compareVersions, OSCAL_SCHEMA_FILES, type OscalModel } from '../../domain/oscal/oscal-model';
import { jsonPath, type OscalProblem } from '../../domain/oscal/oscal-problem';
import type { FedrampSchemaSet, SchemaIdentity, SchemaSet, SchemaValidator } from '../../ports/schema-validator';
import { writeFileAtomically } from '../shared/atomic-file';
import { translateFsError } from '../shared/fs-errors';
import { svcCacheDir } from '../shared/cache-dir';
import { readCarriedSchemas, type CarriedSchemas } from './carried-schemas';

export interface AjvSchemaValidatorOptions {
  /** The schema directory from SVC_OSCAL_SCHEMAS or the config file; locate() falls back to it. */
  configuredDir?: string;
  /** Where compiled validators are kept between runs (see defaultOscalCacheDir). */
  cacheDir: string;
  /** FedRAMP's schema directory from SVC_FEDRAMP_SCHEMAS or the config file; locateFedramp() falls back to it. */
  fedrampConfiguredDir?: string;
  /** Where compiled FedRAMP validators are kept (see defaultFedrampCacheDir); `cacheDir` when not given. */
  fedrampCacheDir?: string;
  /** Called with the schema file each time one is compiled rather than loaded from the cache. */
  onCompile?: (file: string) => void;
  /**
   * svc's own `schemas/` (CARRIED_SCHEMAS_DIR, docs/schemas.md): with no directory given or configured, locate() uses
   * its NIST release schemas and locateFedramp() its default FedRAMP generation. Without it, none is found.
   */
  carriedDir?: string;
}

/** `SVC_CACHE_DIR`, else `$XDG_CACHE_HOME/svc`, else `~/.cache/svc` (svcCacheDir); the validators go in its `oscal/`. */
export function defaultOscalCacheDir(env: NodeJS.ProcessEnv, home: string): string {
  return join(svcCacheDir(env, home), 'oscal');
}

/** The same cache root; FedRAMP's validators go in its `fedramp/`. */
export function defaultFedrampCacheDir(env: NodeJS.ProcessEnv, home: string): string {
  return join(svcCacheDir(env, home), 'fedramp');
}

/** The schema family a file belongs to decides the Ajv it is compiled with. */
type Dialect = 'oscal' | 'fedramp';

// With unicodeRegExp off the token pattern's \p{L} silently means the text "p{L}" and valid ids fail (AJV-NOTES.md).
// code.source keeps what standalone code generation needs.
const AJV_OPTIONS: Options = { allErrors: true, strict: false, unicodeRegExp: true, code: { source: true } };
/** Bump when the layout of a cache file changes, so old files are no longer picked up. */
const CACHE_FORMAT = 'svc-oscal-validator/1';
/**
 * FedRAMP's CR26 schemas are 2020-12: Ajv2020, strict except for the two rules FedRAMP's files break (`required` in a
 * `then` naming properties defined elsewhere; `properties` beside `type: string`), docs/decisions.md.
 */
const FEDRAMP_AJV_OPTIONS: Options = { allErrors: true, strict: true, strictRequired: false, strictTypes: false, unicodeRegExp: true, code: { source: true } };
const FEDRAMP_CACHE_FORMAT = 'svc-fedramp-validator/1';
/** Named as FedRAMP publishes them: `fedramp-<document>-schema-<date>.json`. */
const FEDRAMP_SCHEMA_FILE = /^fedramp-([a-z-]+)-schema-(\d{4}-\d{2}-\d{2})\.json$/;
const RELEASE = /^\d+\.\d+\.\d+$/;
const SCHEMA_FILE = /^oscal_[a-z-]+_schema\.json$/;
const RELEASE_ID = /"\$id"\s*:\s*"https?:\/\/csrc\.nist\.gov\/ns\/oscal\/(\d+\.\d+\.\d+)\/oscal-[a-z-]+-schema\.json"/;
const DIGEST_BYTES = 32;

type StandaloneValidate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** A schema file to compile, and the SHA-256 it must have (the one its set recorded), when there is one. */
interface SchemaSource {
  path: string;
  expected?: { sha256: string; changed: (actual: string) => Error };
}

/** A schema file as read: its bytes and their hex SHA-256. */
interface ReadSchema {
  path: string;
  bytes: Buffer;
  sha256: string;
}

interface LoadedValidator {
  check: StandaloneValidate;
  script: Script;
  /** Set while the V8 code cache beside the validator is still to be written (after the first run). */
  codeCache?: { path: string; digest: Buffer };
}

/**
 * NIST's release schemas through Ajv 8 (draft-07) and ajv-formats. Compiling one takes up to a second, so each compiled
 * validator is kept as Ajv standalone code in the cache directory, named by the schema file's SHA-256, with V8's code
 * cache beside it; later runs load that instead of the compiler. Only files the current user owns and nobody else may
 * write are loaded, since they are run as code. The cache is an optimisation: when it cannot be read or written the
 * schema is compiled in memory.
 */
export class AjvSchemaValidator implements SchemaValidator {
  /** Keyed by the SHA-256 of the schema's bytes (and its definitions'), never by its path or name (docs/schemas.md). */
  private readonly loaded = new Map<string, Promise<LoadedValidator>>();
  private carriedSchemas?: CarriedSchemas;

  constructor(private readonly options: AjvSchemaValidatorOptions) {}

  async locate(dir?: string): Promise<SchemaSet> {
    const given = dir ?? this.options.configuredDir;
    const carried = given === undefined ? this.carried('oscal') : undefined;
    const shown = given ?? carried?.oscal.dir;
    if (!shown) throw schemasMissing(undefined);
    const root = resolve(shown);
    let names: string[];
    try {
      names = await readdir(root);
    } catch (error) {
      throw schemasMissing(shown, error);
    }
    const versions = new Set<string>();
    for (const name of names) {
      const path = join(root, name);
      if (RELEASE.test(name)) {
        if (await holdsSchemas(path)) versions.add(name);
      } else if (SCHEMA_FILE.test(name)) {
        const release = await releaseOf(path);
        if (release !== undefined) versions.add(release);
      }
    }
    if (versions.size === 0) throw schemasMissing(shown);
    return { dir: root, versions: [...versions].sort(compareVersions), ...(carried === undefined ? {} : { carried: true as const }) };
  }

  async validate(set: SchemaSet, version: string, model: OscalModel, document: unknown): Promise<OscalProblem[]> {
    const file = await schemaFile(set, version, model);
    return this.check(await this.validatorFor('oscal', { path: file, expected: set.carried ? this.carriedExpectation(file, 'oscal') : undefined }, []), document);
  }

  async oscalSchema(set: SchemaSet, version: string, model: OscalModel): Promise<{ file: string; sha256: string }> {
    const file = await schemaFile(set, version, model);
    const bytes = await readFile(file).catch((error: unknown) => Promise.reject(translateFsError(error, file, 'OSCAL schema file')));
    const digest = sha256(bytes).toString('hex');
    if (set.carried) this.carriedExpectation(file, 'oscal')?.check(digest);
    return { file, sha256: digest };
  }

  async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    const given = dir ?? this.options.fedrampConfiguredDir;
    const carried = given === undefined ? this.carried('fedramp') : undefined;
    const shown = given ?? carried?.fedramp.dir;
    if (!shown) throw fedrampSchemasMissing(undefined);
    return this.fedrampSetIn(shown, carried?.fedramp.generation);
  }

  async locateFedrampGenerations(): Promise<FedrampSchemaSet[]> {
    const carried = this.carried('fedramp');
    if (carried === undefined) throw fedrampSchemasMissing(undefined);
    // Every generation the manifest lists a file of (schemas/fedramp/<date>/), newest first.
    const parent = dirname(carried.fedramp.dir);
    const generations = new Set([...carried.sha256.keys()].map(dirname).filter((dir) => dirname(dir) === parent));
    return Promise.all([...generations].sort().reverse().map((dir) => this.fedrampSetIn(dir, basename(dir))));
  }

  /** The FedRAMP schemas in `shown`; `generation` when it is svc's own copy of that generation (its bytes checked against the manifest). */
  private async fedrampSetIn(shown: string, generation: string | undefined): Promise<FedrampSchemaSet> {
    const root = resolve(shown);
    let names: string[];
    try {
      names = await readdir(root);
    } catch (error) {
      throw fedrampSchemasMissing(shown, error);
    }
    // Per document, the file of the highest $schemaVersion (the later name when two say the same): the date in a name
    // says nothing, FedRAMP keeps it when it changes the schema.
    const chosen = new Map<string, SchemaIdentity>();
    const parsed = new Map<string, unknown>();
    for (const name of names.sort()) {
      const match = FEDRAMP_SCHEMA_FILE.exec(name);
      const type = match === null ? undefined : match[1] === CR26_DEFINITIONS_STEM ? ('definitions' as const) : cr26TypeOfStem(match[1]);
      if (type === undefined) continue;
      const file = join(root, name);
      const bytes = await readFile(file).catch(() => undefined);
      if (bytes === undefined) continue;
      // Parsed once: for its $schemaVersion, and (the file chosen) for the shapes it declares.
      const document = parsedSchema(bytes);
      const identity = { type, file, ...optional('schemaVersion', schemaVersionOf(document)), sha256: sha256(bytes).toString('hex') };
      if (generation !== undefined) this.carriedExpectation(file, 'fedramp')?.check(identity.sha256);
      const before = chosen.get(type);
      if (before === undefined || compareVersions(before.schemaVersion ?? '0', identity.schemaVersion ?? '0') <= 0) {
        chosen.set(type, identity);
        parsed.set(type, document);
      }
    }
    const schemas = [...CR26_DOCUMENT_TYPES, 'definitions' as const].flatMap((type) => chosen.get(type) ?? []);
    const files: Partial<Record<Cr26DocumentType, string>> = {};
    for (const s of schemas) if (s.type !== 'definitions') files[s.type] = s.file;
    if (Object.keys(files).length === 0) throw fedrampSchemasMissing(shown);
    const definitions = chosen.get('definitions');
    const shapes = cr26Shapes({ incident: parsed.get('incident'), cpo: parsed.get('cpo'), definitions: parsed.get('definitions') });
    return { dir: root, ...(generation === undefined ? {} : { carried: generation }), files, definitions: definitions ? [definitions.file] : [], schemas, shapes };
  }

  async validateFedramp(set: FedrampSchemaSet, type: Cr26DocumentType, document: unknown): Promise<OscalProblem[]> {
    const file = set.files[type];
    if (file === undefined) {
      throw new ConfigError('fedramp-schema-missing', `${set.dir}: no FedRAMP schema for ${type} documents (fedramp-*-schema-<date>.json); add the file from FedRAMP's schemas repository`);
    }
    const located = (path: string): SchemaSource => {
      const identity = set.schemas?.find((s) => s.file === path);
      if (identity === undefined) return { path };
      const changed = (actual: string) =>
        new ConfigError('fedramp-schema-changed', `${path}: changed since svc read it (sha256 ${identity.sha256}, now ${actual}); nothing was judged by it: run the command again`);
      return { path, expected: { sha256: identity.sha256, changed } };
    };
    return this.check(await this.validatorFor('fedramp', located(file), set.definitions.map(located)), document);
  }

  /** svc's own schemas, their manifest read on first use; undefined when no carriedDir was given. */
  private carried(what: 'fedramp' | 'oscal'): CarriedSchemas | undefined {
    if (this.options.carriedDir === undefined) return undefined;
    this.carriedSchemas ??= readCarriedSchemas(this.options.carriedDir, what);
    return this.carriedSchemas;
  }

  /** The SHA-256 svc's manifest records for one of its own files: a file that differs is refused, never run. */
  private carriedExpectation(path: string, what: 'fedramp' | 'oscal'): (SchemaSource['expected'] & { check: (actual: string) => void }) | undefined {
    const recorded = this.carried(what)?.sha256.get(path);
    if (recorded === undefined) return undefined;
    const changed = (actual: string) =>
      new IntegrityError('carried-schema-changed', `${path}: sha256 is ${actual}, svc's schemas/manifest.json says ${recorded}: svc's own copy of the schema was changed; reinstall svc`);
    return {
      sha256: recorded,
      changed,
      check: (actual) => {
        if (actual !== recorded) throw changed(actual);
      },
    };
  }

  private async check(validator: LoadedValidator, document: unknown): Promise<OscalProblem[]> {
    const valid = validator.check(document);
    const errors = valid ? [] : [...(validator.check.errors ?? [])];
    await keepCodeCache(validator);
    return toProblems(errors, document);
  }

  /**
   * The schema's bytes are read on every call and the compiled validator found by their SHA-256 (and the definitions'):
   * two files of one name (FedRAMP's generations), or a file replaced in place, never share a validator. A file whose
   * SHA-256 is not the one its set recorded is refused.
   */
  private async validatorFor(dialect: Dialect, file: SchemaSource, definitions: readonly SchemaSource[]): Promise<LoadedValidator> {
    const what = dialect === 'oscal' ? 'OSCAL schema file' : 'FedRAMP schema file';
    const read = async (source: SchemaSource): Promise<ReadSchema> => {
      const bytes = await readFile(source.path).catch((error: unknown) => Promise.reject(translateFsError(error, source.path, what)));
      const digest = sha256(bytes).toString('hex');
      if (source.expected !== undefined && digest !== source.expected.sha256) throw source.expected.changed(digest);
      return { path: source.path, bytes, sha256: digest };
    };
    const schema = await read(file);
    const extra = await Promise.all(definitions.map(read));
    const key = JSON.stringify([dialect, schema.sha256, extra.map((d) => d.sha256)]);
    let validator = this.loaded.get(key);
    if (validator === undefined) {
      validator = this.load(dialect, schema, extra);
      this.loaded.set(key, validator);
      validator.catch(() => this.loaded.delete(key));
    }
    return validator;
  }

  private async load(dialect: Dialect, schema: ReadSchema, extra: readonly ReadSchema[]): Promise<LoadedValidator> {
    const { path: file, bytes } = schema;
    // OSCAL's name is the schema's digest alone (as before); FedRAMP's covers the definitions it $refs too.
    const hex = (d: ReadSchema) => Buffer.from(d.sha256, 'hex');
    const digest = extra.length === 0 ? hex(schema) : sha256(Buffer.concat([hex(schema), ...extra.map(hex)]));
    const cacheDir = dialect === 'oscal' ? this.options.cacheDir : (this.options.fedrampCacheDir ?? this.options.cacheDir);
    const base = join(cacheDir, `${digest.toString('hex')}-${cacheKey(dialect)}`);
    const cached = await readCache(base);
    if (cached !== undefined) {
      try {
        return instantiate(cached.code, base, cached.digest, cached.codeCache);
      } catch {
        await discard(base);
      }
    }
    const code = dialect === 'oscal' ? this.compile(file, bytes) : this.compileFedramp(file, bytes, extra);
    const codeDigest = sha256(code);
    const written = await writeCache(base, codeDigest, code);
    const validator = instantiate(code, base, codeDigest, undefined);
    if (!written) delete validator.codeCache;
    return validator;
  }

  /** The only place the Ajv compiler is loaded: a cache hit never pays for it. */
  private compile(file: string, bytes: Buffer): string {
    this.options.onCompile?.(file);
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { default: Ajv } = require('ajv') as typeof import('ajv');
    const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
    const { default: standaloneCode } = require('ajv/dist/standalone') as typeof import('ajv/dist/standalone');
    /* eslint-enable @typescript-eslint/no-require-imports */
    try {
      const schema = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as object;
      const ajv = new Ajv(AJV_OPTIONS);
      addFormats(ajv);
      return standaloneCode(ajv, ajv.compile(schema));
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new ConfigError('oscal-schema-invalid', `${file}: not a usable JSON Schema (${reason}); replace it with the file from NIST's OSCAL release`, { cause: error });
    }
  }

  /** FedRAMP's dialect: Ajv2020, `$schemaVersion` an annotation, the common definitions beside, refs read with `#`. */
  private compileFedramp(file: string, bytes: Buffer, definitions: readonly { path: string; bytes: Buffer }[]): string {
    this.options.onCompile?.(file);
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { default: Ajv2020 } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
    const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
    const { default: standaloneCode } = require('ajv/dist/standalone') as typeof import('ajv/dist/standalone');
    /* eslint-enable @typescript-eslint/no-require-imports */
    let at = file;
    try {
      const ajv = new Ajv2020(FEDRAMP_AJV_OPTIONS);
      addFormats(ajv);
      ajv.addKeyword({ keyword: '$schemaVersion', schemaType: 'string' });
      for (const d of definitions) {
        at = d.path;
        if (d.path !== file) ajv.addSchema(withFragmentRefs(parseSchema(d.bytes)));
      }
      at = file;
      return standaloneCode(ajv, ajv.compile(withFragmentRefs(parseSchema(bytes))));
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new ConfigError('fedramp-schema-invalid', `${at}: not a usable JSON Schema (${reason}); replace it with the file from FedRAMP's schemas repository`, { cause: error });
    }
  }
}

/** A schema file's JSON, or undefined when it is not JSON (compiling it reports that). */
function parsedSchema(bytes: Buffer): object | undefined {
  try {
    return parseSchema(bytes);
  } catch {
    return undefined;
  }
}

/** `$schemaVersion` of a FedRAMP schema, when it writes one as a string. */
function schemaVersionOf(document: object | undefined): string | undefined {
  const version = (document as { $schemaVersion?: unknown } | null | undefined)?.$schemaVersion;
  return typeof version === 'string' ? version : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function parseSchema(bytes: Buffer): object {
  return JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as object;
}

/**
 * FedRAMP's 2026-06-24 files write a cross-file `$ref` as `<$id>/$defs/x`, without the `#` that makes the rest a
 * fragment, so resolvers look for a file of that name: read it as `<$id>#/$defs/x`, which is what FedRAMP later fixed
 * the files to. A `$ref` that has a `#` already is left as it is (docs/decisions.md).
 */
export function withFragmentRefs<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withFragmentRefs) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === '$ref' && typeof value === 'string' && !value.includes('#') ? value.replace(/^(.*?\.json)\/(?=.)/, '$1#/') : withFragmentRefs(value);
  }
  return out as T;
}

function fedrampSchemasMissing(dir: string | undefined, cause?: unknown): ConfigError {
  return new ConfigError(
    'fedramp-schemas-missing',
    `FedRAMP schemas not found${dir ? ` in ${dir}` : ''}: pass --schemas <dir>, set SVC_FEDRAMP_SCHEMAS, or set "fedramp_schemas" in svc.config.json to a directory holding FedRAMP's CR26 schemas (fedramp-*-schema-<date>.json)`,
    { cause },
  );
}

function schemasMissing(dir: string | undefined, cause?: unknown): ConfigError {
  return new ConfigError(
    'oscal-schemas-missing',
    `OSCAL schemas not found${dir ? ` in ${dir}` : ''}: pass --schemas <dir>, set SVC_OSCAL_SCHEMAS, or set "oscal_schemas" in svc.config.json to a directory holding NIST's release schemas (1.1.3/, 1.2.1/ with oscal_*_schema.json)`,
    { cause },
  );
}

async function holdsSchemas(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).some((name) => SCHEMA_FILE.test(name));
  } catch {
    return false;
  }
}

/** The release named by a schema's `$id`, which NIST writes near the top of the file. */
async function releaseOf(file: string): Promise<string | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const head = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return RELEASE_ID.exec(head.toString('utf8', 0, bytesRead))?.[1];
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** `<dir>/<version>/<file>` (layout of the release folders), else `<dir>/<file>` when its `$id` names that release. */
async function schemaFile(set: SchemaSet, version: string, model: OscalModel): Promise<string> {
  const name = OSCAL_SCHEMA_FILES[model];
  if (RELEASE.test(version)) {
    const nested = join(set.dir, version, name);
    if (await isFile(nested)) return nested;
    const flat = join(set.dir, name);
    if ((await isFile(flat)) && (await releaseOf(flat)) === version) return flat;
  }
  throw new ConfigError('oscal-schema-missing', `${set.dir}: OSCAL ${version} has no ${model} schema (${name}); add ${name} from NIST's OSCAL ${version} release, or validate against a release that has it`);
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

const optionsKeys = new Map<Dialect, string>();

/** What else, besides the schema, decides the generated code: the cache format, Ajv and ajv-formats, the options. */
function cacheKey(dialect: Dialect): string {
  let optionsKey = optionsKeys.get(dialect);
  if (optionsKey === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const versionOf = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;
    const [format, options] = dialect === 'oscal' ? [CACHE_FORMAT, AJV_OPTIONS] : [FEDRAMP_CACHE_FORMAT, { ...FEDRAMP_AJV_OPTIONS, keywords: ['$schemaVersion'], refs: 'fragment' }];
    const key = JSON.stringify([format, `ajv@${versionOf('ajv')}`, `ajv-formats@${versionOf('ajv-formats')}`, options]);
    optionsKey = sha256(key).toString('hex').slice(0, 12);
    optionsKeys.set(dialect, optionsKey);
  }
  return optionsKey;
}

function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

/** First line of a cached validator: its code's digest, so a truncated or altered file is never run. */
function headerFor(digest: Buffer): string {
  return `// ${CACHE_FORMAT} sha256=${digest.toString('hex')}`;
}

async function readCache(base: string): Promise<{ code: string; digest: Buffer; codeCache?: Buffer } | undefined> {
  const file = await readTrusted(`${base}.js`);
  if (file === undefined) return undefined;
  const text = file.toString('utf8');
  const newline = text.indexOf('\n');
  const code = text.slice(newline + 1);
  const digest = sha256(code);
  if (newline < 0 || text.slice(0, newline) !== headerFor(digest)) {
    await discard(base);
    return undefined;
  }
  // The code cache starts with the digest of the code it was made from: V8 itself only compares the source length.
  const v8 = await readTrusted(`${base}.v8`);
  const matches = v8 !== undefined && v8.length > DIGEST_BYTES && v8.subarray(0, DIGEST_BYTES).equals(digest);
  return { code, digest, codeCache: matches ? v8.subarray(DIGEST_BYTES) : undefined };
}

/** A cache file's bytes, when the current user owns it and nobody else can write it. */
async function readTrusted(path: string): Promise<Buffer | undefined> {
  try {
    const handle = await open(path, 'r');
    try {
      if (!ownedByMe(await handle.stat())) return undefined;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

function ownedByMe(file: Stats): boolean {
  if (typeof process.getuid !== 'function') return true; // Windows: no POSIX owner or mode bits to check
  return file.uid === process.getuid() && (file.mode & 0o022) === 0;
}

async function writeCache(base: string, digest: Buffer, code: string): Promise<boolean> {
  try {
    await writeAtomically(`${base}.js`, `${headerFor(digest)}\n${code}`);
    return true;
  } catch {
    return false;
  }
}

async function discard(base: string): Promise<void> {
  await rm(`${base}.js`, { force: true }).catch(() => undefined);
  await rm(`${base}.v8`, { force: true }).catch(() => undefined);
}

/**
 * Temporary file + rename, so a concurrent run reads the old file or the new one. No fsync: a file lost in a crash is
 * only a cache miss, and a damaged one fails its digest.
 */
async function writeAtomically(path: string, data: string | Buffer): Promise<void> {
  await mkdir(resolve(path, '..'), { recursive: true, mode: 0o700 });
  await writeFileAtomically(path, data, { durable: false });
}

let runtimeRequire: NodeJS.Require | undefined;

/**
 * Runs standalone code as a CommonJS module. Its `require("ajv-formats/dist/formats")` and
 * `require("ajv/dist/runtime/...")` must resolve from this project, not from the cache directory.
 */
function instantiate(code: string, base: string, digest: Buffer, codeCache: Buffer | undefined): LoadedValidator {
  runtimeRequire ??= createRequire(__filename);
  // Same line as the code, so positions in stack traces match the cached file (after its header line).
  const script = new Script(`(function (exports, require, module) {${code}\n})`, { filename: `${base}.js`, cachedData: codeCache });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: { exports: unknown }) => void)(module.exports, runtimeRequire, module);
  if (typeof module.exports !== 'function') throw new Error(`${base}.js: does not export a validate function`);
  const stale = codeCache === undefined || script.cachedDataRejected === true;
  return { check: module.exports as StandaloneValidate, script, codeCache: stale ? { path: `${base}.v8`, digest } : undefined };
}

/**
 * Made after the first validation, so it holds the functions V8 compiled lazily for it: that is where the time of a
 * fresh process goes (about half of load + first validate for the 1.2.1 SSP schema).
 */
async function keepCodeCache(validator: LoadedValidator): Promise<void> {
  const pending = validator.codeCache;
  if (pending === undefined) return;
  delete validator.codeCache;
  try {
    await writeAtomically(pending.path, Buffer.concat([pending.digest, validator.script.createCachedData()]));
  } catch {
    // the code cache is an optimisation; the next run just makes it again
  }
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'if']);

/** OSCAL datatype patterns, said in words (a regular expression is not a message, and markup-line's holds a newline). */
const PATTERN_MESSAGES = new Map<string, string>([
  ['^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[45][0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$', 'must be a UUID (RFC 4122 version 4 or 5)'],
  ['^(\\p{L}|_)(\\p{L}|\\p{N}|[.\\-_])*$', 'must be a token (a letter or _ first, then letters, digits, . - _)'],
  ['^[^\n]+$', 'must be a single non-empty line'],
  ['^\\S(.*\\S)?$', 'must be a non-empty string without leading or trailing white space'],
]);
const OSCAL_DATE = '^(((2000|2400|2800|';

function patternMessage(pattern: string): string {
  const known = PATTERN_MESSAGES.get(pattern);
  if (known !== undefined) return known;
  if (pattern.startsWith(OSCAL_DATE)) return pattern.includes(')T(') ? 'must be a date and time with a time zone, as 2024-05-01T12:00:00Z' : 'must be a date, as 2024-05-01';
  return `must match pattern ${pattern.replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1))}`;
}

function messageFor(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `must have required property '${String(params.missingProperty)}'`;
    case 'additionalProperties':
      return `must NOT have additional property ${JSON.stringify(params.additionalProperty)}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`;
    case 'pattern':
      return patternMessage(String(params.pattern));
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'type':
      return `must be ${(Array.isArray(params.type) ? params.type : String(params.type).split(',')).join(' or ')}`;
    case 'minItems':
      return `must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

interface Located {
  segments: (string | number)[];
  /** Position of each segment among its siblings in the document, to sort problems in document order. */
  order: number[];
  value: unknown;
}

const UNKNOWN_POSITION = Number.MAX_SAFE_INTEGER;

/** Resolves an Ajv instancePath (a JSON Pointer) against the document: digit segments inside arrays are indexes. */
function resolvePointer(pointer: string, document: unknown, keyOrder: WeakMap<object, Map<string, number>>): Located {
  const at: Located = { segments: [], order: [], value: document };
  if (pointer === '') return at;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const node = at.value;
    if (Array.isArray(node) && /^\d+$/.test(token)) {
      at.segments.push(Number(token));
      at.order.push(Number(token));
      at.value = node[Number(token)];
    } else {
      const isObject = node !== null && typeof node === 'object';
      at.segments.push(token);
      at.order.push(isObject ? keyIndex(node, token, keyOrder) : UNKNOWN_POSITION);
      at.value = isObject ? (node as Record<string, unknown>)[token] : undefined;
    }
  }
  return at;
}

function keyIndex(object: object, key: string, keyOrder: WeakMap<object, Map<string, number>>): number {
  let indexes = keyOrder.get(object);
  if (indexes === undefined) {
    indexes = new Map(Object.keys(object).map((k, i) => [k, i]));
    keyOrder.set(object, indexes);
  }
  return indexes.get(key) ?? UNKNOWN_POSITION;
}

function toProblems(errors: readonly ErrorObject[], document: unknown): OscalProblem[] {
  if (errors.length === 0) return [];
  const keyOrder = new WeakMap<object, Map<string, number>>();
  const found = errors.map((error, seq) => {
    const at = resolvePointer(error.instancePath, document, keyOrder);
    if (error.keyword === 'additionalProperties') {
      const key = String((error.params as { additionalProperty: unknown }).additionalProperty);
      at.segments.push(key);
      at.order.push(at.value !== null && typeof at.value === 'object' ? keyIndex(at.value, key, keyOrder) : UNKNOWN_POSITION);
    }
    const problem: OscalProblem = { layer: 'schema', rule: error.keyword, path: jsonPath(at.segments), message: messageFor(error) };
    return { problem, at, seq, combinator: COMBINATORS.has(error.keyword) };
  });
  // "must match a schema in anyOf" says nothing a more specific error at or below the same place does not say better.
  const explained = new Set<string>();
  for (const f of found) {
    if (f.combinator) continue;
    for (let n = 0; n <= f.at.segments.length; n++) explained.add(jsonPath(f.at.segments.slice(0, n)));
  }
  const seen = new Set<string>();
  return found
    .filter((f) => !(f.combinator && explained.has(f.problem.path)))
    .filter((f) => {
      const key = JSON.stringify([f.problem.rule, f.problem.path, f.problem.message]);
      return seen.has(key) ? false : (seen.add(key), true);
    })
    .sort((a, b) => compareOrder(a.at.order, b.at.order) || a.seq - b.seq)
    .map((f) => f.problem);
}

function compareOrder(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
