import * as crypto from 'node:crypto';
import canonicalizeJcs from 'canonicalize';
import { injectable } from 'tsyringe';
import { InvalidInputError } from '../../domain/errors';
import type { Hashing } from '../../ports/hashing';

/** crypto.hash (Node ≥ 20.12) skips the Hash object; fall back to createHash where it is missing. */
const oneShot: (data: string | Uint8Array) => string =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'hex') : (data) => crypto.createHash('sha256').update(data).digest('hex');

/**
 * SHA-256 from node:crypto and RFC 8785 canonical JSON from the `canonicalize` package (by one of the RFC's
 * authors). Values whose object keys are already in code-unit order at every level (the artifacts svc reads
 * back, and many scanners' output) take a shortcut: JSON.stringify of such a value is its JCS text, because
 * JCS serializes strings and numbers exactly as ECMAScript's JSON.stringify does.
 */
@injectable()
export class NodeCryptoHashing implements Hashing {
  private readonly scratch = Buffer.alloc(1 + 32 * 2);

  canonicalize(value: unknown): string {
    try {
      const text = isCanonicalOrder(value) ? JSON.stringify(value) : canonicalizeJcs(value);
      if (typeof text !== 'string') throw new Error('not a JSON value');
      return text;
    } catch (error) {
      throw new InvalidInputError('not-json-value', `cannot write a canonical JSON form: ${(error as Error).message}`, { cause: error });
    }
  }

  sha256(data: string | Uint8Array): string {
    return oneShot(data);
  }

  sha256Tagged(prefix: number, ...digests: string[]): string {
    const length = 1 + 32 * digests.length;
    const buffer = length <= this.scratch.length ? this.scratch.subarray(0, length) : Buffer.alloc(length);
    buffer[0] = prefix;
    for (let i = 0; i < digests.length; i++) {
      if (buffer.write(digests[i], 1 + 32 * i, 32, 'hex') !== 32) throw new InvalidInputError('bad-digest', `not a SHA-256 hex digest: ${digests[i].slice(0, 80)}`);
    }
    return oneShot(buffer);
  }
}

/** True when every object inside `value` lists its keys in code-unit order and holds only finite numbers. */
function isCanonicalOrder(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || typeof value !== 'object') return typeof value !== 'undefined' && typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint';
  if (Array.isArray(value)) {
    for (const item of value) if (!isCanonicalOrder(item)) return false;
    return true;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    if (!isCanonicalOrder((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}
