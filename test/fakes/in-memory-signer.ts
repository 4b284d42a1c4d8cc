import { createHash, generateKeyPairSync, sign, verify, createPublicKey } from 'node:crypto';
import { InvalidInputError } from '../../src/domain/errors';
import { jwkThumbprint, type PublicJwk } from '../../src/domain/signing/jwk';
import type { Signer, SigningKey } from '../../src/ports/signer';

/** SIGNER with one Ed25519 key made in memory: real signatures, no files. `loaded` records the paths asked for. */
export class InMemorySigner implements Signer {
  readonly loaded: (string | undefined)[] = [];
  private readonly pair = generateKeyPairSync('ed25519');

  async load(keyPath?: string): Promise<SigningKey> {
    this.loaded.push(keyPath);
    const { x } = this.pair.publicKey.export({ format: 'jwk' });
    const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: x as string, alg: 'EdDSA' };
    return {
      algorithm: 'EdDSA',
      publicJwk,
      keyid: jwkThumbprint(publicJwk, (text) => createHash('sha256').update(text).digest('hex')),
      origin: { kind: keyPath ? 'file' : 'development', path: keyPath ?? '/home/.svc/dev-signing-key.pem', created: false },
      sign: (data) => sign(null, data, this.pair.privateKey),
    };
  }

  /** Ed25519 only, as this double signs; a JWK that is no public key is refused as the port says. */
  verify(jwk: PublicJwk, data: Uint8Array, signature: Uint8Array): boolean {
    let key;
    try {
      key = createPublicKey({ key: jwk as never, format: 'jwk' });
    } catch {
      throw new InvalidInputError('bad-public-key', `public JWK (alg ${JSON.stringify(jwk.alg)}): cannot be turned into a key`);
    }
    try {
      return verify(null, data, key, signature);
    } catch {
      return false;
    }
  }
}
