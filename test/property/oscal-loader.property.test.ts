import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { GenerateSar } from '../../src/application/oscal/generate-sar';
import { OscalRunLoader } from '../../src/application/oscal/oscal-run-loader';
import { ValidateArtifacts } from '../../src/application/oscal/validate-artifacts';
import { ValidateFedrampSsp } from '../../src/application/oscal/validate-fedramp-ssp';
import { ValidateOscal, type OscalValidation } from '../../src/application/oscal/validate-oscal';
import { BuildAuditorBundle } from '../../src/application/pipeline/build-auditor-bundle';
import { RunLoader } from '../../src/application/shared/run-loader';
import { toBase64 } from '../../src/domain/encoding/base64';
import { IN_TOTO_PAYLOAD_TYPE, pae } from '../../src/domain/signing/dsse';
import { jwkThumbprint, type PublicJwk } from '../../src/domain/signing/jwk';
import { AjvSchemaValidator } from '../../src/infrastructure/schemas/ajv-schema-validator';
import { PemSigner } from '../../src/infrastructure/signing/pem-signer';
import { DeterministicUuids } from '../fakes/deterministic-uuids';
import { InMemorySigner } from '../fakes/in-memory-signer';
import { doubles } from '../support/harness';
import { SCHEMAS } from '../support/oscal-schemas';
import { FIXTURES, REFERENCE } from '../support/run-svc';
import { brokenText, jsonKey, jsonText, jsonValue, mutate, mutations, SEED, typedOutcome } from './bad-input';

const EXAMPLES = join(REFERENCE, 'oscal', 'examples');
const example = (name: string): unknown => JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8'));
const DOCUMENTS = [
  example('ssp_ifa_ssp-example.json'),
  example('ap_ifa_assessment-plan-example.json'),
  example('ar_ifa_assessment-results-example.json'),
  example('poam_ifa_plan-of-action-and-milestones.json'),
  example('component-definition_example-component-definition.json'),
  example('catalog_basic-catalog.json'),
];
const MODELS = [
  'system-security-plan',
  'assessment-plan',
  'assessment-results',
  'plan-of-action-and-milestones',
  'component-definition',
  'catalog',
  'profile',
  'mapping-collection',
];

/** Findings are data: each one a rule, a one-line path and a one-line message. */
function checkFindings(result: OscalValidation): void {
  for (const problem of result.problems) {
    if (/[\r\n]/.test(problem.path) || /[\r\n]/.test(problem.message) || problem.rule === '')
      throw new Error(`a finding that is not one line: ${JSON.stringify(problem)}`);
  }
  expect(result.errors + result.warnings).toBe(result.problems.length);
  expect(result.valid).toBe(result.errors === 0);
}

describe('svc oscal validate and validate-ssp (ValidateOscal, ValidateFedrampSsp) on bad input', () => {
  let cache = '';
  const d = doubles();
  let schemas: AjvSchemaValidator;
  let n = 0;
  beforeAll(() => {
    cache = mkdtempSync(join(tmpdir(), 'svc-property-oscal-'));
    schemas = new AjvSchemaValidator({ configuredDir: SCHEMAS, cacheDir: cache });
  });
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  const validate = async (content: string | Buffer, level?: 'low' | 'moderate' | 'high') => {
    const file = `/oscal/doc-${n++}.json`;
    d.reader.put(file, content);
    const outcome = await typedOutcome(() => new ValidateOscal(d.reader, schemas, d.catalogs).execute({ file, baseline: level }), file);
    if (outcome.ok) checkFindings(outcome.value);
    else expect(['invalid-json', 'invalid-utf8', 'not-oscal', 'oscal-schemas-missing', 'oscal-schema-missing']).toContain(outcome.error.code);
  };

  it('gives findings or a typed one-line error naming the file, for mutated NIST examples', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: DOCUMENTS.length - 1 }),
        mutations(3),
        fc.nat(),
        fc.constantFrom(undefined, 'low', 'high'),
        async (which, changes, style, level) => {
          await validate(jsonText(mutate(DOCUMENTS[which], changes), style), level);
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('gives findings or a typed error for random JSON, under a model key or not, and for broken text', async () => {
    const wrapped = fc
      .tuple(fc.constantFrom(...MODELS), jsonValue(3), fc.option(jsonValue(1), { nil: undefined }))
      .map(([model, body, extra]) => ({ [model]: body, ...(extra === undefined ? {} : { $schema: extra }) }));
    const text = fc.oneof(
      jsonValue(3).map((v) => JSON.stringify(v)),
      wrapped.map((v) => JSON.stringify(v)),
      brokenText(JSON.stringify(DOCUMENTS[0]).slice(0, 2000)),
    );
    await fc.assert(
      fc.asyncProperty(text, async (content) => {
        await validate(content);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('holds a mutated SSP to the FedRAMP rules, or fails with a typed one-line error naming the file', async () => {
    const ssps = [DOCUMENTS[0], JSON.parse(readFileSync(join(FIXTURES, 'oscal', 'fedramp-ssp-minimal.json'), 'utf8'))];
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 1 }), mutations(3), fc.constantFrom(undefined, 'low', 'moderate'), async (which, changes, level) => {
        const file = `/oscal/ssp-${n++}.json`;
        d.reader.put(file, mutate(ssps[which], changes));
        const outcome = await typedOutcome(() => new ValidateFedrampSsp(d.reader, schemas, d.catalogs).execute({ file, baseline: level }), file);
        if (outcome.ok) checkFindings(outcome.value);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});

describe('svc ir validate (ValidateArtifacts) on bad input', () => {
  const d = doubles({ '/in/report.json': JSON.parse(readFileSync(join(FIXTURES, 'sample-baseline.json'), 'utf8')) });
  const keys = new InMemorySigner();
  // The adapter's verify: a mutated key in an envelope must meet the real checks, not the test double's.
  const signer = new PemSigner({ svcHome: '/nonexistent' });
  const artifacts = new ValidateArtifacts(
    d.reader,
    d.hashing,
    signer,
    new AjvSchemaValidator({ configuredDir: SCHEMAS, cacheDir: join(tmpdir(), 'svc-property-oscal-unused') }),
  );
  let sar: unknown;
  let envelope: { payloadType: string; payload: string; signatures: unknown[] };
  let statement: unknown;
  let bundle: Map<string, unknown>;
  let texts: Map<string, string>;
  let n = 0;

  beforeAll(async () => {
    const runs = new OscalRunLoader(new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, d.settings), new DeterministicUuids(), d.settings);
    await new GenerateSar(runs, keys, d.writer).execute({ input: '/in/report.json', out: '/out/sar.json' });
    sar = JSON.parse(d.writer.files.get('/out/sar.json') ?? '');
    envelope = JSON.parse(d.writer.files.get('/out/sar.json.dsse.json') ?? '');
    statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    await new BuildAuditorBundle(d.reader, d.reader, d.scans, d.catalogs, d.writer, d.hashing, d.clock, d.progress, d.settings).execute({
      input: '/in/report.json',
      outDir: '/out/bundle',
    });
    texts = new Map([...d.writer.files].filter(([path]) => path.startsWith('/out/bundle/')).map(([path, text]) => [path.slice('/out/bundle/'.length), text]));
    bundle = new Map([...texts].map(([name, text]) => [name, name.endsWith('.json') ? JSON.parse(text) : text]));
  });

  /**
   * The typed outcome of `svc ir validate <target>`; a verified artifact when nothing was changed that matters. The
   * checks of a bundle directory name the file of the bundle that differs (`poam.json: sha256 is ...`).
   */
  const check = async (target: string) => {
    const outcome = await typedOutcome(() => artifacts.execute({ target }), [target, ...bundle.keys()]);
    if (outcome.ok && outcome.value.kind === 'sar' && 'problems' in outcome.value.oscal) checkFindings(outcome.value.oscal);
    return outcome;
  };

  it('refuses a mutated envelope, or a mutated SAR, with a typed one-line error naming the file', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), mutations(2), async (ofEnvelope, changes) => {
        const target = `/sar/${n++}/sar.json`;
        d.reader.put(target, ofEnvelope ? sar : mutate(sar, changes)).put(`${target}.dsse.json`, ofEnvelope ? mutate(envelope, changes) : envelope);
        await check(target);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('checks a validly signed but mutated statement against the SAR, with typed errors only', async () => {
    const key = await keys.load();
    await fc.assert(
      fc.asyncProperty(mutations(2), fc.oneof(fc.constant(IN_TOTO_PAYLOAD_TYPE), fc.string({ maxLength: 10 })), async (changes, payloadType) => {
        const target = `/sar/${n++}/sar.json`;
        const payload = new TextEncoder().encode(JSON.stringify(mutate(statement, changes)));
        const signed = {
          payloadType,
          payload: toBase64(payload),
          signatures: [{ keyid: key.keyid, sig: toBase64(key.sign(pae(payloadType, payload))), jwk: key.publicJwk }],
        };
        d.reader.put(target, sar).put(`${target}.dsse.json`, signed);
        await check(target);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('refuses a bundle directory or evidence-bundle.json with a file changed, typed and naming the place', async () => {
    const change = (name: string) =>
      fc.oneof(
        mutations(2).map((changes) => ({ changes })),
        fc.constant({ drop: true }),
        brokenText(texts.get(name) ?? '').map((text) => ({ text })),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bundle.keys()).chain((name) => fc.tuple(fc.constant(name), change(name))),
        fc.boolean(),
        async ([name, change], single) => {
          const dir = `/bundles/${n++}`;
          for (const [member, text] of texts) {
            if (member !== name) d.reader.put(`${dir}/${member}`, text);
            else if ('changes' in change) {
              const mutated = mutate(bundle.get(member), change.changes);
              d.reader.put(`${dir}/${member}`, typeof mutated === 'string' && !member.endsWith('.json') ? mutated : JSON.stringify(mutated, null, 2));
            } else if ('text' in change) d.reader.put(`${dir}/${member}`, change.text);
          }
          await check(single ? `${dir}/evidence-bundle.json` : dir);
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('refuses a SAR, an envelope or a manifest.json that no longer parses, in one line', async () => {
    const written = (path: string) => d.writer.files.get(path) ?? '';
    const broken = fc.oneof(
      brokenText(written('/out/sar.json')).map((text) => ({ sar: text })),
      brokenText(written('/out/sar.json.dsse.json')).map((text) => ({ envelope: text })),
      brokenText(texts.get('manifest.json') ?? '').map((text) => ({ manifest: text })),
    );
    await fc.assert(
      fc.asyncProperty(broken, async (change) => {
        const target = `/sar/${n++}`;
        if ('manifest' in change) {
          for (const [member, text] of texts) d.reader.put(`${target}/${member}`, member === 'manifest.json' ? change.manifest : text);
          await check(target);
          return;
        }
        d.reader
          .put(`${target}/sar.json`, 'sar' in change ? change.sar : written('/out/sar.json'))
          .put(`${target}/sar.json.dsse.json`, 'envelope' in change ? change.envelope : written('/out/sar.json.dsse.json'));
        await check(`${target}/sar.json`);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('refuses an envelope whose key is of the right shape but no usable key, naming the envelope', async () => {
    const b64url = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((a) => Buffer.from(a).toString('base64url'));
    const jwk = fc.oneof(
      b64url(32).map((x) => ({ kty: 'OKP', crv: 'Ed25519', x, alg: 'EdDSA' })),
      fc.tuple(b64url(32), b64url(32)).map(([x, y]) => ({ kty: 'EC', crv: 'P-256', x, y, alg: 'ES256' })),
      fc.tuple(b64url(256), fc.constantFrom('AQAB', 'Aw', 'AA', 'AQ')).map(([n, e]) => ({ kty: 'RSA', n: `w${n.slice(1)}`, e, alg: 'PS256' })),
    );
    await fc.assert(
      fc.asyncProperty(jwk, async (key) => {
        const target = `/sar/${n++}/sar.json`;
        const [signature] = envelope.signatures as Record<string, unknown>[];
        // keyid the key's own thumbprint, so the envelope gets as far as verifying the signature with it
        const keyid = jwkThumbprint(key as PublicJwk, (text) => d.hashing.sha256(text));
        d.reader.put(target, sar).put(`${target}.dsse.json`, { ...envelope, signatures: [{ ...signature, keyid, jwk: key }] });
        await check(target);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('refuses random JSON given as a SAR or an envelope', async () => {
    await fc.assert(
      fc.asyncProperty(jsonValue(3), fc.dictionary(jsonKey, jsonValue(2), { maxKeys: 4 }), async (document, extra) => {
        const target = `/sar/${n++}/sar.json`;
        d.reader.put(target, document).put(`${target}.dsse.json`, { ...envelope, ...(extra as object) });
        await check(target);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});
