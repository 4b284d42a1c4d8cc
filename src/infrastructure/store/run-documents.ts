import { createHash, type Hash } from 'node:crypto';
import type { RunDocument } from '../../domain/conmon/run-record';
import { InvalidInputError } from '../../domain/errors';
import type { RunDocumentSource } from '../../ports/run-store';
import { chainTampered } from './run-chain';
import { noteStreamed } from '../runtime/collect-garbage';

/** A stored document's name: a plain lowercase file name, so every store can use it as a key or a file name as is. */
const DOCUMENT_NAME = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/** How many bytes a store writes or reads at a time. */
export const DOCUMENT_CHUNK_BYTES = 1 << 20;


/** Refuses a document list a store could not keep: names that are not plain or not unique (a bug of the caller). */
export function checkDocumentSources(sources: readonly RunDocumentSource[]): void {
  const seen = new Set<string>();
  for (const { name } of sources) {
    if (!DOCUMENT_NAME.test(name) || seen.has(name)) throw new InvalidInputError('bad-document-name', `${name}: not a fresh plain lowercase file name for a run document`);
    seen.add(name);
  }
}

/** The documents of a run in the order every store lists them: by name. */
export function byName(documents: RunDocument[]): RunDocument[] {
  return documents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The bytes of a source in pieces of at most DOCUMENT_CHUNK_BYTES (strings as UTF-8; small pieces gathered), and
 * when they are all through, `document()` gives its digest and size.
 */
export class DocumentBytes {
  private readonly hash: Hash = createHash('sha256');
  private size = 0;
  private finished = false;

  /** `before`: the documents of the run written before this one. */
  constructor(
    private readonly source: RunDocumentSource,
    private readonly before: readonly RunDocument[],
  ) {}

  async *chunks(): AsyncGenerator<Buffer> {
    const source = typeof this.source.chunks === 'function' ? this.source.chunks(this.before) : this.source.chunks;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const take = (): Buffer => {
      const out = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      this.hash.update(out);
      this.size += out.length;
      // A large run's documents pass gigabytes through V8 as short-lived pieces it would let pile up.
      noteStreamed(out.length);
      return out;
    };
    for await (const piece of source) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      for (let at = 0; at < bytes.length; ) {
        const n = Math.min(bytes.length - at, DOCUMENT_CHUNK_BYTES - pendingBytes);
        pending.push(bytes.subarray(at, at + n));
        pendingBytes += n;
        at += n;
        if (pendingBytes === DOCUMENT_CHUNK_BYTES) yield take();
      }
    }
    if (pendingBytes > 0) yield take();
    this.finished = true;
  }

  document(): RunDocument {
    if (!this.finished) throw new Error(`document ${this.source.name} was not read to its end`);
    return { name: this.source.name, media_type: this.source.media_type, sha256: this.hash.digest('hex'), bytes: this.size };
  }
}

/**
 * The stored bytes of `document` as read, passed on as they come; once they are through, a digest or size other than
 * the document's (which the hash chain vouches for) is run-store-tampered naming `where`.
 */
export async function* verifiedChunks(chunks: AsyncIterable<Uint8Array>, document: RunDocument, where: string): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.length;
    if (size > document.bytes) break;
    yield chunk;
  }
  if (size !== document.bytes || hash.digest('hex') !== document.sha256) {
    throw chainTampered(where, `the document ${document.name} no longer matches the SHA-256 its run's link in the hash chain names`);
  }
}
