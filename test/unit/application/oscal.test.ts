import { GenerateSar } from '../../../src/application/oscal/generate-sar';
import { OscalRunLoader } from '../../../src/application/oscal/oscal-run-loader';
import { RunLoader } from '../../../src/application/shared/run-loader';
import { ValidateArtifacts } from '../../../src/application/oscal/validate-artifacts';
import { ValidateFedrampSsp } from '../../../src/application/oscal/validate-fedramp-ssp';
import { ValidateOscal } from '../../../src/application/oscal/validate-oscal';
import { IntegrityError } from '../../../src/domain/errors';
import { jwkThumbprint, type PublicJwk } from '../../../src/domain/signing/jwk';
import { PemSigner } from '../../../src/infrastructure/signing/pem-signer';
import { DeterministicUuids } from '../../fakes/deterministic-uuids';
import { FixedSchemaValidator } from '../../fakes/fixed-schema-validator';
import { InMemorySigner } from '../../fakes/in-memory-signer';
import { verifyDsseEnvelope } from '../../support/dsse-verifier';
import { sampleResults } from '../../support/builders';
import { doubles } from '../../support/harness';

const SSP = {
  'system-security-plan': {
    uuid: '11111111-2222-4333-8444-555555555555',
    metadata: {
      title: 'S',
      'last-modified': '2026-01-01T00:00:00Z',
      version: '1',
      'oscal-version': '1.2.0',
      roles: [{ id: 'owner', title: 'O' }],
      'responsible-parties': [{ 'role-id': 'auditor', 'party-uuids': [] }],
    },
  },
};
const SCHEMA_PROBLEM = { layer: 'schema' as const, rule: 'required', path: 'system-security-plan', message: "must have required property 'import-profile'" };

describe('ValidateOscal', () => {
  it('judges a 1.2.0 document by the 1.2.1 schemas and adds the reference layer', async () => {
    const d = doubles({ '/ssp.json': SSP });
    const schemas = new FixedSchemaValidator(['1.1.3', '1.2.1'], [SCHEMA_PROBLEM]);
    const result = await new ValidateOscal(d.reader, schemas, d.catalogs).execute({ file: '/ssp.json' });
    expect(schemas.validated).toEqual([{ version: '1.2.1', model: 'system-security-plan' }]);
    expect(result).toMatchObject({ model: 'system-security-plan', oscalVersion: '1.2.0', schemaVersion: '1.2.1', valid: false, errors: 2, warnings: 0 });
    expect(result.problems.map((p) => p.rule)).toEqual(['required', 'role-reference-resolves']);
    expect(result.baseline).toBeUndefined();
  });

  it('says which schema release is missing when the document needs one the directory lacks', async () => {
    const d = doubles({ '/ssp.json': SSP });
    await expect(new ValidateOscal(d.reader, new FixedSchemaValidator(['1.1.3']), d.catalogs).execute({ file: '/ssp.json' })).rejects.toThrow(
      "/ssp.json: declares OSCAL 1.2.0, and /schemas holds no schema release of that line (it has 1.1.3); add NIST's release schemas for it there, or judge it by one of those with --oscal-version",
    );
  });
});

describe('ValidateFedrampSsp', () => {
  it('holds an SSP without a declared baseline to Moderate and reports the rules it breaks', async () => {
    const d = doubles({ '/ssp.json': SSP });
    const result = await new ValidateFedrampSsp(d.reader, new FixedSchemaValidator(), d.catalogs).execute({ file: '/ssp.json' });
    expect(result.baseline).toEqual({ level: 'moderate', title: 'FedRAMP Rev 5 Moderate Baseline', chosen: 'default' });
    expect(result.problems.filter((p) => p.rule === 'baseline-control-implemented')).toHaveLength(323);
    expect(result.problems.filter((p) => p.layer === 'fedramp' && p.rule.startsWith('role-defined-'))).toHaveLength(6);
  });
});

describe('GenerateSar and ValidateArtifacts', () => {
  function setup() {
    const d = doubles({ '/r.json': sampleResults() });
    const signer = new InMemorySigner();
    const runs = new OscalRunLoader(new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, d.settings), new DeterministicUuids(), d.settings);
    const generate = new GenerateSar(runs, signer, d.writer);
    const validate = new ValidateArtifacts(d.reader, d.hashing, signer, new FixedSchemaValidator());
    return { d, signer, generate, validate };
  }

  it('writes the canonical SAR and a DSSE envelope over its digest, which verifies', async () => {
    const { d, signer, generate, validate } = setup();
    const result = await generate.execute({ input: '/r.json', out: '/out/sar.json', key: '/keys/k.pem' });
    expect(signer.loaded).toEqual(['/keys/k.pem']);
    const sar = d.writer.files.get('/out/sar.json') as string;
    expect(sar).toBe(d.hashing.canonicalize(JSON.parse(sar)));
    const envelope = d.writer.files.get('/out/sar.json.dsse.json') as string;
    const statement = JSON.parse(verifyDsseEnvelope(envelope).payload.toString('utf8'));
    expect(statement.subject).toEqual([{ name: 'sar.json', digest: { sha256: d.hashing.sha256(sar) } }]);
    expect(result).toMatchObject({ out: '/out/sar.json', envelope: '/out/sar.json.dsse.json', algorithm: 'EdDSA', sha256: `sha256:${d.hashing.sha256(sar)}` });
    d.reader.put('/out/sar.json', sar).put('/out/sar.json.dsse.json', envelope);
    await expect(validate.execute({ target: '/out/sar.json' })).resolves.toMatchObject({
      kind: 'sar',
      canonical: true,
      keyid: result.keyid,
      oscal: { valid: true },
    });
  });

  it('writes the envelope of a large run in pieces: the same 2-space JSON, a payload of several base64 slices, every entry named', async () => {
    const d = doubles({
      '/big.json': {
        results: Array.from({ length: 9000 }, (_, i) => ({
          ksi_id: `KSI-ZZZ-${String(i % 100).padStart(2, '0')}`.replace(
            'ZZZ',
            `Z${String.fromCharCode(65 + (Math.floor(i / 100) % 26))}${String.fromCharCode(65 + Math.floor(i / 2600))}`,
          ),
          status: 'PASS',
        })),
      },
    });
    const runs = new OscalRunLoader(new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, d.settings), new DeterministicUuids(), d.settings);
    await new GenerateSar(runs, new InMemorySigner(), d.writer).execute({ input: '/big.json', out: '/out/sar.json' });
    const envelope = d.writer.files.get('/out/sar.json.dsse.json') as string;
    const parsed = JSON.parse(envelope) as { payload: string };
    expect(envelope).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    // More than one slice of 786,432 payload bytes, joined into one base64 text.
    expect(Buffer.from(parsed.payload, 'base64').length).toBeGreaterThan(3 * 2 ** 18);
    expect(parsed.payload).toBe(Buffer.from(parsed.payload, 'base64').toString('base64'));
    const statement = JSON.parse(verifyDsseEnvelope(envelope).payload.toString('utf8'));
    expect(statement.predicate.evidence).toHaveLength(9001);
    expect(statement.predicate.evidence[0].name).toBe('big.json#KSI-ZAA-00');
  });

  // V8 quotes the text around an unexpected token, line breaks and all: the message keeps only the problem (found by
  // test/property/oscal-loader.property.test.ts).
  it('refuses a SAR that no longer parses in one line, without quoting the file', async () => {
    const { d, generate, validate } = setup();
    await generate.execute({ input: '/r.json', out: '/out/sar.json' });
    d.reader.put('/out/sar.json', '{\n  "assessment-results": x\n}').put('/out/sar.json.dsse.json', d.writer.files.get('/out/sar.json.dsse.json') as string);
    await expect(validate.execute({ target: '/out/sar.json' })).rejects.toMatchObject({
      code: 'not-the-written-json',
      message: "/out/sar.json: no longer valid JSON (Unexpected token 'x'); it was changed after svc wrote it",
    });
  });

  // The signer's bad-public-key message names no file: the envelope and the member are put in front (found by
  // test/property/oscal-loader.property.test.ts).
  it('names the envelope and its key when the key it carries is no usable key', async () => {
    const { d, generate } = setup();
    await generate.execute({ input: '/r.json', out: '/out/sar.json' });
    const envelope = JSON.parse(d.writer.files.get('/out/sar.json.dsse.json') as string);
    const jwk = { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43), alg: 'ES256' };
    envelope.signatures[0] = { ...envelope.signatures[0], jwk, keyid: jwkThumbprint(jwk as PublicJwk, (text) => d.hashing.sha256(text)) };
    d.reader.put('/out/sar.json', d.writer.files.get('/out/sar.json') as string).put('/out/sar.json.dsse.json', envelope);
    const validate = new ValidateArtifacts(d.reader, d.hashing, new PemSigner({ svcHome: '/nonexistent' }), new FixedSchemaValidator());
    await expect(validate.execute({ target: '/out/sar.json' })).rejects.toMatchObject({
      code: 'signature-mismatch',
      message:
        '/out/sar.json.dsse.json: signatures[0].jwk: public JWK (alg "ES256"): cannot be turned into a key; give an ES256 (EC P-256), EdDSA (Ed25519) or PS256 (RSA, 2048 bits or more) public key; it was changed after signing',
    });
  });

  it('refuses a SAR changed after signing', async () => {
    const { d, generate, validate } = setup();
    await generate.execute({ input: '/r.json', out: '/out/sar.json' });
    const sar = JSON.parse(d.writer.files.get('/out/sar.json') as string);
    sar['assessment-results'].results[0].title = 'Something else';
    d.reader.put('/out/sar.json', JSON.stringify(sar)).put('/out/sar.json.dsse.json', d.writer.files.get('/out/sar.json.dsse.json') as string);
    const error = await validate.execute({ target: '/out/sar.json' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as Error).message).toMatch(
      /^\/out\/sar\.json: its canonical form has sha256 sha256:[0-9a-f]{64}, the signature covers sha256:[0-9a-f]{64}; the SAR was changed after it was signed$/,
    );
  });

  it('names the signing key when it is not --keyid, but only for a signature that verifies', async () => {
    const { d, generate, validate } = setup();
    const { keyid } = await generate.execute({ input: '/r.json', out: '/out/sar.json' });
    const envelope = JSON.parse(d.writer.files.get('/out/sar.json.dsse.json') as string);
    d.reader.put('/out/sar.json', d.writer.files.get('/out/sar.json') as string).put('/out/sar.json.dsse.json', envelope);
    await expect(validate.execute({ target: '/out/sar.json', keyid: 'other-key' })).rejects.toMatchObject({
      code: 'signature-key-mismatch',
      message: `/out/sar.json: signed by key ${keyid}, not by --keyid other-key`,
    });
    const sig = Buffer.from(envelope.signatures[0].sig, 'base64');
    sig[0] ^= 1;
    d.reader.put('/out/sar.json.dsse.json', { ...envelope, signatures: [{ ...envelope.signatures[0], sig: sig.toString('base64') }] });
    await expect(validate.execute({ target: '/out/sar.json', keyid: 'other-key' })).rejects.toMatchObject({
      code: 'signature-mismatch',
      message: `/out/sar.json.dsse.json: the EdDSA signature does not verify with key ${keyid}; the SAR or its signature was changed after signing`,
    });
  });

  it('tells input svc never wrote from a changed artifact of its own', async () => {
    const { d, generate, validate } = setup();
    await generate.execute({ input: '/r.json', out: '/out/sar.json' });
    d.reader
      .put('/in/empty.json', '')
      .put('/in/other.json', { name: 'x' })
      .put('/out/sar.json', '')
      .put('/out/sar.json.dsse.json', d.writer.files.get('/out/sar.json.dsse.json') as string);
    await expect(validate.execute({ target: '/in/empty.json' })).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'not-an-svc-artifact',
      message: expect.stringMatching(/^not an svc artifact: \/in\/empty\.json: empty file; /),
    });
    await expect(validate.execute({ target: '/in/other.json' })).rejects.toMatchObject({
      code: 'not-an-svc-artifact',
      message: expect.stringMatching(
        /^not an svc artifact: \/in\/other\.json: JSON without svc's "schema" and no signature envelope \(\/in\/other\.json\.dsse\.json\) beside it; /,
      ),
    });
    await expect(validate.execute({ target: '/out/sar.json' })).rejects.toMatchObject({ kind: 'integrity', code: 'not-the-written-json' });
  });
});
