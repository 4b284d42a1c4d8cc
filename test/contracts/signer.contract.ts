import { createHash } from 'node:crypto';
import { InvalidInputError } from '../../src/domain/errors';
import type { PublicJwk } from '../../src/domain/signing/jwk';
import type { Signer } from '../../src/ports/signer';

export interface SignerHarness {
  signer: Signer;
  /** A path `load` accepts as a usable private key. */
  keyPath: string;
}

/** RFC 7638 thumbprint, written here from the RFC: the required members in lexicographic order, no spaces. */
function thumbprint(jwk: PublicJwk): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : jwk.kty === 'OKP'
        ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
        : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

/** What every SIGNER must do: keys that sign what verify accepts, thumbprints per RFC 7638, and no false yes. */
export function signerContract(name: string, make: () => Promise<SignerHarness>): void {
  describe(`${name} (SIGNER contract)`, () => {
    let h: SignerHarness;
    beforeAll(async () => {
      h = await make();
    });
    const data = new TextEncoder().encode('DSSEv1 28 application/vnd.in-toto+json 2 {}');

    it('loads a key whose signatures verify with its public JWK, and only over the data signed', async () => {
      const key = await h.signer.load(h.keyPath);
      expect(key.publicJwk.alg).toBe(key.algorithm);
      expect(key.origin).toMatchObject({ kind: 'file', path: h.keyPath });
      const signature = key.sign(data);
      expect(h.signer.verify(key.publicJwk, data, signature)).toBe(true);
      expect(h.signer.verify(key.publicJwk, new TextEncoder().encode('DSSEv1 other'), signature)).toBe(false);
      const flipped = Uint8Array.from(signature);
      flipped[flipped.length - 1] ^= 0x01;
      expect(h.signer.verify(key.publicJwk, data, flipped)).toBe(false);
      expect(h.signer.verify(key.publicJwk, data, new Uint8Array([1, 2, 3]))).toBe(false);
    });

    it('names the key by the RFC 7638 thumbprint of its public JWK', async () => {
      const key = await h.signer.load(h.keyPath);
      expect(key.keyid).toBe(thumbprint(key.publicJwk));
    });

    it('refuses a JWK that is no usable public key with bad-public-key', () => {
      const bad = { kty: 'OKP', crv: 'Ed25519', x: 'AAAA', alg: 'EdDSA' } as PublicJwk;
      expect(() => h.signer.verify(bad, data, new Uint8Array(64))).toThrow(InvalidInputError);
      expect(() => h.signer.verify(bad, data, new Uint8Array(64))).toThrow(expect.objectContaining({ code: 'bad-public-key' }) as Error);
    });
  });
}
