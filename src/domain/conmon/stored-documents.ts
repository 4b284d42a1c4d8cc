import { InvalidInputError, type IntegrityError } from '../errors';
import type { Sha256Hasher } from '../evidence/content-digest';
import { chainTampered, type RunDigest } from './run-chain';
import type { RunDocument } from './run-record';

export type DocumentChunks = Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

/**
 * A document to store with a run: its bytes as chunks, produced while the store writes them. A function is called
 * when the store reaches the document, with the documents written before it (a manifest lists their digests).
 */
export interface RunDocumentSource {
  name: string;
  media_type: string;
  chunks: DocumentChunks | ((before: readonly RunDocument[]) => DocumentChunks);
}

/**
 * A stored document's name: a plain lowercase file name, so every store can use it as a key or a file name as is; not
 * ending in `.br` or `.pieces`, which name a compressed document's file and a piece list's in the file store.
 */
const DOCUMENT_NAME = /^(?!.*\.(?:br|pieces)$)[a-z0-9][a-z0-9._-]{0,127}$/;

/** How many bytes a store writes or reads at a time. */
export const DOCUMENT_CHUNK_BYTES = 1 << 20;

/** Refuses a document list a store could not keep: names that are not plain or not unique (a bug of the caller). */
export function checkDocumentSources(sources: readonly RunDocumentSource[]): void {
  const seen = new Set<string>();
  for (const { name } of sources) {
    if (!DOCUMENT_NAME.test(name) || seen.has(name))
      throw new InvalidInputError('bad-document-name', `${name}: not a fresh plain lowercase file name for a run document`);
    seen.add(name);
  }
}

/** The documents of a run in the order every store lists them: by name. */
export function byName(documents: RunDocument[]): RunDocument[] {
  return documents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The bytes of a source in chunks of DOCUMENT_CHUNK_BYTES, the last shorter (strings as UTF-8; small pieces gathered,
 * a character split where a chunk ends), and when they are all through, `document()` gives its digest and size.
 */
export class DocumentBytes {
  private readonly hash: Sha256Hasher;
  private size = 0;
  private finished = false;

  /**
   * `before`: the documents of the run written before this one. `onChunk` is told the size of each chunk as it goes:
   * a large run's documents pass gigabytes through V8 as short-lived chunks it would let pile up, and a store paces
   * garbage collection by it.
   */
  constructor(
    private readonly source: RunDocumentSource,
    private readonly before: readonly RunDocument[],
    digest: RunDigest,
    private readonly onChunk?: (bytes: number) => void,
  ) {
    this.hash = digest.sha256Hasher();
  }

  async *chunks(): AsyncGenerator<Uint8Array> {
    const source = typeof this.source.chunks === 'function' ? this.source.chunks(this.before) : this.source.chunks;
    const chunk = new Chunk();
    for await (const piece of source) {
      if (typeof piece === 'string') {
        let rest = piece;
        do {
          rest = chunk.encode(rest);
          if (chunk.full) yield this.passed(chunk.take());
        } while (rest.length > 0);
      } else {
        for (let at = 0; at < piece.length;) {
          if (chunk.empty && piece.length - at >= DOCUMENT_CHUNK_BYTES) {
            // A whole chunk of the piece: passed on as it is, not copied.
            const whole = piece.subarray(at, at + DOCUMENT_CHUNK_BYTES);
            at += DOCUMENT_CHUNK_BYTES;
            yield this.passed(whole);
            continue;
          }
          at = chunk.copy(piece, at);
          if (chunk.full) yield this.passed(chunk.take());
        }
      }
    }
    if (!chunk.empty) yield this.passed(chunk.take());
    this.finished = true;
  }

  document(): RunDocument {
    if (!this.finished) throw new Error(`document ${this.source.name} was not read to its end`);
    return { name: this.source.name, media_type: this.source.media_type, sha256: this.hash.digest(), bytes: this.size };
  }

  private passed(bytes: Uint8Array): Uint8Array {
    this.hash.update(bytes);
    this.size += bytes.length;
    this.onChunk?.(bytes.length);
    return bytes;
  }
}

const UTF8 = new TextEncoder();
/** The size a chunk's buffer starts at, doubling as it fills: a small document does not cost a mebibyte. */
const FIRST_BUFFER_BYTES = 16 * 1024;

/**
 * One chunk being gathered: strings are encoded straight into its buffer, bytes copied in. Once a chunk fills, the
 * next starts at full size; a chunk taken is the caller's, never written again.
 */
class Chunk {
  private bytes = new Uint8Array(0);
  private filled = 0;
  private start = FIRST_BUFFER_BYTES;
  /** The last bytes of a character split at the end of a full chunk: the next chunk begins with them. */
  private carry: Uint8Array | undefined;
  private readonly character = new Uint8Array(4);

  get full(): boolean {
    return this.filled === DOCUMENT_CHUNK_BYTES;
  }

  get empty(): boolean {
    return this.filled === 0;
  }

  /** Puts as much of `text` in as fits, as UTF-8, and returns the rest: '' when it all went in, else the chunk is full. */
  encode(text: string): string {
    for (;;) {
      // Room for the text if it is ASCII, and for a character at least: encodeInto writes whole characters only.
      this.reserve(Math.max(text.length, 4));
      const { read, written } = UTF8.encodeInto(text, this.bytes.subarray(this.filled));
      this.filled += written;
      if (read === text.length) return '';
      text = text.slice(read);
      if (this.bytes.length === DOCUMENT_CHUNK_BYTES) return this.full ? text : this.split(text);
    }
  }

  /** Copies as much of `bytes` from `at` as fits; returns where the rest begins. */
  copy(bytes: Uint8Array, at: number): number {
    const n = Math.min(bytes.length - at, DOCUMENT_CHUNK_BYTES - this.filled);
    this.reserve(n);
    this.bytes.set(bytes.subarray(at, at + n), this.filled);
    this.filled += n;
    return at + n;
  }

  /** The chunk's bytes; the next chunk begins empty, or with the bytes carried over. */
  take(): Uint8Array {
    const taken = this.filled === this.bytes.length ? this.bytes : this.bytes.subarray(0, this.filled);
    if (this.full) this.start = DOCUMENT_CHUNK_BYTES;
    this.bytes = new Uint8Array(0);
    this.filled = 0;
    const carry = this.carry;
    this.carry = undefined;
    if (carry) this.copy(carry, 0);
    return taken;
  }

  /** A buffer with room for `more` bytes after those filled, as far as a chunk goes. */
  private reserve(more: number): void {
    const need = this.filled + more;
    if (need <= this.bytes.length || this.bytes.length === DOCUMENT_CHUNK_BYTES) return;
    const bytes = new Uint8Array(Math.min(DOCUMENT_CHUNK_BYTES, Math.max(need, 2 * this.bytes.length, this.start)));
    bytes.set(this.bytes.subarray(0, this.filled));
    this.bytes = bytes;
  }

  /** The first character of `text` does not fit in the full-size buffer: its first bytes end the chunk, the rest are carried. */
  private split(text: string): string {
    const units = (text.codePointAt(0) as number) > 0xffff ? 2 : 1;
    const { written } = UTF8.encodeInto(text.slice(0, units), this.character);
    const fit = DOCUMENT_CHUNK_BYTES - this.filled;
    this.bytes.set(this.character.subarray(0, fit), this.filled);
    this.filled = DOCUMENT_CHUNK_BYTES;
    this.carry = this.character.slice(fit, written);
    return text.slice(units);
  }
}

/**
 * The stored bytes of `document` as read, passed on as they come; once they are through, a digest or size other than
 * the document's (which the hash chain vouches for) is run-store-tampered naming `where` (or the file it names once read).
 */
export async function* verifiedChunks(
  chunks: AsyncIterable<Uint8Array>,
  document: RunDocument,
  where: string | (() => string),
  digest: RunDigest,
): AsyncGenerator<Uint8Array> {
  const hash = digest.sha256Hasher();
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.length;
    if (size > document.bytes) break;
    yield chunk;
  }
  if (size !== document.bytes || hash.digest() !== document.sha256) {
    throw documentChanged(typeof where === 'string' ? where : where(), document.name);
  }
}

/** A stored document whose bytes are not the ones its run's link vouches for (changed, cut, or not decodable): `where` names it. */
export function documentChanged(where: string, name: string): IntegrityError {
  return chainTampered(where, `the document ${name} no longer matches the SHA-256 its run's link in the hash chain names`);
}
