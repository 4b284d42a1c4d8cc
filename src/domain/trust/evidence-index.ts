import { InvalidInputError } from '../errors';

/** A content hash as the trust center's evidence links write it: 64 lower-case hex digits. */
export const CONTENT_HASH_HEX = /^[0-9a-f]{64}$/;

/** The first 4 bytes of a hex content hash, as an unsigned 32-bit number. */
export function hashPrefix(hex: string): number {
  return Number.parseInt(hex.slice(0, 8), 16);
}

/**
 * Whether the 64-bit pairs below are little-endian, so that a pair's high word (the prefix) is the second of its two
 * 32-bit words: a pair sorts as one unsigned 64-bit number `prefix · 2³² + position`.
 */
const HIGH = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0;
const LOW = 1 - HIGH;
const MAX_POSITION = 2 ** 32 - 1;

/**
 * Where a run's evidence entries are, by content hash, in 8 bytes per entry (8 MB at a million results): the first 4
 * bytes of each entry's hash with its position in the run's evidence list, sorted. A prefix is not the hash: a lookup
 * gives the positions whose prefix matches (almost always none or one; two entries share one about once in four
 * billion pairs, and the same result recorded twice shares the whole hash), and the caller compares the full hash of
 * the entries there.
 */
export class EvidenceIndex {
  /** @param pairs per entry two 32-bit words, prefix (high) and position (low), sorted as 64-bit numbers. */
  constructor(private readonly pairs: Uint32Array) {}

  /** How many entries it indexes. */
  get size(): number {
    return this.pairs.length / 2;
  }

  /** The positions whose entries' hashes start as `hex` does, in ascending order; [] when none does. */
  positions(hex: string): number[] {
    const prefix = hashPrefix(hex);
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.pairs[2 * middle + HIGH] < prefix) low = middle + 1;
      else high = middle;
    }
    const found: number[] = [];
    for (let i = low; i < this.size && this.pairs[2 * i + HIGH] === prefix; i++) found.push(this.pairs[2 * i + LOW]);
    return found;
  }
}

/**
 * Collects a run's entries one at a time (the caller reads its evidence a page at a time) into an EvidenceIndex.
 * `expected` sizes the buffer once when the caller knows how many entries follow; it grows past that if need be.
 */
export class EvidenceIndexBuilder {
  private pairs: Uint32Array;
  private count = 0;

  constructor(expected = 0) {
    this.pairs = new Uint32Array(2 * Math.max(expected, 16));
  }

  /** Adds the entry at `position` (a list position, 0 … 2³² − 1) whose content hash is `hex`. */
  add(hex: string, position: number): void {
    if (!CONTENT_HASH_HEX.test(hex)) throw new InvalidInputError('bad-content-hash', `content hash ${JSON.stringify(hex.slice(0, 80))}: expected 64 lower-case hex digits`);
    if (!Number.isInteger(position) || position < 0 || position > MAX_POSITION) throw new InvalidInputError('bad-evidence-position', `evidence position ${position}: expected an integer from 0 to ${MAX_POSITION}`);
    if (2 * this.count === this.pairs.length) {
      const grown = new Uint32Array(this.pairs.length * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[2 * this.count + HIGH] = hashPrefix(hex);
    this.pairs[2 * this.count + LOW] = position;
    this.count += 1;
  }

  /** The index of what was added; the builder is done with. */
  build(): EvidenceIndex {
    // Sorted as 64-bit numbers by the typed array's own numeric sort, with no comparator call per entry; a buffer
    // more than a quarter too large is cut to size so the index keeps only what it holds.
    const used = 2 * this.count;
    const pairs = used * 1.25 < this.pairs.length ? this.pairs.slice(0, used) : this.pairs.subarray(0, used);
    new BigUint64Array(pairs.buffer, pairs.byteOffset, this.count).sort();
    this.pairs = new Uint32Array(0);
    return new EvidenceIndex(pairs);
  }
}
