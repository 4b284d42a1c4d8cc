import { fromBase64, hexToBytes, toBase64Url } from '../encoding/base64';
import { InvalidInputError } from '../errors';
import { describe, isPlainObject } from '../encoding/json-values';

export type SignatureAlgorithm = 'ES256' | 'EdDSA' | 'PS256';

/** The public keys svc signs with, as RFC 7517/7518/8037 JWKs carrying their `alg`. */
export type PublicJwk =
  | { kty: 'EC'; crv: 'P-256'; x: string; y: string; alg: 'ES256' }
  | { kty: 'OKP'; crv: 'Ed25519'; x: string; alg: 'EdDSA' }
  | { kty: 'RSA'; n: string; e: string; alg: 'PS256' };

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MIN_RSA_BITS = 2048;

/**
 * Reads a public JWK of one of the three accepted kinds. Members other than the key's own are dropped; `alg`
 * may be absent (RFC 7517 §4.4 makes it optional) but must not contradict the key type.
 */
export function readPublicJwk(value: unknown, file: string, path: string): PublicJwk {
  const fail = (member: string, problem: string): never => {
    throw new InvalidInputError(
      'invalid-public-jwk',
      `${file}: ${path}${member}: ${problem}; give a public JWK for ES256 (EC P-256), EdDSA (Ed25519) or PS256 (RSA, 2048 bits or more)`,
    );
  };
  if (!isPlainObject(value)) return fail('', `expected a JWK object, got ${describe(value)}`);
  if ('d' in value) return fail('.d', 'holds private key material; give the public key only');
  const member = (name: string, bytes?: number): { text: string; decoded: Uint8Array } => {
    const text = value[name];
    // A length of 4k+1 is no whole number of bytes; checked here so the message names the member.
    if (typeof text !== 'string' || !BASE64URL.test(text) || text.length % 4 === 1) return fail(`.${name}`, 'expected base64url text without padding');
    const decoded = fromBase64(text);
    if (bytes !== undefined && decoded.length !== bytes) return fail(`.${name}`, `expected ${bytes} bytes, got ${decoded.length}`);
    return { text, decoded };
  };
  const algorithm = (expected: SignatureAlgorithm, key: string) => {
    if (value.alg !== undefined && value.alg !== expected) fail('.alg', `expected "${expected}" for ${key}, got ${describe(value.alg)}`);
  };
  if (value.kty === 'EC') {
    if (value.crv !== 'P-256') return fail('.crv', `expected "P-256", got ${describe(value.crv)}`);
    algorithm('ES256', 'an EC P-256 key');
    return { kty: 'EC', crv: 'P-256', x: member('x', 32).text, y: member('y', 32).text, alg: 'ES256' };
  }
  if (value.kty === 'OKP') {
    if (value.crv !== 'Ed25519') return fail('.crv', `expected "Ed25519", got ${describe(value.crv)}`);
    algorithm('EdDSA', 'an Ed25519 key');
    return { kty: 'OKP', crv: 'Ed25519', x: member('x', 32).text, alg: 'EdDSA' };
  }
  if (value.kty === 'RSA') {
    algorithm('PS256', 'an RSA key');
    const n = member('n');
    const bits = n.decoded.length * 8 - Math.clz32(n.decoded[0]) + 24;
    if (bits < MIN_RSA_BITS) return fail('.n', `RSA modulus of ${bits} bits is too short`);
    return { kty: 'RSA', n: n.text, e: member('e').text, alg: 'PS256' };
  }
  return fail('.kty', `expected "EC", "OKP" or "RSA", got ${describe(value.kty)}`);
}

/**
 * RFC 7638 JWK thumbprint: SHA-256 of the required members in lexicographic order without whitespace
 * (RFC 8037 §2 names them for OKP), as base64url. `sha256Hex` is the HASHING port's primitive.
 */
export function jwkThumbprint(jwk: PublicJwk, sha256Hex: (text: string) => string): string {
  // JSON.stringify keeps insertion order for these non-index keys, so each literal is already canonical.
  const required =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : jwk.kty === 'OKP'
        ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
        : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return toBase64Url(hexToBytes(sha256Hex(JSON.stringify(required))));
}
