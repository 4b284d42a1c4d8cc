import * as crypto from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, InvalidInputError } from '../../domain/errors';
import { jwkThumbprint, type PublicJwk, type SignatureAlgorithm } from '../../domain/signing/jwk';
import type { Signer, SigningKey } from '../../ports/signer';
import { writeFileAtomically } from '../shared/atomic-file';
import { translateFsError } from '../shared/fs-errors';

const DEVELOPMENT_KEY = 'dev-signing-key.pem';
const MIN_RSA_BITS = 2048;
const SALT_LENGTH = 32;

/** crypto.sign/verify arguments per JOSE algorithm; ES256 in DER, as sigstore/cosign and OpenSSL write it. */
const PARAMETERS: Record<SignatureAlgorithm, { digest: string | null; options: { dsaEncoding?: 'der'; padding?: number; saltLength?: number } }> = {
  ES256: { digest: 'sha256', options: { dsaEncoding: 'der' } },
  EdDSA: { digest: null, options: {} },
  PS256: { digest: 'sha256', options: { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: SALT_LENGTH } },
};

const KEY_TYPES: Record<SignatureAlgorithm, string> = { ES256: 'ec', EdDSA: 'ed25519', PS256: 'rsa' };
const CURVE_NAMES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

type Origin = SigningKey['origin'];

/**
 * Signs with a PEM private key (PKCS#8 or traditional) from --key, SVC_SIGNING_KEY, or a development key that
 * is created once under the svc home. The KeyObject stays inside the SigningKey's sign() closure.
 */
export class PemSigner implements Signer {
  constructor(private readonly options: { envKeyPath?: string; svcHome: string }) {}

  async load(keyPath?: string): Promise<SigningKey> {
    if (keyPath !== undefined) return signingKey(await readKeyFile(keyPath), { kind: 'file', path: keyPath, created: false });
    // An empty SVC_SIGNING_KEY= counts as unset, as shells usually mean it.
    const { envKeyPath } = this.options;
    if (envKeyPath) return signingKey(await readKeyFile(envKeyPath), { kind: 'env', path: envKeyPath, created: false });
    return this.developmentKey();
  }

  verify(jwk: PublicJwk, data: Uint8Array, signature: Uint8Array): boolean {
    const key = publicKeyOf(jwk);
    const { digest, options } = PARAMETERS[jwk.alg];
    // RFC 8017 §8.1.2 step 1: a signature that is not k octets long is invalid. OpenSSL reads a shorter one as the
    // same integer, so a signature starting with a zero octet (1 in 256) would verify without it.
    if (key.asymmetricKeyType === 'rsa' && signature.length !== Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 0) / 8)) return false;
    try {
      return crypto.verify(digest, data, { key, ...options }, signature);
    } catch {
      return false; // OpenSSL refuses some malformed signatures instead of answering false
    }
  }

  private async developmentKey(): Promise<SigningKey> {
    const path = join(this.options.svcHome, DEVELOPMENT_KEY);
    const existing = await readIfPresent(path);
    if (existing !== undefined) return signingKey(existing, { kind: 'development', path, created: false });
    return signingKey(await createDevelopmentKey(this.options.svcHome, path), { kind: 'development', path, created: true });
  }
}

async function readKeyFile(path: string): Promise<Buffer> {
  const pem = await readIfPresent(path);
  if (pem === undefined)
    throw new ConfigError('signing-key-missing', `${path}: no such key file; pass --key <pem>, set SVC_SIGNING_KEY, or omit both to use the development key`);
  return pem;
}

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw translateFsError(error, path, 'signing key');
  }
}

/** A fresh EC P-256 key in PKCS#8 PEM, mode 0600, under a temporary name renamed into place so no run reads half a key. */
async function createDevelopmentKey(home: string, path: string): Promise<Buffer> {
  try {
    await mkdir(home, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw translateFsError(error, home, 'svc home directory');
  }
  const pem = Buffer.from(crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  try {
    await writeFileAtomically(path, pem);
    return pem;
  } catch (error) {
    throw translateFsError(error, path, 'development signing key');
  }
}

function signingKey(pem: Buffer, origin: Origin): SigningKey {
  const { key, algorithm } = privateKeyOf(pem, origin.path);
  const publicJwk = publicJwkOf(key, algorithm);
  const { digest, options } = PARAMETERS[algorithm];
  return {
    algorithm,
    publicJwk,
    keyid: jwkThumbprint(publicJwk, (text) => crypto.createHash('sha256').update(text).digest('hex')),
    origin,
    sign: (data) => crypto.sign(digest, data, { key, ...options }),
  };
}

/** The key and its algorithm; ConfigError naming the path and a short reason, never the key's text. */
function privateKeyOf(pem: Buffer, path: string): { key: crypto.KeyObject; algorithm: SignatureAlgorithm } {
  const unusable = (reason: string, cause?: unknown): never => {
    throw new ConfigError(
      'signing-key-unusable',
      `${path}: not a usable signing key (${reason}); give a PEM private key: EC P-256, Ed25519, or RSA of 2048 bits or more`,
      { cause },
    );
  };
  const text = pem.toString('latin1');
  // Checked before OpenSSL sees the key: asked for a passphrase, it fails with an unhelpful "interrupted or cancelled".
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: *4, *ENCRYPTED/.test(text)) return unusable('encrypted PEM');
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    const found = /-----BEGIN [A-Z ]*PUBLIC KEY-----/.test(text)
      ? 'a public key'
      : /-----BEGIN CERTIFICATE-----/.test(text)
        ? 'a certificate'
        : 'no PEM private key found';
    return unusable(found, error);
  }
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'ec':
      if (details.namedCurve !== 'prime256v1') return unusable(`EC curve ${CURVE_NAMES[details.namedCurve ?? ''] ?? details.namedCurve}`);
      return { key, algorithm: 'ES256' };
    case 'ed25519':
      return { key, algorithm: 'EdDSA' };
    case 'rsa':
    case 'rsa-pss': {
      const bits = details.modulusLength ?? 0;
      if (bits < MIN_RSA_BITS) return unusable(`RSA of ${bits} bits`);
      // An RSA-PSS key may carry parameter restrictions (RFC 4055 §3.1) that OpenSSL signs with, whatever is
      // asked: `-pkeyopt rsa_pss_keygen_md:sha256` alone leaves MGF1 at SHA-1, which no PS256 verifier accepts.
      const { hashAlgorithm = 'sha256', mgf1HashAlgorithm = 'sha256', saltLength = 0 } = details;
      if (hashAlgorithm !== 'sha256') return unusable(`RSA-PSS key restricted to ${hashAlgorithm}`);
      if (mgf1HashAlgorithm !== 'sha256') return unusable(`RSA-PSS key restricted to MGF1 ${mgf1HashAlgorithm}`);
      if (saltLength > SALT_LENGTH) return unusable(`RSA-PSS key restricted to salts of ${saltLength} bytes or more`);
      return { key, algorithm: 'PS256' };
    }
    default:
      return unusable(`${key.asymmetricKeyType} key`);
  }
}

function publicJwkOf(key: crypto.KeyObject, algorithm: SignatureAlgorithm): PublicJwk {
  let publicKey = crypto.createPublicKey(key);
  // Node exports no JWK for RSA-PSS keys (ERR_CRYPTO_JWK_UNSUPPORTED_KEY_TYPE); the same modulus and exponent as an RSA key do.
  if (key.asymmetricKeyType === 'rsa-pss') {
    publicKey = crypto.createPublicKey({ key: rsaPublicKeyOf(publicKey.export({ type: 'spki', format: 'der' })), format: 'der', type: 'pkcs1' });
  }
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  switch (algorithm) {
    case 'ES256':
      return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, alg: 'ES256' };
    case 'EdDSA':
      return { kty: 'OKP', crv: 'Ed25519', x: jwk.x, alg: 'EdDSA' };
    case 'PS256':
      return { kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'PS256' };
  }
}

/** The RSAPublicKey inside a SubjectPublicKeyInfo (RFC 5280 §4.1): the BIT STRING after the AlgorithmIdentifier. */
function rsaPublicKeyOf(spki: Buffer): Buffer {
  const info = derContent(spki, 0);
  const algorithm = derContent(spki, info.start);
  const bits = derContent(spki, algorithm.end);
  return spki.subarray(bits.start + 1, bits.end); // the first content byte counts unused bits: 0
}

function derContent(der: Buffer, at: number): { start: number; end: number } {
  const length = der[at + 1];
  if (length < 0x80) return { start: at + 2, end: at + 2 + length };
  const octets = length & 0x7f;
  const start = at + 2 + octets;
  return { start, end: start + der.readUIntBE(at + 2, octets) };
}

function publicKeyOf(jwk: PublicJwk): crypto.KeyObject {
  const bad = (reason: string, cause?: unknown): never => {
    throw new InvalidInputError(
      'bad-public-key',
      `public JWK (alg ${JSON.stringify(jwk.alg)}): ${reason}; give an ES256 (EC P-256), EdDSA (Ed25519) or PS256 (RSA, 2048 bits or more) public key`,
      { cause },
    );
  };
  const expected = KEY_TYPES[jwk.alg];
  if (expected === undefined) return bad('unknown algorithm');
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey({ key: jwk as crypto.JsonWebKey, format: 'jwk' });
  } catch (error) {
    return bad('cannot be turned into a key', error);
  }
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType !== expected) return bad(`a ${key.asymmetricKeyType} key does not fit the algorithm`);
  if (expected === 'ec' && details.namedCurve !== 'prime256v1')
    return bad(`EC curve ${CURVE_NAMES[details.namedCurve ?? ''] ?? details.namedCurve} does not fit ES256`);
  if (expected === 'rsa' && (details.modulusLength ?? 0) < MIN_RSA_BITS) return bad(`RSA of ${details.modulusLength} bits`);
  return key;
}
