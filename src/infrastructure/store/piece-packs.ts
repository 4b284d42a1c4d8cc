import { hash } from 'node:crypto';
import {
  addPiece,
  BaseWindow,
  decodeSpans,
  encodeSpans,
  type KeptPiece,
  PIECE_MAX_BYTES,
  PieceCutter,
  type PieceSpan,
  readVarint,
  varint,
} from '../../domain/conmon/content-pieces';
import { collect, compressedPart, decompressedPart, once } from './compressed-documents';

/**
 * The pieces a run adds to a store (issue 35; content-pieces.ts): kept in the run's pack, numbered 0, 1, … in the
 * order they come, in frames of consecutive pieces compressed together. A frame holds each piece's length and key
 * uncompressed, so the next run looks its pieces up without decompressing them, and its bytes compressed (Brotli, as
 * compressed-documents.ts). The file store keeps a pack as one file, PostgreSQL a frame a row; both read and write
 * frames through what is here.
 *
 * A piece's key is the first PIECE_KEY_BYTES of the SHA-256 of the store's salt (random, made with the store) and the
 * piece. A piece is looked up only among the pieces of its document's earlier version (BaseWindow: tens of thousands
 * at most), so two different pieces share a key by chance about once in 10^10 runs; and since the salt is the
 * store's own, no one who writes a report can make a piece that matches another on purpose. A document's SHA-256 is
 * checked whenever it is read, so even a chance match would be reported as the run's tampering, never served.
 */
const PIECE_KEY_BYTES = 8;

/** A frame holds pieces until they come to this many bytes. */
const FRAME_BYTES = 256 * 1024;

/** A frame as stored: its first piece's number in the pack, each piece's length and key, and the pieces compressed. */
export interface PieceFrame {
  first: number;
  lengths: Uint8Array;
  keys: Uint8Array;
  bytes: Uint8Array;
}

/** Where a store's frames are: the frame of pack `pack` that holds piece `index`, or undefined when there is none. */
type FrameSource = (pack: number, index: number) => Promise<PieceFrame | undefined>;

/** The keys of a store's pieces: SHA-256 of its salt and the piece, the first PIECE_KEY_BYTES. */
export class PieceKeys {
  private scratch: Buffer;

  constructor(private readonly salt: Uint8Array) {
    this.scratch = Buffer.alloc(salt.length + PIECE_MAX_BYTES);
    this.scratch.set(salt, 0);
  }

  of(piece: Uint8Array): Buffer {
    if (this.salt.length + piece.length > this.scratch.length) {
      this.scratch = Buffer.alloc(this.salt.length + piece.length);
      this.scratch.set(this.salt, 0);
    }
    this.scratch.set(piece, this.salt.length);
    return hash('sha256', this.scratch.subarray(0, this.salt.length + piece.length), 'buffer').subarray(0, PIECE_KEY_BYTES);
  }
}

/** A kept piece as a key: its first 6 bytes as the number BaseWindow looks up, the last 2 (`check`) to confirm it. */
interface Keyed extends KeptPiece {
  check: number;
}

function keyed(key: Uint8Array, at: number, pack: number, index: number): Keyed {
  const bytes = Buffer.from(key.buffer, key.byteOffset + at, PIECE_KEY_BYTES);
  return { key: bytes.readUIntBE(0, 6), check: bytes.readUInt16BE(6), pack, index };
}

/** Each piece's length as varints. */
function encodeLengths(lengths: readonly number[]): Uint8Array {
  const out: number[] = [];
  for (const length of lengths) varint(out, length);
  return Uint8Array.from(out);
}

/** A frame as read: its pieces' offsets and keys checked, its bytes decompressed when first needed. */
class ReadFrame {
  readonly count: number;
  private readonly offsets: Uint32Array;
  private plain?: Buffer;

  constructor(
    readonly pack: number,
    private readonly frame: PieceFrame,
    private readonly undecodable: () => Error,
  ) {
    const at = { offset: 0 };
    const offsets: number[] = [0];
    while (at.offset < frame.lengths.length) {
      const length = readVarint(frame.lengths, at);
      if (length === undefined || length === 0) throw undecodable();
      offsets.push(offsets[offsets.length - 1] + length);
    }
    this.count = offsets.length - 1;
    if (this.count === 0 || frame.keys.length !== this.count * PIECE_KEY_BYTES || !Number.isSafeInteger(frame.first) || frame.first < 0) throw undecodable();
    this.offsets = Uint32Array.from(offsets);
  }

  get first(): number {
    return this.frame.first;
  }

  holds(pack: number, index: number): boolean {
    return pack === this.pack && index >= this.frame.first && index < this.frame.first + this.count;
  }

  /** Pieces `from` … `to - 1` (pack numbers) with their keys. */
  keyed(from: number, to: number): Keyed[] {
    const pieces: Keyed[] = [];
    for (let index = from; index < to; index += 1) pieces.push(keyed(this.frame.keys, (index - this.frame.first) * PIECE_KEY_BYTES, this.pack, index));
    return pieces;
  }

  /** Pieces `from` … `to - 1` (pack numbers), as one slice of the frame's bytes. */
  bytes(from: number, to: number): Buffer {
    if (this.plain === undefined) {
      const plain = decompressedPart(this.frame.bytes, this.undecodable);
      if (plain.length !== this.offsets[this.count]) throw this.undecodable();
      this.plain = plain;
    }
    return this.plain.subarray(this.offsets[from - this.frame.first], this.offsets[to - this.frame.first]);
  }
}

/**
 * How many frames a reader keeps, decoded once read (at most 64 MiB of pieces), and of one pack. A document of a year
 * of daily runs reads its pieces from the first run's pack and from a frame or two of each later run's, turn about,
 * and each pack's in order: the last frames of every pack it names are kept, so each is decompressed once (16 frames in
 * all had a run of 2,000 results on day 115 decompress each later run's frame again for nearly every piece of it:
 * 8.7 s where day 10 took 2.6). A few of one pack serve the few documents read at once; a first run, all of whose
 * documents are one pack, keeps no more than those.
 */
const FRAMES_KEPT = 256;
const FRAMES_KEPT_OF_PACK = 4;

/**
 * A store's frames as documents read them: a document's bytes from its piece list, and a base's pieces as a new
 * version of it is written. Keeps the last FRAMES_KEPT frames it read (a store's pack never changes once written).
 * `undecodable(pack)` is the error for a frame that is missing or not one svc wrote.
 */
export class PieceFrames {
  /** The frames kept, by pack. */
  private readonly kept = new Map<number, ReadFrame[]>();
  /** The same frames, the least recently used first. */
  private readonly recent = new Set<ReadFrame>();

  constructor(
    private readonly source: FrameSource,
    private readonly undecodable: (pack: number) => Error,
  ) {}

  /**
   * The bytes of a document of run `id` that `spans` lists (writeDocumentPieces): its pieces in order, the id
   * restored. `undecodable` is the error for pieces that are not a document svc tokenized.
   */
  document(spans: readonly PieceSpan[], id: string, undecodable: () => Error): AsyncGenerator<Uint8Array> {
    return restored(this.bytes(spans), id, undecodable);
  }

  /** The bytes of the pieces `spans` lists, in order, a frame's run of them at a time. */
  async *bytes(spans: readonly PieceSpan[]): AsyncGenerator<Uint8Array> {
    for await (const { frame, from, to } of this.runs(spans)) yield frame.bytes(from, to);
  }

  /**
   * The spans of a document's pieces from its stored piece list (writeDocumentPieces), a list kept as pieces read
   * first; a list svc did not write is what `undecodable` says.
   */
  async documentSpans(stored: Uint8Array, undecodable: () => Error): Promise<PieceSpan[]> {
    const list = decodeSpans(stored);
    if (list === undefined) throw undecodable();
    if (!list.ofList) return list.spans;
    const inner = decodeSpans(Buffer.concat(await collect(this.bytes(list.spans))));
    if (inner === undefined || inner.ofList) throw undecodable();
    return inner.spans;
  }

  /**
   * What a new version of a document is written against, from its earlier version's stored piece list: the spans of
   * its pieces and, for a list kept as pieces, of the list's. Undefined for no list, or one svc did not write (the
   * new version is then written whole; reading the earlier one names it).
   */
  async baseOf(stored: Uint8Array | undefined): Promise<DocumentBase | undefined> {
    const list = stored && decodeSpans(stored);
    if (!list) return undefined;
    if (!list.ofList) return { document: list.spans };
    try {
      return { document: await this.documentSpans(stored, () => new Error('not a list svc wrote')), list: list.spans };
    } catch {
      return undefined;
    }
  }

  /** The pieces `spans` lists with their keys, in order, a frame's run of them at a time. */
  async *keyed(spans: readonly PieceSpan[]): AsyncGenerator<Keyed[]> {
    for await (const { frame, from, to } of this.runs(spans)) yield frame.keyed(from, to);
  }

  /** The runs of pieces of one frame that `spans` lists, in order, each frame read as it is reached. */
  private async *runs(spans: readonly PieceSpan[]): AsyncGenerator<{ frame: ReadFrame; from: number; to: number }> {
    for (const { pack, first, count } of spans) {
      for (let index = first; index < first + count;) {
        const frame = await this.frame(pack, index);
        const to = Math.min(first + count, frame.first + frame.count);
        yield { frame, from: index, to };
        index = to;
      }
    }
  }

  private async frame(pack: number, index: number): Promise<ReadFrame> {
    const ofPack = this.kept.get(pack) ?? [];
    const at = ofPack.findIndex((frame) => frame.holds(pack, index));
    if (at >= 0) {
      const found = ofPack[at];
      ofPack.push(...ofPack.splice(at, 1));
      this.recent.delete(found);
      this.recent.add(found);
      return found;
    }
    const stored = await this.source(pack, index);
    if (stored === undefined) throw this.undecodable(pack);
    const frame = new ReadFrame(pack, stored, () => this.undecodable(pack));
    if (!frame.holds(pack, index)) throw this.undecodable(pack);
    this.keep(frame);
    return frame;
  }

  /** Keeps `frame`, the most recent; drops the least recent of its pack past FRAMES_KEPT_OF_PACK, of all past FRAMES_KEPT. */
  private keep(frame: ReadFrame): void {
    const ofPack = this.kept.get(frame.pack);
    if (ofPack === undefined) this.kept.set(frame.pack, [frame]);
    else {
      ofPack.push(frame);
      if (ofPack.length > FRAMES_KEPT_OF_PACK) this.recent.delete(ofPack.shift()!);
    }
    this.recent.add(frame);
    if (this.recent.size <= FRAMES_KEPT) return;
    const oldest = this.recent.values().next().value as ReadFrame;
    this.recent.delete(oldest);
    const itsPack = this.kept.get(oldest.pack)!;
    itsPack.splice(itsPack.indexOf(oldest), 1);
    if (itsPack.length === 0) this.kept.delete(oldest.pack);
  }
}

/**
 * The pieces a run adds, in its pack `pack`: numbered as they come and gathered into frames of about FRAME_BYTES, each
 * compressed (a few at once, on libuv's threads) and handed to `sink` in order. `pace` waits while more than
 * FRAMES_COMPRESSING frames are being compressed; `flush` seals the last frame and waits for all.
 */
export class PackWriter {
  private added = 0;
  private pieces: Uint8Array[] = [];
  private keys: Uint8Array[] = [];
  private lengths: number[] = [];
  private size = 0;
  /** The bytes of the frames sealed so far. */
  private compressed = 0;
  private readonly sealed: Promise<void>[] = [];
  private written: Promise<void> = Promise.resolve();
  private failed?: { error: unknown };

  constructor(
    readonly pack: number,
    private readonly sink: (frame: PieceFrame) => Promise<void>,
  ) {}

  /** How many pieces the pack holds. */
  get count(): number {
    return this.added;
  }

  /** Adds a piece (copied: it may be a slice of a chunk its caller reuses) with its key; returns its number in the pack. */
  add(piece: Uint8Array, key: Uint8Array): number {
    this.pieces.push(Buffer.from(piece));
    this.keys.push(key);
    this.lengths.push(piece.length);
    this.size += piece.length;
    this.added += 1;
    if (this.size >= FRAME_BYTES) this.seal();
    return this.added - 1;
  }

  /** Waits while more than FRAMES_COMPRESSING frames are being compressed or written. */
  async pace(): Promise<void> {
    while (this.sealed.length > FRAMES_COMPRESSING) await this.sealed.shift();
    this.check();
  }

  /** Seals the pieces added since the last frame and waits until every frame is handed to the sink. */
  async flush(): Promise<void> {
    this.seal();
    await this.written;
    this.sealed.length = 0;
    this.check();
  }

  /** Seals the pieces added since the last frame (a full one, writeDocumentPieces' `ownFrames`): the next starts one. */
  seal(): void {
    if (this.pieces.length === 0) return;
    const first = this.added - this.pieces.length;
    const lengths = encodeLengths(this.lengths);
    const keys = Buffer.concat(this.keys);
    // A daily run's few new pieces are compressed harder (about 14% smaller at 256 KiB, 40 ms per 3 MiB); a first
    // run's bulk, quickly (quality 5 costs ten times quality 1 and saves 5% of it).
    const compressing = compressedPart(Buffer.concat(this.pieces, this.size), this.compressed < CAREFUL_BYTES ? CAREFUL_QUALITY : undefined);
    this.compressed += this.size;
    this.pieces = [];
    this.keys = [];
    this.lengths = [];
    this.size = 0;
    // Written in order, each once it is compressed; a failure is kept and thrown by pace or flush (never unhandled).
    this.written = this.written
      .then(async () => {
        if (this.failed === undefined) await this.sink({ first, lengths, keys, bytes: await compressing });
      })
      .catch((error: unknown) => {
        this.failed ??= { error };
      });
    compressing.catch(() => undefined);
    this.sealed.push(this.written);
  }

  private check(): void {
    if (this.failed !== undefined) throw this.failed.error;
  }
}

/** A pack's first this many bytes of pieces are compressed at CAREFUL_QUALITY; the rest, at the store's quality 1. */
const CAREFUL_BYTES = 16 * 1024 * 1024;
const CAREFUL_QUALITY = 5;

/** How many frames a pack writer compresses at once: libuv's four threads. */
const FRAMES_COMPRESSING = 4;

/** What a new version of a document shares pieces with (PieceFrames.baseOf). */
export interface DocumentBase {
  document: PieceSpan[];
  list?: PieceSpan[];
}

/** A piece list of at most this many bytes is kept as it is; a longer one as pieces, shared with its base's. */
const DIRECT_LIST_BYTES = 1024;

/**
 * Writes a document of run `id` as pieces (writePieces) against `base`, and returns its piece list as the store keeps
 * it: the list itself, or, when long, the list of its own pieces (written against the base's list's).
 */
export async function writeDocumentPieces(
  chunks: AsyncIterable<Uint8Array>,
  id: string,
  pieces: RunPieces,
  base?: DocumentBase,
  options?: { ownFrames?: boolean },
): Promise<Uint8Array> {
  // A document read whole by what reads a year of runs (the evidence bundle) has frames of its own in every pack: on
  // day 366 it is read from 366 packs, and a frame shared with the documents after it made each pack decompress 256 KiB
  // for its 20 KB (80 ms of Brotli at 2,000 results). It stores no more: days 2-4 at 10,000 results, 0.2-3.6% less.
  if (options?.ownFrames) pieces.writer.seal();
  const list = encodeSpans(await writePieces(chunks, id, pieces, base?.document));
  if (options?.ownFrames) pieces.writer.seal();
  if (list.length <= DIRECT_LIST_BYTES) return list;
  return encodeSpans(await writePieces(once(list), undefined, pieces, base?.list), true);
}

/** What writing a run's pieces takes: its pack's writer, the store's frames (to read bases) and keys. */
export interface RunPieces {
  writer: PackWriter;
  frames: PieceFrames;
  keys: PieceKeys;
}

/** How many of a document's own new pieces are remembered, so one repeated within it is kept once. */
const RECENT_PIECES = 4096;

/**
 * Writes bytes as pieces (a document of run `id` with its id tokenized; a piece list as it is): each piece its base
 * (an earlier version's pieces, in order) has is named where it is, any other is added to the run's pack. Returns
 * the pieces' spans. Only reading the base's keys and pacing the pack wait; a piece itself is decided at once.
 */
async function writePieces(
  chunks: AsyncIterable<Uint8Array>,
  id: string | undefined,
  { writer, frames, keys }: RunPieces,
  base?: readonly PieceSpan[],
): Promise<PieceSpan[]> {
  const spans: PieceSpan[] = [];
  let count = 0;
  const window = new BaseWindow<Keyed>();
  const kept = base && frames.keyed(base)[Symbol.asyncIterator]();
  let keptEnded = kept === undefined;
  const recent = new Map<number, Keyed>();
  const reach = async (): Promise<void> => {
    while (!keptEnded && window.added < window.wanted(count)) {
      const next = await (kept as AsyncIterator<Keyed[]>).next();
      if (next.done) keptEnded = true;
      else for (const piece of next.value) window.add(piece);
    }
  };
  const put = (piece: Uint8Array): void => {
    const key = keys.of(piece);
    const wanted = keyed(key, 0, writer.pack, writer.count);
    count += 1;
    const shared = window.match(wanted.key);
    if (shared !== undefined && shared.check === wanted.check) return addPiece(spans, shared.pack, shared.index);
    const again = recent.get(wanted.key);
    if (again !== undefined && again.check === wanted.check) return addPiece(spans, again.pack, again.index);
    writer.add(piece, key);
    recent.set(wanted.key, wanted);
    if (recent.size > RECENT_PIECES) recent.delete(recent.keys().next().value as number);
    addPiece(spans, wanted.pack, wanted.index);
  };
  const cutter = new PieceCutter();
  try {
    for await (const chunk of id === undefined ? chunks : tokenized(chunks, id)) {
      for (const piece of cutter.push(chunk)) {
        if (!keptEnded && window.added < window.wanted(count)) await reach();
        put(piece);
      }
      await writer.pace();
    }
    for (const piece of cutter.end()) {
      await reach();
      put(piece);
    }
  } finally {
    await kept?.return?.(undefined);
  }
  return spans;
}

/**
 * A run's own id as a token in its documents' pieces: a document that names the run it belongs to (a POA&M item's
 * `last_run`, every day a new id) is cut and kept with each occurrence of the id as the two bytes 00 01, so the next
 * day's version, naming its own run, cuts the same pieces. A 00 byte of the document is kept as 00 00, so any bytes
 * (a binary index too) come back as they were: `restored` undoes `tokenized` with the same id.
 */
const ESCAPE = 0x00;
const TOKEN = 0x01;

/** The chunks with `id` tokenized, as they come; holds back at most the id's length less one byte between chunks. */
export async function* tokenized(chunks: AsyncIterable<Uint8Array>, id: string): AsyncGenerator<Uint8Array> {
  const needle = Buffer.from(id, 'latin1');
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const bytes = carry.length === 0 ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length) : Buffer.concat([carry, chunk]);
    const { out, rest } = tokenize(bytes, needle, false);
    carry = Buffer.from(rest);
    if (out.length > 0) yield out;
  }
  const { out } = tokenize(carry, needle, true);
  if (out.length > 0) yield out;
}

/** `bytes` tokenized up to where an id may begin that the next bytes end; `rest` is what is left (none at the end). */
function tokenize(bytes: Buffer, needle: Buffer, end: boolean): { out: Buffer; rest: Buffer } {
  const safe = end ? bytes.length : Math.max(0, bytes.length - needle.length + 1);
  const parts: Buffer[] = [];
  let from = 0;
  let zero = bytes.indexOf(ESCAPE, 0);
  let found = bytes.indexOf(needle, 0);
  for (;;) {
    const nextZero = zero >= 0 && zero < safe ? zero : -1;
    const nextId = found >= 0 && found < safe ? found : -1;
    if (nextZero < 0 && nextId < 0) break;
    if (nextId < 0 || (nextZero >= 0 && nextZero < nextId)) {
      parts.push(bytes.subarray(from, nextZero + 1), ESCAPED_ZERO);
      from = nextZero + 1;
      zero = bytes.indexOf(ESCAPE, from);
      // (the zero itself was pushed with the bytes before it; ESCAPED_ZERO is its second byte)
    } else {
      parts.push(bytes.subarray(from, nextId), ID_TOKEN);
      from = nextId + needle.length;
      found = bytes.indexOf(needle, from);
      if (zero >= 0 && zero < from) zero = bytes.indexOf(ESCAPE, from);
    }
  }
  const upTo = Math.max(from, safe);
  parts.push(bytes.subarray(from, upTo));
  return { out: parts.length === 1 ? parts[0] : Buffer.concat(parts), rest: bytes.subarray(upTo) };
}

const ESCAPED_ZERO = Buffer.from([ESCAPE]);
const ID_TOKEN = Buffer.from([ESCAPE, TOKEN]);

/**
 * Tokenized bytes as they were: 00 00 is a 00 byte, 00 01 the run's id. Bytes with any other 00 pair were not
 * tokenized by svc: `undecodable` says what.
 */
export async function* restored(chunks: AsyncIterable<Uint8Array>, id: string, undecodable: () => Error): AsyncGenerator<Uint8Array> {
  const needle = Buffer.from(id, 'latin1');
  let pending = false;
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const parts: Buffer[] = [];
    let from = 0;
    if (pending && bytes.length > 0) {
      parts.push(escaped(bytes[0], needle, undecodable));
      from = 1;
      pending = false;
    }
    for (let zero = bytes.indexOf(ESCAPE, from); zero >= 0; zero = bytes.indexOf(ESCAPE, from)) {
      parts.push(bytes.subarray(from, zero));
      if (zero + 1 === bytes.length) {
        pending = true;
        from = bytes.length;
        break;
      }
      parts.push(escaped(bytes[zero + 1], needle, undecodable));
      from = zero + 2;
    }
    parts.push(bytes.subarray(from));
    const out = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    if (out.length > 0) yield out;
  }
  if (pending) throw undecodable();
}

function escaped(byte: number, needle: Buffer, undecodable: () => Error): Buffer {
  if (byte === ESCAPE) return ESCAPED_ZERO;
  if (byte === TOKEN) return needle;
  throw undecodable();
}
