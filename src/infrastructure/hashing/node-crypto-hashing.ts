import * as crypto from 'node:crypto';
import canonicalizeJcs from 'canonicalize';
import { injectable } from 'tsyringe';
import { InvalidInputError } from '../../domain/errors';
import { isOrderedJson, sortedCopy } from '../../domain/encoding/json-chunks';
import type { Sha256Hasher } from '../../domain/evidence/content-digest';
import type { Hashing } from '../../ports/hashing';
import { noteStreamed } from '../shared/collect-garbage';

/** crypto.hash (Node ≥ 20.12) skips the Hash object; fall back to createHash where it is missing. */
const oneShot: (data: string | Uint8Array) => string =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'hex') : (data) => crypto.createHash('sha256').update(data).digest('hex');

/**
 * SHA-256 from node:crypto and RFC 8785 canonical JSON. JCS writes strings and numbers exactly as
 * ECMAScript's JSON.stringify does and orders object keys by UTF-16 code units, so:
 * - a value whose keys are already in that order at every level is written by JSON.stringify itself;
 * - other plain JSON values are written by JSON.stringify from a copy with sorted keys (sortedCopy: twice as
 *   fast as writing them member by member; this runs once per evidence field, a million times in a large run);
 * - anything else (array-index keys, whose enumeration order JavaScript fixes; an own `__proto__` key; toJSON;
 *   non-finite numbers) goes to the `canonicalize` package by one of the RFC's authors, which the property tests
 *   also hold both shortcuts against.
 */
@injectable()
export class NodeCryptoHashing implements Hashing {
  private readonly leaf = Buffer.alloc(1 + 32);
  private readonly node = Buffer.alloc(1 + 32 * 2);

  canonicalize(value: unknown): string {
    try {
      const sorted = isOrderedJson(value) ? value : sortedCopy(value);
      const text = sorted !== undefined ? JSON.stringify(sorted) : canonicalizeJcs(value);
      if (typeof text !== 'string') throw new Error('not a JSON value');
      return text;
    } catch (error) {
      throw new InvalidInputError('not-json-value', `cannot write a canonical JSON form: ${(error as Error).message}`, { cause: error });
    }
  }

  sha256(data: string | Uint8Array): string {
    return oneShot(data);
  }

  sha256Pieces(pieces: Iterable<string | Uint8Array>): string {
    const hash = crypto.createHash('sha256');
    for (const piece of pieces) {
      hash.update(piece);
      // The pieces of a text too large for one string (a run's record) are garbage once hashed.
      noteStreamed(piece.length);
    }
    return hash.digest('hex');
  }

  sha256Hasher(): Sha256Hasher {
    const hash = crypto.createHash('sha256');
    return {
      update: (data) => void hash.update(data),
      digest: () => hash.digest('hex'),
    };
  }

  sha256Tagged(prefix: number, ...digests: string[]): string {
    const buffer = digests.length === 1 ? this.leaf : digests.length === 2 ? this.node : Buffer.alloc(1 + 32 * digests.length);
    buffer[0] = prefix;
    for (let i = 0; i < digests.length; i++) {
      if (buffer.write(digests[i], 1 + 32 * i, 32, 'hex') !== 32 || digests[i].length !== 64) {
        throw new InvalidInputError('bad-digest', `not a SHA-256 hex digest: ${digests[i].slice(0, 80)}`);
      }
    }
    return oneShot(buffer);
  }
}
