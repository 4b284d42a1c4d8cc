import { pipeline, Readable, type Transform } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants, createBrotliCompress, createBrotliDecompress } from 'node:zlib';
import { DOCUMENT_CHUNK_BYTES } from '../../domain/conmon/stored-documents';

/**
 * A run's documents and state as the run stores keep them (issue 35): compressed with Brotli, in the file store as
 * `<name>.br` (`documents/<id>/sar.json.br`, `states/<seq>-<id>.json.br`), in PostgreSQL part by part. A year of daily
 * runs is mostly JSON that compresses about 8 to 1 (the SAR, the POA&M, pages): quality 1, the fastest, already does
 * (about 230 MB/s a core here; quality 4 gains a sixth for a quarter of the speed). What a store hashes, lists and
 * serves is the document's own bytes, as before; only what it keeps is smaller. What a store kept before is plain,
 * and read as it is (the file store converts it: FileRunStore).
 */
export const COMPRESSED_SUFFIX = '.br';

/** The file a document is kept in, compressed. */
export function compressedFile(name: string): string {
  return `${name}${COMPRESSED_SUFFIX}`;
}

/** The file a document's piece list is kept in (piece-packs.ts): its bytes are pieces of the store's packs. */
const PIECES_SUFFIX = '.pieces';

export function piecesFile(name: string): string {
  return `${name}${PIECES_SUFFIX}`;
}

/** The document a file of a run's documents directory holds: `<name>.br`, `<name>.pieces` or a plain `<name>`. */
export function documentOfFile(file: string): string {
  for (const suffix of [COMPRESSED_SUFFIX, PIECES_SUFFIX]) if (file.endsWith(suffix)) return file.slice(0, -suffix.length);
  return file;
}

/** Quality 1, the fastest; a 4 MiB window, which a part of a MiB or a large JSON document fills. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 22 } };

/**
 * The document's bytes as they come, compressed: one of at most DOCUMENT_CHUNK_BYTES (most of a run's documents: graphs,
 * pages, indexes, counts) at once, sized to it; a larger one as it goes. A stream's window costs more to set up than a
 * small document costs to compress (a run of 2,000 results: 0.55 s streaming every document, 0.16 s so).
 */
export async function* compressed(chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  const first: Uint8Array[] = [];
  let size = 0;
  const iterator = (Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]()) as
    AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array>;
  for (;;) {
    const next = await iterator.next();
    if (next.done) {
      const whole = Buffer.concat(first, size);
      return yield await compress(whole, { params: { ...BROTLI.params, [constants.BROTLI_PARAM_SIZE_HINT]: whole.length } });
    }
    const piece = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value;
    first.push(piece);
    size += piece.length;
    if (size > DOCUMENT_CHUNK_BYTES) break;
  }
  async function* all(): AsyncGenerator<string | Uint8Array> {
    yield* first;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  yield* flowing(Readable.from(all(), { objectMode: false }), createBrotliCompress(BROTLI));
}

const compress = promisify(brotliCompress);

/**
 * One part of a document (at most DOCUMENT_CHUNK_BYTES), compressed on its own, at the store's quality unless told: PostgreSQL
 * keeps a document as parts, each compressed so (`encoding` 'br'), which TOAST does not compress again (its own
 * compression does about half as well); a pack's frames are such parts.
 */
export function compressedPart(bytes: Uint8Array, quality: number = BROTLI.params[constants.BROTLI_PARAM_QUALITY]): Promise<Buffer> {
  return compress(bytes, { params: { ...BROTLI.params, [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
}

/** A part compressedPart made, decompressed; bytes that are not such a part are what `undecodable` says. */
export function decompressedPart(bytes: Uint8Array, undecodable: () => Error): Buffer {
  try {
    const plain = decompressedWhole(bytes, DOCUMENT_CHUNK_BYTES);
    if (plain !== undefined) return plain;
  } catch (error) {
    if (!(error instanceof CorruptCompression)) throw error;
  }
  throw undecodable();
}

/** A compressed file's bytes as they are read, decompressed; bytes that are not Brotli fail as CorruptCompression. */
export async function* decompressed(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const source = Readable.from(chunks, { objectMode: false });
  const transform = createBrotliDecompress();
  let sourceFailed = false;
  source.once('error', () => (sourceFailed = true));
  try {
    yield* flowing(source, transform);
  } catch (error) {
    if (sourceFailed) throw error;
    throw new CorruptCompression((error as Error).message);
  }
}

/** A compressed file this small is decompressed at once: most of a run's files are (KSI counts, graphs, indexes). */
export const WHOLE_COMPRESSED_BYTES = 64 * 1024;

/**
 * A small compressed file's bytes decompressed at once, up to `limit` bytes out; undefined when they come to more
 * (then they are decompressed as they are read). Bytes that are not Brotli fail as CorruptCompression.
 */
export function decompressedWhole(bytes: Uint8Array, limit: number): Buffer | undefined {
  try {
    return brotliDecompressSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
    throw new CorruptCompression((error as Error).message);
  }
}

/** What a file the store compressed no longer decompresses to: it was changed or cut. */
export class CorruptCompression extends Error {}

/** `source` through `transform`, a buffer at a time; an error of either is thrown, and stopping early closes both. */
async function* flowing(source: Readable, transform: Transform): AsyncGenerator<Uint8Array> {
  pipeline(source, transform, () => undefined);
  try {
    for await (const piece of transform) yield piece as Buffer;
  } finally {
    source.destroy();
    transform.destroy();
  }
}

/** Bytes as a stream of one chunk. */
export async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** A stream's chunks, all of them (a small document, a state part, a list). */
export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const all: Uint8Array[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}
