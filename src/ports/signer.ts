import type { InjectionToken } from 'tsyringe';
import type { PublicJwk, SignatureAlgorithm } from '../domain/signing/jwk';

/** A private key ready to sign; its material never leaves the adapter. */
export interface SigningKey {
  algorithm: SignatureAlgorithm;
  /** The public half, including `alg`; it travels in the DSSE envelope. */
  publicJwk: PublicJwk;
  /** RFC 7638 thumbprint of publicJwk. */
  keyid: string;
  /** Where it came from: --key, SVC_SIGNING_KEY, or the development key under the svc home. */
  origin: { kind: 'file' | 'env' | 'development'; path: string; created: boolean };
  /** ES256: ASN.1 DER ECDSA over SHA-256; EdDSA: Ed25519; PS256: RSASSA-PSS, SHA-256, MGF1-SHA-256, salt 32. */
  sign(data: Uint8Array): Uint8Array;
}

/** Loads PEM signing keys and checks signatures made with them. */
export interface Signer {
  /**
   * The key at `keyPath`, else the configured SVC_SIGNING_KEY, else the development key (created on first use).
   * Throws ConfigError('signing-key-missing') for a missing file, ConfigError('signing-key-unusable') for anything
   * but an unencrypted EC P-256, Ed25519 or RSA (≥ 2048 bits) private key, PermissionError when the OS refuses.
   */
  load(keyPath?: string): Promise<SigningKey>;
  /**
   * Whether `signature` is `jwk.alg`'s signature of `data`; false for a wrong or undecodable signature.
   * Throws InvalidInputError('bad-public-key') when the JWK is not a usable public key.
   */
  verify(jwk: PublicJwk, data: Uint8Array, signature: Uint8Array): boolean;
}

export const SIGNER: InjectionToken<Signer> = Symbol('Signer');
