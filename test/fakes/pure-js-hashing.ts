import type { Sha256Hasher } from '../../src/domain/evidence/content-digest';
import type { Hashing } from '../../src/ports/hashing';

/**
 * The HASHING port in plain TypeScript: FIPS 180-4 SHA-256 and RFC 8785 canonical JSON written from the
 * standards, independent of node:crypto and of the `canonicalize` package. Use-case tests run on it, and
 * the contract suite holds it and the production adapter to the same published test vectors.
 */
export class PureJsHashing implements Hashing {
  canonicalize(value: unknown): string {
    return jcs(value);
  }

  sha256(data: string | Uint8Array): string {
    const hasher = new PureSha256();
    hasher.update(data);
    return hasher.digest();
  }

  sha256Pieces(pieces: Iterable<string | Uint8Array>): string {
    const hasher = new PureSha256();
    for (const piece of pieces) hasher.update(piece);
    return hasher.digest();
  }

  sha256Hasher(): Sha256Hasher {
    return new PureSha256();
  }

  sha256Tagged(prefix: number, ...digests: string[]): string {
    const bytes = new Uint8Array(1 + 32 * digests.length);
    bytes[0] = prefix;
    digests.forEach((d, i) => bytes.set(fromHex(d), 1 + 32 * i));
    return this.sha256(bytes);
  }
}

function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('NaN and Infinity have no JSON form');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => jcs(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs(record[k])}`).join(',')}}`;
  }
  throw new Error(`${typeof value} has no JSON form`);
}

const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const UTF8 = new TextEncoder();

/**
 * FIPS 180-4 SHA-256, fed any number of pieces: whole 64-byte blocks are compressed as they arrive, the rest of a
 * piece waits in `block` for the next; digest() pads the message (0x80, zeros, its length in bits) and ends it.
 */
class PureSha256 implements Sha256Hasher {
  private readonly h = Uint32Array.from(H0);
  private readonly block = new Uint8Array(64);
  private readonly w = new Uint32Array(64);
  /** Bytes waiting in `block`. */
  private waiting = 0;
  /** Bytes of the message so far. */
  private length = 0;
  private done = false;

  update(data: string | Uint8Array): void {
    if (this.done) throw new Error('sha256Hasher: update after digest');
    const bytes = typeof data === 'string' ? UTF8.encode(data) : data;
    this.length += bytes.length;
    let at = 0;
    if (this.waiting > 0) {
      at = Math.min(64 - this.waiting, bytes.length);
      this.block.set(bytes.subarray(0, at), this.waiting);
      this.waiting += at;
      if (this.waiting < 64) return;
      this.compress(this.block, 0);
      this.waiting = 0;
    }
    for (; at + 64 <= bytes.length; at += 64) this.compress(bytes, at);
    this.block.set(bytes.subarray(at), 0);
    this.waiting = bytes.length - at;
  }

  digest(): string {
    if (this.done) throw new Error('sha256Hasher: digest taken twice');
    this.done = true;
    const tail = new Uint8Array(this.waiting + 9 <= 64 ? 64 : 128);
    tail.set(this.block.subarray(0, this.waiting));
    tail[this.waiting] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor((this.length * 8) / 2 ** 32));
    view.setUint32(tail.length - 4, (this.length * 8) >>> 0);
    for (let at = 0; at < tail.length; at += 64) this.compress(tail, at);
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    this.h.forEach((x, i) => outView.setUint32(i * 4, x));
    return toHex(out);
  }

  /** One 64-byte block of `bytes` from `at` into the state. */
  private compress(bytes: Uint8Array, at: number): void {
    const { h, w } = this;
    for (let t = 0; t < 16; t++) {
      const i = at + t * 4;
      w[t] = (bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3];
    }
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let a = h[0],
      b = h[1],
      c = h[2],
      d = h[3],
      e = h[4],
      f = h[5],
      g = h[6],
      hh = h[7];
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
}

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): Uint8Array {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`not a SHA-256 hex digest: ${hex}`);
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}
