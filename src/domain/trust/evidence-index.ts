import { IntegrityError, InvalidInputError } from '../errors';

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
    const found: number[] = [];
    for (let i = this.lowerBound(prefix); i < this.size && this.pairs[2 * i + HIGH] === prefix; i++) found.push(this.pairs[2 * i + LOW]);
    return found;
  }

  /**
   * Bucket `bucket` of the stored form with 2^`bits` buckets (EVIDENCE_INDEX_DOCUMENT): its pairs, each as the prefix
   * and the position, 4 bytes each, big-endian, in the index's order.
   */
  bucketBytes(bits: number, bucket: number): Uint8Array {
    const [first, end] = bucketRange(bits, bucket);
    const from = this.lowerBound(first);
    const to = end > MAX_POSITION ? this.size : this.lowerBound(end);
    const bytes = new Uint8Array(ENTRY_BYTES * (to - from));
    const view = new DataView(bytes.buffer);
    for (let i = from; i < to; i++) {
      view.setUint32(ENTRY_BYTES * (i - from), this.pairs[2 * i + HIGH]);
      view.setUint32(ENTRY_BYTES * (i - from) + 4, this.pairs[2 * i + LOW]);
    }
    return bytes;
  }

  /** The first pair whose prefix is `prefix` or more (the size when none is). */
  private lowerBound(prefix: number): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.pairs[2 * middle + HIGH] < prefix) low = middle + 1;
      else high = middle;
    }
    return low;
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
    if (!CONTENT_HASH_HEX.test(hex))
      throw new InvalidInputError('bad-content-hash', `content hash ${JSON.stringify(hex.slice(0, 80))}: expected 64 lower-case hex digits`);
    if (!Number.isInteger(position) || position < 0 || position > MAX_POSITION)
      throw new InvalidInputError('bad-evidence-position', `evidence position ${position}: expected an integer from 0 to ${MAX_POSITION}`);
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

/**
 * The stored index of a run's evidence list (docs/hashing.md, "The evidence index of a run"): this header, canonical
 * JSON, and the index itself cut into 2^bucket_bits bucket documents by the first bits of the hash, so a lookup reads
 * the header once and then one bucket of at most a few tens of KB, whatever the run's size.
 */
export const EVIDENCE_INDEX_DOCUMENT = 'evidence-index.json';
export const EVIDENCE_INDEX_SCHEMA = 'svc.evidence-index/v1';
/** The media type of a bucket document: packed big-endian 32-bit pairs, not JSON. */
export const EVIDENCE_INDEX_BUCKET_TYPE = 'application/octet-stream';

/** How many bytes a stored entry takes: its prefix and its position, 4 bytes each. */
const ENTRY_BYTES = 8;
/** A bucket holds about this many entries at most before the index is cut into twice as many (32 KB). */
const BUCKET_ENTRIES = 4096;
/** At most 4,096 buckets: past 16 million entries, buckets grow instead (a 100-million-result run: 200 KB each). */
const MAX_BUCKET_BITS = 12;

export interface EvidenceIndexHeader {
  schema: typeof EVIDENCE_INDEX_SCHEMA;
  /** The list whose positions it gives: the run's evidence pages (`evidence.NNNNNN.json`). */
  list: 'evidence';
  /** How many entries the list holds, each indexed once. */
  entries: number;
  /** How many entries each page of the list holds (the last fewer): position p is item p mod page_size of page ⌊p / page_size⌋. */
  page_size: number;
  /** The buckets: 2^bucket_bits of them, bucket b holding the entries whose prefix's first bucket_bits bits are b; none when `entries` is 0. */
  bucket_bits: number;
}

/** The header of the stored index of a list of `entries` entries in pages of `pageSize`. */
export function evidenceIndexHeader(entries: number, pageSize: number): EvidenceIndexHeader {
  let bits = 0;
  while (bits < MAX_BUCKET_BITS && entries > BUCKET_ENTRIES * 2 ** bits) bits += 1;
  return { schema: EVIDENCE_INDEX_SCHEMA, list: 'evidence', entries, page_size: pageSize, bucket_bits: bits };
}

/** How many bucket documents the index of `header` has. */
export function bucketCount(header: EvidenceIndexHeader): number {
  return header.entries === 0 ? 0 : 2 ** header.bucket_bits;
}

/** The bucket document a content hash's entries are in: `evidence-index.0000.bin` … `evidence-index.4095.bin`. */
export function bucketDocumentName(bucket: number): string {
  return `evidence-index.${String(bucket).padStart(4, '0')}.bin`;
}

/** The bucket of a content hash: the first `bits` bits of its prefix. */
export function bucketOf(hex: string, bits: number): number {
  return bits === 0 ? 0 : hashPrefix(hex) >>> (32 - bits);
}

/** The prefixes of bucket `bucket`: from the first, up to but not including the end (2³² for the last). */
function bucketRange(bits: number, bucket: number): [number, number] {
  const width = 2 ** (32 - bits);
  return [bucket * width, (bucket + 1) * width];
}

/**
 * A stored header as read back (`what` names the document for the message): IntegrityError `run-store-tampered` when
 * it is not an EVIDENCE_INDEX_SCHEMA header of the evidence list. (Its bytes have passed the hash chain: what fails
 * here was written so, not changed since.)
 */
export function checkEvidenceIndexHeader(value: unknown, what: string): EvidenceIndexHeader {
  const header = value as Partial<EvidenceIndexHeader> | null;
  const count = (n: unknown, max: number) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= max;
  const valid =
    typeof header === 'object' &&
    header !== null &&
    header.schema === EVIDENCE_INDEX_SCHEMA &&
    header.list === 'evidence' &&
    count(header.entries, MAX_POSITION + 1) &&
    count(header.page_size, MAX_POSITION) &&
    (header.page_size as number) > 0 &&
    count(header.bucket_bits, MAX_BUCKET_BITS);
  if (!valid)
    throw new IntegrityError(
      'run-store-tampered',
      `${what} is not a ${EVIDENCE_INDEX_SCHEMA} index of the evidence list; the store was modified outside svc, or by a newer svc. Restore it from backup, or serve it with that svc`,
    );
  return header as EvidenceIndexHeader;
}

/**
 * The positions, ascending, of the entries of a stored bucket (`bytes`, bucket `bucket` of 2^`bits`) whose hash starts
 * as `hex` does. The bucket is checked whole first (a few thousand pairs: microseconds), then searched: IntegrityError
 * `run-store-tampered` naming `what` when the bytes are not such a bucket: not whole pairs, out of order, outside the
 * bucket, or a position past `entries`.
 */
export function positionsInBucket(bytes: Uint8Array, hex: string, bucket: { bucket: number; bits: number; entries: number; what: string }): number[] {
  const bad = (problem: string) =>
    new IntegrityError('run-store-tampered', `${bucket.what} ${problem}; the store was modified outside svc. Restore it from backup`);
  if (bytes.length % ENTRY_BYTES !== 0) throw bad(`is ${bytes.length} bytes, not a whole number of ${ENTRY_BYTES}-byte entries`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = bytes.length / ENTRY_BYTES;
  const prefixAt = (i: number) => view.getUint32(ENTRY_BYTES * i);
  const positionAt = (i: number) => view.getUint32(ENTRY_BYTES * i + 4);
  const [first, end] = bucketRange(bucket.bits, bucket.bucket);
  for (let i = 0; i < size; i++) {
    const prefix = prefixAt(i);
    if (prefix < first || prefix >= end) throw bad(`holds an entry of another bucket than ${bucket.bucket}`);
    if (positionAt(i) >= bucket.entries) throw bad(`names position ${positionAt(i)}, past the ${bucket.entries} entries of the list`);
    if (i > 0 && (prefixAt(i - 1) > prefix || (prefixAt(i - 1) === prefix && positionAt(i - 1) >= positionAt(i)))) throw bad('is not in order');
  }
  const prefix = hashPrefix(hex);
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (prefixAt(middle) < prefix) low = middle + 1;
    else high = middle;
  }
  const found: number[] = [];
  for (let i = low; i < size && prefixAt(i) === prefix; i++) found.push(positionAt(i));
  return found;
}
