import { createHash } from 'node:crypto';
import { fromBase64, hexToBytes, toBase64, toBase64Url } from '../../../src/domain/encoding/base64';
import { envelopePayload, IN_TOTO_PAYLOAD_TYPE, pae, readDsseEnvelope } from '../../../src/domain/signing/dsse';
import { IN_TOTO_STATEMENT_TYPE, inTotoStatement, readInTotoStatement } from '../../../src/domain/signing/in-toto';
import { jwkThumbprint, type PublicJwk, readPublicJwk } from '../../../src/domain/signing/jwk';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const utf8 = (text: string) => new TextEncoder().encode(text);
const sha256Hex = new PureJsHashing().sha256;
const SHA = 'a'.repeat(64);

/** RFC 7517 Appendix A.1 and RFC 8037 Appendix A.3 public keys. */
const EC_X = 'MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4';
const EC_Y = '4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM';
const ED_X = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
/** RFC 7638 §3.1. */
const RSA_N =
  '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw';
const EC_JWK: PublicJwk = { kty: 'EC', crv: 'P-256', x: EC_X, y: EC_Y, alg: 'ES256' };

describe('base64', () => {
  it('matches Buffer in both alphabets for every length from 0 to 70, and reads back padded or not', () => {
    for (let n = 0; n <= 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) % 256);
      const standard = Buffer.from(bytes).toString('base64');
      const url = Buffer.from(bytes).toString('base64url');
      expect(toBase64(bytes)).toBe(standard);
      expect(toBase64Url(bytes)).toBe(url);
      for (const text of [standard, url, standard.replace(/=+$/, ''), url + '='.repeat((4 - (url.length % 4)) % 4)]) expect(fromBase64(text)).toEqual(bytes);
    }
  });

  it('gives the RFC 4648 §10 test vectors', () => {
    const vectors = { '': '', f: 'Zg==', fo: 'Zm8=', foo: 'Zm9v', foob: 'Zm9vYg==', fooba: 'Zm9vYmE=', foobar: 'Zm9vYmFy' };
    for (const [text, encoded] of Object.entries(vectors)) {
      expect(toBase64(utf8(text))).toBe(encoded);
      expect(fromBase64(encoded)).toEqual(utf8(text));
    }
  });

  it.each([
    ['Zm9v!', 'character "!" at offset 4 is in neither alphabet'],
    ['Zm 9v', 'character " " at offset 2 is in neither alphabet'],
    ['Zm9vé', 'character "é" at offset 4 is in neither alphabet'],
    ['Zm9vY', '5 characters cannot end a group of 4'],
    ['Zg=', 'padding leaves 3 characters, not a multiple of 4'],
    ['Zg===', 'character "=" at offset 2 is in neither alphabet'],
    ['Zm9vY=', '5 characters cannot end a group of 4'],
    ['Zg==Zg==', 'character "=" at offset 2 is in neither alphabet'],
  ])('refuses %j as bad-base64', (text, problem) => {
    expect(() => fromBase64(text)).toThrow(
      expect.objectContaining({ kind: 'invalid-input', code: 'bad-base64', message: `base64 text: ${problem}; give standard or URL-safe base64 (RFC 4648)` }),
    );
  });

  it('reads hex in either case and refuses odd lengths and other characters', () => {
    expect(hexToBytes('00ff10Ab')).toEqual(Uint8Array.from([0, 255, 16, 171]));
    expect(hexToBytes('')).toEqual(new Uint8Array(0));
    expect(() => hexToBytes('abc')).toThrow(expect.objectContaining({ code: 'bad-hex', message: 'hex text: odd length; give an even number of hex digits' }));
    expect(() => hexToBytes('zz')).toThrow(
      expect.objectContaining({ code: 'bad-hex', message: 'hex text: not only hex digits; give an even number of hex digits' }),
    );
  });
});

describe('DSSE pre-authentication encoding', () => {
  it('gives the example of the DSSE protocol', () => {
    expect(pae('http://example.com/HelloWorld', utf8('hello world'))).toEqual(utf8('DSSEv1 29 http://example.com/HelloWorld 11 hello world'));
  });

  it('counts bytes, not characters, in both lengths', () => {
    expect(pae('application/vnd.ä', utf8('héllo ✓'))).toEqual(utf8('DSSEv1 18 application/vnd.ä 10 héllo ✓'));
    expect(pae(IN_TOTO_PAYLOAD_TYPE, new Uint8Array(0))).toEqual(utf8('DSSEv1 28 application/vnd.in-toto+json 0 '));
  });

  it('keeps binary payload bytes as they are', () => {
    const body = Uint8Array.from([0, 255, 10, 32]);
    expect(pae('x', body)).toEqual(Uint8Array.from([...utf8('DSSEv1 1 x 4 '), ...body]));
  });
});

describe('readDsseEnvelope', () => {
  const FILE = 'sar.json.dsse.json';
  const valid = () => ({
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: toBase64(utf8('{"a":1}')),
    signatures: [{ keyid: 'k1', sig: 'MEUCIQ==', jwk: { ...EC_JWK, kid: 'ignored' }, extra: true }],
    unknown: 'ignored',
  });

  it('reads a valid envelope, keeping only the members DSSE and svc define', () => {
    const envelope = readDsseEnvelope(valid(), FILE);
    expect(envelope).toEqual({ payloadType: IN_TOTO_PAYLOAD_TYPE, payload: 'eyJhIjoxfQ==', signatures: [{ keyid: 'k1', sig: 'MEUCIQ==', jwk: EC_JWK }] });
    expect(new TextDecoder().decode(envelopePayload(envelope))).toBe('{"a":1}');
  });

  it('reads a signature without a jwk', () => {
    const document = { ...valid(), signatures: [{ keyid: '', sig: 'AAAA' }] };
    expect(readDsseEnvelope(document, FILE).signatures).toEqual([{ keyid: '', sig: 'AAAA' }]);
  });

  const cases: [string, (d: ReturnType<typeof valid>) => unknown, string][] = [
    ['not an object', () => [], '$: expected a JSON object, got an array'],
    ['no payloadType', ({ payloadType: _, ...rest }) => rest, 'payloadType: expected a non-empty string'],
    ['an empty payloadType', (d) => ({ ...d, payloadType: '' }), 'payloadType: expected a non-empty string'],
    ['a payload that is not base64', (d) => ({ ...d, payload: '{"a":1}' }), 'payload: expected base64 text'],
    ['no signatures', (d) => ({ ...d, signatures: [] }), 'signatures: expected a non-empty array'],
    ['a signature that is not an object', (d) => ({ ...d, signatures: ['MEUCIQ=='] }), 'signatures[0]: expected an object, got "MEUCIQ=="'],
    ['a keyid that is not a string', (d) => ({ ...d, signatures: [{ keyid: 7, sig: 'AAAA' }] }), 'signatures[0].keyid: expected a string'],
    [
      'a sig that is not base64',
      (d) => ({
        ...d,
        signatures: [
          { keyid: 'k', sig: 'AAAA' },
          { keyid: 'k', sig: 'not base64' },
        ],
      }),
      'signatures[1].sig: expected base64 text',
    ],
    ['an empty sig', (d) => ({ ...d, signatures: [{ keyid: 'k', sig: '' }] }), 'signatures[0].sig: expected base64 text'],
  ];
  it.each(cases)('refuses %s', (_, change, problem) => {
    expect(() => readDsseEnvelope(change(valid()), FILE)).toThrow(
      expect.objectContaining({ code: 'invalid-dsse-envelope', message: `${FILE}: ${problem}; pass the .dsse.json svc wrote beside the document` }),
    );
  });

  it('refuses a bad jwk with the path inside the envelope', () => {
    const document = { ...valid(), signatures: [{ keyid: 'k', sig: 'AAAA', jwk: { ...EC_JWK, crv: 'P-384' } }] };
    expect(() => readDsseEnvelope(document, FILE)).toThrow(
      expect.objectContaining({
        code: 'invalid-public-jwk',
        message: `${FILE}: signatures[0].jwk.crv: expected "P-256", got "P-384"; give a public JWK for ES256 (EC P-256), EdDSA (Ed25519) or PS256 (RSA, 2048 bits or more)`,
      }),
    );
  });
});

describe('in-toto Statement v1', () => {
  const FILE = 'sar.json.dsse.json';
  const statement = () => inTotoStatement({ name: 'sar.json', sha256Hex: SHA }, 'https://example.com/predicate/v1', { uuid: 'u' });

  it('builds a statement with its members in the order of the spec', () => {
    expect(JSON.stringify(statement())).toBe(
      `{"_type":"${IN_TOTO_STATEMENT_TYPE}","subject":[{"name":"sar.json","digest":{"sha256":"${SHA}"}}],"predicateType":"https://example.com/predicate/v1","predicate":{"uuid":"u"}}`,
    );
  });

  it('reads back what it builds, with other digest algorithms kept', () => {
    const document = JSON.parse(JSON.stringify(statement()));
    document.subject[0].digest.sha512 = 'b'.repeat(128);
    expect(readInTotoStatement(document, FILE)).toEqual({ ...statement(), subject: [{ name: 'sar.json', digest: { sha256: SHA, sha512: 'b'.repeat(128) } }] });
  });

  const cases: [string, (d: Record<string, unknown>) => unknown, string][] = [
    ['not an object', () => 'x', '$: expected a JSON object, got "x"'],
    [
      'another _type',
      (d) => ({ ...d, _type: 'https://in-toto.io/Statement/v0.1' }),
      `_type: expected "${IN_TOTO_STATEMENT_TYPE}", got "https://in-toto.io/Statement/v0.1"`,
    ],
    ['no subject', (d) => ({ ...d, subject: [] }), 'subject: expected a non-empty array'],
    ['a subject that is not an object', (d) => ({ ...d, subject: [null] }), 'subject[0]: expected an object, got null'],
    ['a subject without a name', (d) => ({ ...d, subject: [{ digest: { sha256: SHA } }] }), 'subject[0].name: expected a string'],
    ['a subject without a digest', (d) => ({ ...d, subject: [{ name: 'a' }] }), 'subject[0].digest: expected an object of algorithm: hex digest'],
    [
      'a digest without sha256',
      (d) => ({ ...d, subject: [{ name: 'a', digest: { sha512: 'b' } }] }),
      'subject[0].digest.sha256: expected 64 lower-case hex digits',
    ],
    [
      'an upper-case sha256',
      (d) => ({ ...d, subject: [{ name: 'a', digest: { sha256: SHA.toUpperCase() } }] }),
      'subject[0].digest.sha256: expected 64 lower-case hex digits',
    ],
    [
      'a short sha256',
      (d) => ({ ...d, subject: [{ name: 'a', digest: { sha256: 'a'.repeat(63) } }] }),
      'subject[0].digest.sha256: expected 64 lower-case hex digits',
    ],
    [
      'a digest value that is not a string',
      (d) => ({ ...d, subject: [{ name: 'a', digest: { sha256: SHA, md5: 5 } }] }),
      'subject[0].digest.md5: expected a string',
    ],
    ['an empty predicateType', (d) => ({ ...d, predicateType: '' }), 'predicateType: expected a non-empty string'],
    ['a predicate that is not an object', (d) => ({ ...d, predicate: [] }), 'predicate: expected an object, got an array'],
  ];
  it.each(cases)('refuses %s', (_, change, problem) => {
    const document = JSON.parse(JSON.stringify(statement()));
    expect(() => readInTotoStatement(change(document), FILE)).toThrow(
      expect.objectContaining({ code: 'invalid-in-toto-statement', message: `${FILE}: ${problem}; pass the .dsse.json svc wrote beside the document` }),
    );
  });
});

describe('public JWK', () => {
  const FILE = 'key.jwk.json';
  const FIX = 'give a public JWK for ES256 (EC P-256), EdDSA (Ed25519) or PS256 (RSA, 2048 bits or more)';

  it('reads the three kinds, drops other members and fills in a missing alg', () => {
    expect(readPublicJwk({ kty: 'EC', crv: 'P-256', x: EC_X, y: EC_Y, kid: '1', use: 'sig' }, FILE, '$')).toEqual(EC_JWK);
    expect(readPublicJwk({ kty: 'OKP', crv: 'Ed25519', x: ED_X, alg: 'EdDSA' }, FILE, '$')).toEqual({ kty: 'OKP', crv: 'Ed25519', x: ED_X, alg: 'EdDSA' });
    expect(readPublicJwk({ kty: 'RSA', n: RSA_N, e: 'AQAB' }, FILE, '$')).toEqual({ kty: 'RSA', n: RSA_N, e: 'AQAB', alg: 'PS256' });
  });

  it.each([
    ['not an object', 'k', '$: expected a JWK object, got "k"'],
    ['a private key', { ...EC_JWK, d: 'AAAA' }, '$.d: holds private key material; give the public key only'],
    ['a symmetric key', { kty: 'oct', k: 'AAAA' }, '$.kty: expected "EC", "OKP" or "RSA", got "oct"'],
    ['another curve', { ...EC_JWK, crv: 'secp256k1' }, '$.crv: expected "P-256", got "secp256k1"'],
    ['X25519', { kty: 'OKP', crv: 'X25519', x: ED_X }, '$.crv: expected "Ed25519", got "X25519"'],
    ['an alg that contradicts the key', { kty: 'RSA', n: RSA_N, e: 'AQAB', alg: 'RS256' }, '$.alg: expected "PS256" for an RSA key, got "RS256"'],
    ['a coordinate of the wrong size', { ...EC_JWK, y: EC_Y.slice(0, 42) }, '$.y: expected 32 bytes, got 31'],
    ['padded base64', { ...EC_JWK, x: `${EC_X}=` }, '$.x: expected base64url text without padding'],
    ['standard base64', { kty: 'OKP', crv: 'Ed25519', x: ED_X.replace('_', '/') }, '$.x: expected base64url text without padding'],
    ['a dangling character', { kty: 'RSA', n: RSA_N, e: 'AQABA' }, '$.e: expected base64url text without padding'],
    ['a missing member', { kty: 'RSA', e: 'AQAB' }, '$.n: expected base64url text without padding'],
    ['an RSA modulus under 2048 bits', { kty: 'RSA', n: RSA_N.slice(0, 171), e: 'AQAB' }, '$.n: RSA modulus of 1024 bits is too short'],
  ])('refuses %s', (_, value, problem) => {
    expect(() => readPublicJwk(value, FILE, '$')).toThrow(
      expect.objectContaining({ kind: 'invalid-input', code: 'invalid-public-jwk', message: `${FILE}: ${problem}; ${FIX}` }),
    );
  });

  it('gives the RFC 7638 §3.1 thumbprint of its example RSA key', () => {
    expect(jwkThumbprint({ kty: 'RSA', n: RSA_N, e: 'AQAB', alg: 'PS256' }, sha256Hex)).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  it('gives the RFC 8037 Appendix A.3 thumbprint of its Ed25519 key', () => {
    expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: ED_X, alg: 'EdDSA' }, sha256Hex)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('hashes only crv, kty, x and y of an EC key, in that order', () => {
    const expected = createHash('sha256').update(`{"crv":"P-256","kty":"EC","x":"${EC_X}","y":"${EC_Y}"}`).digest('base64url');
    expect(jwkThumbprint(EC_JWK, sha256Hex)).toBe(expected);
  });
});
