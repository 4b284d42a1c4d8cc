import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/domain/errors';
import { readOscalDocument } from '../../src/domain/oscal/oscal-model';
import { AjvSchemaValidator, defaultOscalCacheDir } from '../../src/infrastructure/schemas/ajv-schema-validator';

const ROOT = join(__dirname, '..', '..');
const OSCAL = join(ROOT, '..', 'shared', 'reference', 'oscal');
const SCHEMAS = join(OSCAL, 'schemas');
const EXAMPLES = join(OSCAL, 'examples');
const SSP_EXAMPLE = join(EXAMPLES, 'ssp_ifa_ssp-example.json');
const SSP_121 = join(SCHEMAS, '1.2.1', 'oscal_ssp_schema.json');
const BOTH = ['1.1.3', '1.2.1'];

const missing = (dir?: string) =>
  `OSCAL schemas not found${dir ? ` in ${dir}` : ''}: pass --schemas <dir>, set SVC_OSCAL_SCHEMAS, or set "oscal_schemas" in svc.config.json to a directory holding NIST's release schemas (1.1.3/, 1.2.1/ with oscal_*_schema.json)`;
const problem = (rule: string, path: string, message: string) => ({ layer: 'schema', rule, path, message });

type Ssp = { 'system-security-plan': Record<string, any> };
const sspExample = (): Ssp => JSON.parse(readFileSync(SSP_EXAMPLE, 'utf8')) as Ssp;

describe('AjvSchemaValidator', () => {
  let tmp: string;
  let cache: string;
  let compiles: string[];
  let validator: AjvSchemaValidator;
  const fresh = (cacheDir = cache) => new AjvSchemaValidator({ cacheDir, onCompile: (file) => compiles.push(file) });
  const validate = async (document: unknown, version: string, v = validator) => v.validate(await v.locate(SCHEMAS), version, 'system-security-plan', document);
  const cached = (ext: string) => readdirSync(cache).filter((name) => name.endsWith(ext));

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'svc-ajv-'));
    cache = join(tmp, 'oscal');
    compiles = [];
    validator = fresh();
  });
  afterEach(() => {
    if (existsSync(cache)) chmodSync(cache, 0o700);
    rmSync(tmp, { recursive: true, force: true });
  });

  describe('locate', () => {
    it('finds the releases of a directory of release folders, given or configured', async () => {
      // Every release folder the reference data holds (1.1.3, 1.2.1 and, since it arrived, 1.2.2).
      const releases = readdirSync(SCHEMAS).sort();
      expect(releases).toEqual(expect.arrayContaining(['1.1.3', '1.2.1']));
      expect(await validator.locate(SCHEMAS)).toEqual({ dir: SCHEMAS, versions: releases });
      expect(await new AjvSchemaValidator({ configuredDir: SCHEMAS, cacheDir: cache }).locate()).toEqual({ dir: SCHEMAS, versions: releases });
    });

    it('reads the release of a directory holding schema files from their $id', async () => {
      const flat = join(tmp, 'flat');
      mkdirSync(flat);
      for (const file of ['oscal_ssp_schema.json', 'oscal_assessment-plan_schema.json']) copyFileSync(join(SCHEMAS, '1.2.1', file), join(flat, file));
      const set = await validator.locate(flat);
      expect(set).toEqual({ dir: flat, versions: ['1.2.1'] });
      expect(await validator.validate(set, '1.2.1', 'system-security-plan', sspExample())).toEqual([]);
      await expect(validator.validate(set, '1.2.1', 'catalog', {})).rejects.toMatchObject({ kind: 'config', code: 'oscal-schema-missing' });
      await expect(validator.validate(set, '1.1.3', 'system-security-plan', sspExample())).rejects.toMatchObject({ code: 'oscal-schema-missing' });
    });

    it('says how to point at the schemas when there are none', async () => {
      const empty = join(tmp, 'empty');
      mkdirSync(join(empty, '1.2.1'), { recursive: true });
      writeFileSync(join(empty, 'notes.json'), '{}');
      await expect(validator.locate(join(tmp, 'nowhere'))).rejects.toThrow(new ConfigError('oscal-schemas-missing', missing(join(tmp, 'nowhere'))));
      await expect(validator.locate(empty)).rejects.toThrow(missing(empty));
      await expect(validator.locate()).rejects.toThrow(missing());
      await expect(validator.locate(join(tmp, 'nowhere'))).rejects.toMatchObject({ kind: 'config', code: 'oscal-schemas-missing' });
    });

    it('refuses a schema file that is no usable JSON Schema', async () => {
      const flat = join(tmp, 'flat');
      mkdirSync(flat);
      const id = '"$id": "http://csrc.nist.gov/ns/oscal/1.2.1/oscal-ssp-schema.json"';
      writeFileSync(join(flat, 'oscal_ssp_schema.json'), `{ ${id}, "type": 12 }`);
      writeFileSync(join(flat, 'oscal_poam_schema.json'), `{ ${id.replace('ssp', 'poam')}, "type": `);
      const set = await validator.locate(flat);
      await expect(validator.validate(set, '1.2.1', 'system-security-plan', {})).rejects.toThrow(
        `${join(flat, 'oscal_ssp_schema.json')}: not a usable JSON Schema (schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf); replace it with the file from NIST's OSCAL release`,
      );
      await expect(validator.validate(set, '1.2.1', 'plan-of-action-and-milestones', {})).rejects.toMatchObject({
        kind: 'config',
        code: 'oscal-schema-invalid',
      });
    });

    it('names the schema file a release lacks', async () => {
      const set = await validator.locate(SCHEMAS);
      await expect(validator.validate(set, '1.1.3', 'mapping-collection', { 'mapping-collection': {} })).rejects.toThrow(
        `${SCHEMAS}: OSCAL 1.1.3 has no mapping-collection schema (oscal_mapping_schema.json); add oscal_mapping_schema.json from NIST's OSCAL 1.1.3 release, or validate against a release that has it`,
      );
      await expect(validator.validate(set, '1.1.3', 'mapping-collection', {})).rejects.toBeInstanceOf(ConfigError);
    });
  });

  describe('schema problems', () => {
    it.each(readdirSync(EXAMPLES).filter((name) => name.endsWith('.json')))('finds none in NIST example %s against 1.1.3 and 1.2.1', async (name) => {
      const document: unknown = JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8'));
      const { model } = readOscalDocument(document, name);
      const set = await validator.locate(SCHEMAS);
      for (const version of BOTH) expect(await validator.validate(set, version, model, document)).toEqual([]);
    });

    it('reports a missing property at the object that lacks it', async () => {
      const document = sspExample();
      delete document['system-security-plan'].metadata.title;
      for (const version of BOTH)
        expect(await validate(document, version)).toEqual([problem('required', 'system-security-plan.metadata', "must have required property 'title'")]);
    });

    it('reports a bad UUID, an unknown property and a bad token in words', async () => {
      const document = sspExample();
      const ssp = document['system-security-plan'];
      ssp.uuid = 'not-a-uuid';
      ssp.metadata.colour = 'blue';
      ssp.metadata.roles[0].id = '1bad';
      expect(await validate(document, '1.2.1')).toEqual([
        problem('pattern', 'system-security-plan.uuid', 'must be a UUID (RFC 4122 version 4 or 5)'),
        problem('pattern', 'system-security-plan.metadata.roles[0].id', 'must be a token (a letter or _ first, then letters, digits, . - _)'),
        problem('additionalProperties', 'system-security-plan.metadata.colour', 'must NOT have additional property "colour"'),
      ]);
    });

    it('accepts an empty title in 1.1.3 and not in 1.2.1 (markup-line must be non-empty there)', async () => {
      const document = sspExample();
      document['system-security-plan'].metadata.title = '';
      expect(await validate(document, '1.1.3')).toEqual([]);
      expect(await validate(document, '1.2.1')).toEqual([problem('pattern', 'system-security-plan.metadata.title', 'must be a single non-empty line')]);
    });

    it('accepts ids with non-ASCII letters (the token pattern needs unicodeRegExp)', async () => {
      const document = sspExample();
      document['system-security-plan'].metadata.roles[0].id = 'rôle-owner';
      document['system-security-plan'].metadata.roles[1].id = 'ロール_2';
      for (const version of BOTH) expect(await validate(document, version)).toEqual([]);
    });

    it('says each kind of problem once, in document order, without the anyOf noise', async () => {
      const document = sspExample();
      const ssp = document['system-security-plan'];
      ssp.metadata['last-modified'] = 'yesterday';
      ssp.metadata.roles[2].props = [];
      ssp.metadata.parties[0].type = 'robot'; // fails both branches of an anyOf: reported once, without "must match a schema in anyOf"
      ssp.metadata.parties[0]['email-addresses'] = ['nobody'];
      ssp.metadata['a/b~c'] = 1; // JSON Pointer escapes ~1 and ~0
      ssp['import-profile'].href = 3;
      ssp['system-characteristics'].status.state = 'retired';
      expect(await validate(document, '1.2.1')).toEqual([
        problem('pattern', 'system-security-plan.metadata.last-modified', 'must be a date and time with a time zone, as 2024-05-01T12:00:00Z'),
        problem('format', 'system-security-plan.metadata.last-modified', 'must be a valid date-time'),
        problem('minItems', 'system-security-plan.metadata.roles[2].props', 'must have at least 1 item'),
        problem('enum', 'system-security-plan.metadata.parties[0].type', 'must be one of: person, organization'),
        problem('pattern', 'system-security-plan.metadata.parties[0].email-addresses[0]', 'must match pattern ^.+@.+$'),
        problem('format', 'system-security-plan.metadata.parties[0].email-addresses[0]', 'must be a valid email'),
        problem('additionalProperties', 'system-security-plan.metadata["a/b~c"]', 'must NOT have additional property "a/b~c"'),
        problem('type', 'system-security-plan.import-profile.href', 'must be string'),
        problem(
          'enum',
          'system-security-plan.system-characteristics.status.state',
          'must be one of: operational, under-development, under-major-modification, disposition, other',
        ),
      ]);
    });

    it('reports problems of the root as $', async () => {
      expect(await validate({}, '1.2.1')).toEqual([problem('required', '$', "must have required property 'system-security-plan'")]);
      expect(await validate([], '1.2.1')).toEqual([problem('type', '$', 'must be object')]);
    });
  });

  describe('precompiled validators', () => {
    const invalid = () => {
      const document = sspExample();
      document['system-security-plan'].uuid = 'x';
      return document;
    };

    it('compiles a schema once, keeps it in the cache, and a new instance loads it without compiling', async () => {
      let start = performance.now();
      const first = await validate(invalid(), '1.2.1');
      const compileMs = performance.now() - start;
      expect(await validate(sspExample(), '1.2.1')).toEqual([]);
      expect(compiles).toEqual([SSP_121]);
      expect(cached('.js')).toEqual([expect.stringMatching(/^[0-9a-f]{64}-[0-9a-f]{12}\.js$/)]);
      expect(cached('.v8')).toHaveLength(1);
      expect(readdirSync(cache).filter((name) => !/\.(js|v8)$/.test(name))).toEqual([]); // no temporary files left
      expect(statSync(cache).mode & 0o777).toBe(0o700);

      start = performance.now();
      const again = await validate(invalid(), '1.2.1', fresh());
      const hitMs = performance.now() - start;
      expect(compiles).toEqual([SSP_121]);
      expect(again).toEqual(first);
      expect(first).toEqual([problem('pattern', 'system-security-plan.uuid', 'must be a UUID (RFC 4122 version 4 or 5)')]);
      console.log(
        `ssp 1.2.1 in jest (a warm process: V8 still holds the code): compile + first validate ${compileMs.toFixed(0)} ms; cache hit + first validate ${hitMs.toFixed(0)} ms`,
      );
    });

    it('loads a schema once for concurrent validations in one process', async () => {
      const set = await validator.locate(SCHEMAS);
      const results = await Promise.all([0, 1, 2].map(() => validator.validate(set, '1.2.1', 'system-security-plan', sspExample())));
      expect(results).toEqual([[], [], []]);
      expect(compiles).toEqual([SSP_121]);
    });

    it('recompiles and replaces a corrupt or truncated cache file', async () => {
      await validate(sspExample(), '1.2.1');
      const [js] = cached('.js');
      const good = readFileSync(join(cache, js), 'utf8');
      for (const broken of ['garbage(', good.slice(0, good.length / 2), good.replace('module.exports', 'module.export')]) {
        writeFileSync(join(cache, js), broken);
        expect(await validate(invalid(), '1.2.1', fresh())).toEqual([
          problem('pattern', 'system-security-plan.uuid', 'must be a UUID (RFC 4122 version 4 or 5)'),
        ]);
        expect(readFileSync(join(cache, js), 'utf8')).toBe(good);
      }
      expect(compiles).toHaveLength(4);
      expect(await validate(sspExample(), '1.2.1', fresh())).toEqual([]);
      expect(compiles).toHaveLength(4);
    });

    it('ignores and remakes a corrupt V8 code cache without compiling', async () => {
      await validate(sspExample(), '1.2.1');
      const [v8] = cached('.v8');
      writeFileSync(join(cache, v8), 'garbage');
      expect(await validate(invalid(), '1.2.1', fresh())).toHaveLength(1);
      expect(compiles).toHaveLength(1);
      expect(readFileSync(join(cache, v8)).length).toBeGreaterThan(1000);
    });

    it('does not run cache files that another user could have written', async () => {
      await validate(sspExample(), '1.2.1');
      const [js] = cached('.js');
      chmodSync(join(cache, js), 0o666);
      expect(await validate(sspExample(), '1.2.1', fresh())).toEqual([]);
      expect(compiles).toHaveLength(2);
      expect(statSync(join(cache, js)).mode & 0o777).toBe(0o600);
    });

    it('validates when the cache cannot be written', async () => {
      writeFileSync(join(tmp, 'file'), '');
      const underFile = fresh(join(tmp, 'file', 'oscal'));
      expect(await validate(sspExample(), '1.2.1', underFile)).toEqual([]);
      expect(await validate(invalid(), '1.2.1', underFile)).toHaveLength(1);
      mkdirSync(cache);
      chmodSync(cache, 0o500); // read-only for a normal user (root writes anyway; the case above holds for root too)
      expect(await validate(invalid(), '1.2.1', fresh())).toHaveLength(1);
      expect(compiles).toEqual([SSP_121, SSP_121]);
    });

    it('loads a cached validator in a fresh process without loading the Ajv compiler', () => {
      const cold = inChild(cache);
      expect(cold.compiles).toEqual([SSP_121]);
      expect(cold.problems).toEqual([]);
      expect(cold.modules).toEqual(expect.arrayContaining(['ajv/dist/compile/index.js', 'ajv-formats/dist/index.js'])); // the check below can see it

      const hit = inChild(cache);
      expect(hit.compiles).toEqual([]);
      expect(hit.problems).toEqual([]);
      expect(hit.modules.filter((m) => /^ajv\/dist\/(ajv|core|compile|standalone)|^ajv-formats\/dist\/index/.test(m))).toEqual([]);
      expect(hit.modules).toContain('ajv-formats/dist/formats.js');

      rmSync(join(cache, cached('.v8')[0]));
      const noCodeCache = inChild(cache);
      expect(noCodeCache.compiles).toEqual([]);
      console.log(
        `ssp 1.2.1 in a fresh process: compile + first validate ${cold.ms.toFixed(0)} ms; cache hit + first validate ${hit.ms.toFixed(0)} ms with the V8 code cache, ` +
          `${noCodeCache.ms.toFixed(0)} ms without it (including making it)`,
      );
    });
  });

  it('puts the cache under SVC_CACHE_DIR, else XDG_CACHE_HOME, else ~/.cache', () => {
    expect(defaultOscalCacheDir({ SVC_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, '/home/u')).toBe('/c/oscal');
    expect(defaultOscalCacheDir({ XDG_CACHE_HOME: '/x' }, '/home/u')).toBe('/x/svc/oscal');
    expect(defaultOscalCacheDir({}, '/home/u')).toBe('/home/u/.cache/svc/oscal');
    expect(defaultOscalCacheDir({ SVC_CACHE_DIR: '', XDG_CACHE_HOME: 'relative' }, '/home/u')).toBe('/home/u/.cache/svc/oscal');
  });

  describe("FedRAMP's CR26 schemas, identified by $schemaVersion and sha256", () => {
    const CARRIED = join(ROOT, 'schemas');
    const generation = (date: string) => join(CARRIED, 'fedramp', date);
    const SDR_FILE = 'fedramp-security-decision-record-schema-2026-06-24.json';
    const OCR_FILE = 'fedramp-ongoing-certification-report-schema-2026-06-24.json';
    const ocr = () => JSON.parse(readFileSync(join(ROOT, 'fixtures', 'fedramp', 'ocr-minimal.json'), 'utf8')) as Record<string, unknown>;
    // 0.2.0 made reportableIncidents.incidents required: valid in the 2026-07-15 set, not in 2026-09-17 or 2026-10-08.
    const withoutIncidents = () => ({ ...ocr(), reportableIncidents: {} });
    const copyOf = (date: string, into: string) => {
      mkdirSync(into, { recursive: true });
      for (const name of readdirSync(generation(date))) copyFileSync(join(generation(date), name), join(into, name));
      return into;
    };

    it("reads each file's $schemaVersion and sha256 when the set is located, the document types in order, the definitions last", async () => {
      const set = await validator.locateFedramp(generation('2026-10-08'));
      expect(set.carried).toBeUndefined();
      expect(set.schemas.map((s) => [s.type, s.schemaVersion])).toEqual([
        ['sdr', '1.1.1'],
        ['cpo', '0.1.6'],
        ['ocr', '0.2.1'],
        ['scn', '0.1.3'],
        ['vdr', '0.1.1'],
        ['avi', '0.1.1'],
        ['history', '0.1.1'],
        ['incident', '0.2.1'],
        ['assessor', '1.0.1'],
        ['advisor', '1.0.1'],
        ['definitions', '0.4.0'],
      ]);
      expect(set.schemas[0]).toEqual({
        type: 'sdr',
        file: join(generation('2026-10-08'), SDR_FILE),
        schemaVersion: '1.1.1',
        sha256: '6a6d7dca1a9ae0031c06df6213bf5c5631e9b9b5fb81c050403cfd723484be86',
      });
      expect((await validator.locateFedramp(generation('2026-07-15'))).schemas[0]).toMatchObject({
        schemaVersion: '1.0.0',
        sha256: 'd598637cd4bb0f52425d7186ddc6f9463dcdda02734533623322e031d9b97b1a',
      });
    });

    it('never shares a compiled validator between two generations of the same file names, nor with a file replaced in place', async () => {
      const old = await validator.locateFedramp(generation('2026-07-15'));
      const current = await validator.locateFedramp(generation('2026-10-08'));
      expect(await validator.validateFedramp(old, 'ocr', withoutIncidents())).toEqual([]);
      expect(await validator.validateFedramp(current, 'ocr', withoutIncidents())).toEqual([
        problem('required', 'reportableIncidents', "must have required property 'incidents'"),
      ]);
      // One directory, its files replaced by the next generation's under the same names: the new bytes judge.
      const dir = copyOf('2026-07-15', join(tmp, 'in-place'));
      expect(await validator.validateFedramp(await validator.locateFedramp(dir), 'ocr', withoutIncidents())).toEqual([]);
      copyOf('2026-10-08', dir);
      expect(await validator.validateFedramp(await validator.locateFedramp(dir), 'ocr', withoutIncidents())).toHaveLength(1);
      // Keyed by the bytes: two compiles in all, the copies' bytes being the generations' own.
      expect(compiles.map((f) => f.split('/').slice(-2).join('/'))).toEqual([`2026-07-15/${OCR_FILE}`, `2026-10-08/${OCR_FILE}`]);
    });

    it('refuses a schema file changed between locating the set and judging by it', async () => {
      const dir = copyOf('2026-07-15', join(tmp, 'changing'));
      const set = await validator.locateFedramp(dir);
      copyFileSync(join(generation('2026-10-08'), OCR_FILE), join(dir, OCR_FILE));
      await expect(validator.validateFedramp(set, 'ocr', ocr())).rejects.toMatchObject({ kind: 'config', code: 'fedramp-schema-changed' });
    });

    it('picks, of two files for one document, the higher $schemaVersion, whatever the dates in their names', async () => {
      const dir = join(tmp, 'two');
      mkdirSync(dir);
      copyFileSync(join(generation('2026-10-08'), SDR_FILE), join(dir, SDR_FILE));
      copyFileSync(join(generation('2026-07-15'), SDR_FILE), join(dir, 'fedramp-security-decision-record-schema-2026-12-31.json'));
      const set = await validator.locateFedramp(dir);
      expect([set.files.sdr, set.schemas.map((s) => s.schemaVersion)]).toEqual([join(dir, SDR_FILE), ['1.1.1']]);
    });

    it("uses svc's own schemas when none is given or configured: FedRAMP's newest generation and NIST's releases", async () => {
      const own = new AjvSchemaValidator({ cacheDir: cache, carriedDir: CARRIED });
      const fedramp = await own.locateFedramp();
      expect([fedramp.dir, fedramp.carried, fedramp.schemas.length]).toEqual([generation('2026-10-08'), '2026-10-08', 11]);
      expect(await own.validateFedramp(fedramp, 'ocr', ocr())).toEqual([]);
      expect(await own.locate()).toEqual({ dir: join(CARRIED, 'oscal'), versions: ['1.1.3', '1.2.1', '1.2.2'], carried: true });
      // Given or configured wins, and is not svc's own.
      expect((await own.locateFedramp(generation('2026-07-15'))).carried).toBeUndefined();
      expect((await new AjvSchemaValidator({ cacheDir: cache, carriedDir: CARRIED, fedrampConfiguredDir: generation('2026-09-17') }).locateFedramp()).dir).toBe(
        generation('2026-09-17'),
      );
      await expect(own.locateFedramp(join(tmp, 'nowhere'))).rejects.toMatchObject({ code: 'fedramp-schemas-missing' });
    });

    it('locates every generation svc carries, newest first, each as its own (locateFedrampGenerations)', async () => {
      const own = new AjvSchemaValidator({ cacheDir: cache, carriedDir: CARRIED, fedrampConfiguredDir: generation('2026-09-17') });
      const sets = await own.locateFedrampGenerations();
      expect(sets.map((s) => [s.dir, s.carried, s.schemas.find((x) => x.type === 'ocr')?.schemaVersion])).toEqual([
        [generation('2026-10-08'), '2026-10-08', '0.2.1'],
        [generation('2026-09-17'), '2026-09-17', '0.2.0'],
        [generation('2026-07-15'), '2026-07-15', '0.1.1'],
      ]);
      // The OCR without incidents: valid under the oldest generation only.
      expect(await Promise.all(sets.map(async (s) => (await own.validateFedramp(s, 'ocr', withoutIncidents())).length))).toEqual([1, 1, 0]);
      await expect(new AjvSchemaValidator({ cacheDir: cache }).locateFedrampGenerations()).rejects.toMatchObject({
        kind: 'config',
        code: 'fedramp-schemas-missing',
      });
    });

    it("refuses svc's own schema when its bytes are not those its manifest records", async () => {
      const carried = join(tmp, 'carried');
      mkdirSync(join(carried, 'fedramp'), { recursive: true });
      copyFileSync(join(CARRIED, 'manifest.json'), join(carried, 'manifest.json'));
      copyOf('2026-10-08', join(carried, 'fedramp', '2026-10-08'));
      writeFileSync(join(carried, 'fedramp', '2026-10-08', OCR_FILE), `${readFileSync(join(carried, 'fedramp', '2026-10-08', OCR_FILE), 'utf8')} `);
      await expect(new AjvSchemaValidator({ cacheDir: cache, carriedDir: carried }).locateFedramp()).rejects.toMatchObject({
        kind: 'integrity',
        code: 'carried-schema-changed',
      });
      copyOf('2026-09-17', join(carried, 'fedramp', '2026-09-17'));
      copyOf('2026-07-15', join(carried, 'fedramp', '2026-07-15'));
      await expect(new AjvSchemaValidator({ cacheDir: cache, carriedDir: carried }).locateFedrampGenerations()).rejects.toMatchObject({
        kind: 'integrity',
        code: 'carried-schema-changed',
      });
      await expect(new AjvSchemaValidator({ cacheDir: cache, carriedDir: join(tmp, 'no-such') }).locateFedramp()).rejects.toMatchObject({
        kind: 'config',
        code: 'fedramp-schemas-missing',
      });
    });
  });
});

interface ChildRun {
  compiles: string[];
  problems: unknown[];
  ms: number;
  /** Packages' files the process loaded, as `ajv/dist/compile/index.js`. */
  modules: string[];
}

/**
 * Validates the SSP example against 1.2.1 in a new node process (jest's module registry cannot show what Node loads).
 * The adapter's TypeScript is transpiled there on the fly; TypeScript is then dropped and collected, so it does not
 * weigh on the timing.
 */
function inChild(cacheDir: string): ChildRun {
  const script = `
    (() => {
      const ts = require(${JSON.stringify(join(ROOT, 'node_modules', 'typescript'))});
      const fs = require('node:fs');
      require.extensions['.ts'] = (m, file) => m._compile(ts.transpileModule(fs.readFileSync(file, 'utf8'), {
        fileName: file, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      }).outputText, file);
      globalThis.Adapter = require(${JSON.stringify(join(ROOT, 'src', 'infrastructure', 'schemas', 'ajv-schema-validator.ts'))});
      delete require.extensions['.ts'];
      for (const key of Object.keys(require.cache)) if (key.includes('/node_modules/typescript/')) delete require.cache[key];
    })();
    global.gc();
    (async () => {
      const compiles = [];
      const validator = new Adapter.AjvSchemaValidator({ cacheDir: ${JSON.stringify(cacheDir)}, onCompile: (file) => compiles.push(file) });
      const set = await validator.locate(${JSON.stringify(SCHEMAS)});
      const document = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(SSP_EXAMPLE)}, 'utf8'));
      const start = performance.now();
      const problems = await validator.validate(set, '1.2.1', 'system-security-plan', document);
      const ms = performance.now() - start;
      const modules = Object.keys(require.cache).filter((k) => k.includes('/node_modules/')).map((k) => k.slice(k.lastIndexOf('/node_modules/') + 14));
      process.stdout.write(JSON.stringify({ compiles, problems, ms, modules }));
    })().catch((error) => { console.error(error); process.exit(1); });
  `;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as ChildRun;
}
