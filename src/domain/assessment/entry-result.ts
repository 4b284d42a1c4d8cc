import { serializeEvidenceEntry } from '../evidence/evidence-entry';
import type { ContentDigest } from '../evidence/content-digest';
import { reportedResult, type KsiResult } from '../ksi/ksi-result';
import type { AssessedResult, Assessor, HashedResult } from './assessment';

const BLOCK_BYTES = 16 * 2 ** 20;
/** Content hashes per block of hashes (64 hex digits each). */
const HASHES_PER_BLOCK = 16_384;
/** Items kept after they are read (EntryStore.item). */
const RECENT_ITEMS = 16;

/**
 * The canonical evidence entries of a run and their content hashes, packed as UTF-8 in blocks of 16 MiB: a run of a
 * million results takes about the size of its evidence bundle, with no JavaScript string or object graph per result
 * (which would take several times that). Each result is read back as an EntryResult.
 */
export class EntryStore {
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  private readonly blocks: Uint8Array[] = [];
  private used = BLOCK_BYTES;
  /** Per entry: its block, its offset in the block and its length in bytes. */
  private readonly blockOf: number[] = [];
  private readonly startOf: number[] = [];
  private readonly lengthOf: number[] = [];
  private readonly hashBlocks: Uint8Array[] = [];
  /** The items read last, by index, oldest first. */
  private readonly recent = new Map<number, AssessedResult>();

  constructor(private readonly assess: Assessor) {}

  get size(): number {
    return this.blockOf.length;
  }

  /** Keeps an entry and its hex content hash; returns the result that reads them back. */
  add(entry: string, hash: string): EntryResult {
    const index = this.blockOf.length;
    let written = this.encodeAt(entry);
    if (written === undefined) {
      // It does not fit what is left of the block: a new one (an entry larger than a block gets a block of its own).
      this.blocks.push(new Uint8Array(Math.max(BLOCK_BYTES, entry.length * 3)));
      this.used = 0;
      written = this.encodeAt(entry) as number;
    }
    this.blockOf.push(this.blocks.length - 1);
    this.startOf.push(this.used);
    this.lengthOf.push(written);
    this.used += written;
    if (index % HASHES_PER_BLOCK === 0) this.hashBlocks.push(new Uint8Array(HASHES_PER_BLOCK * 64));
    this.encoder.encodeInto(hash, this.hashBlocks[this.hashBlocks.length - 1].subarray((index % HASHES_PER_BLOCK) * 64));
    return new EntryResult(this, index);
  }

  entry(index: number): string {
    const start = this.startOf[index];
    return this.decoder.decode(this.blocks[this.blockOf[index]].subarray(start, start + this.lengthOf[index]));
  }

  hash(index: number): string {
    const at = (index % HASHES_PER_BLOCK) * 64;
    return this.decoder.decode(this.hashBlocks[Math.floor(index / HASHES_PER_BLOCK)].subarray(at, at + 64));
  }

  /**
   * The assessed result of entry `index`, made from its entry: kept for the next few reads of it, since a document
   * reads one result's item several times in a row (its observation: its uuid, title, time and evidence link), at most
   * RECENT_ITEMS of them however large the run. Callers treat it as read-only, as every result is.
   */
  item(index: number): AssessedResult {
    const kept = this.recent.get(index);
    if (kept !== undefined) return kept;
    // The result as reported (keys in canonical order).
    const item = this.assess(reportedResult(JSON.parse(this.entry(index)) as Record<string, unknown>) as KsiResult);
    if (this.recent.size >= RECENT_ITEMS) this.recent.delete(this.recent.keys().next().value as number);
    this.recent.set(index, item);
    return item;
  }

  /** Bytes written into the current block, or undefined when the entry does not fit in it. */
  private encodeAt(entry: string): number | undefined {
    const block = this.blocks[this.blocks.length - 1];
    if (!block || this.used + entry.length > block.length) return undefined;
    const { read, written } = this.encoder.encodeInto(entry, block.subarray(this.used));
    return read === entry.length ? written : undefined;
  }
}

/**
 * A result of an EntryStore: its assessed result is made again from its entry when `item` is read after the store's
 * last few reads (EntryStore.item), so a reader takes `item` once per pass.
 */
export class EntryResult implements HashedResult {
  constructor(
    private readonly store: EntryStore,
    private readonly index: number,
  ) {}

  /** The canonical evidence entry. */
  get entry(): string {
    return this.store.entry(this.index);
  }

  get hash(): string {
    return this.store.hash(this.index);
  }

  get item(): AssessedResult {
    return this.store.item(this.index);
  }
}

/** The canonical evidence entry of a result: kept by an EntryResult, else written from the assessed result. */
export function entryText(result: HashedResult, digest: ContentDigest): string {
  if (result instanceof EntryResult) return result.entry;
  const { item } = result;
  return serializeEvidenceEntry(item.result, item.definition, digest).text;
}
