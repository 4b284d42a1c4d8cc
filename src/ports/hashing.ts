import type { InjectionToken } from 'tsyringe';
import type { ContentDigest } from '../domain/evidence/content-digest';

/**
 * RFC 8785 canonical JSON and SHA-256 (the primitives of the domain's content-hash rules).
 * canonicalize() throws InvalidInputError for values JSON cannot carry (NaN, Infinity).
 */
export type Hashing = ContentDigest;

export const HASHING: InjectionToken<Hashing> = Symbol('Hashing');
