/**
 * A stored document as content-defined pieces (issue 35): the run stores cut what a run stores into pieces of about
 * half a KiB where its content says (FastCDC), so two days of a daily report cut the same bytes at the same places
 * wherever they sit, and a run keeps only the pieces no earlier run of its source kept, and for each document the
 * list of the pieces it is made of (`PieceSpan`s, below). Pure: the stores hash, compress and keep the pieces.
 *
 * The cut is FastCDC (Xia et al., USENIX ATC 2016) with normalized chunking: a gear hash over the bytes since the
 * piece began, tested against a stricter mask before the normal size and a looser one after, between a minimum and a
 * maximum size. The masks are in the hash's high bits: a 32-bit gear hash shifts each byte's bits up one place per
 * byte, so its low bits depend on the last few bytes only, and JSON repeats the same few bytes (`"},{"`) everywhere.
 * Where pieces are cut decides only how much two runs share, never what is read back: a document is verified by its
 * digest whatever its pieces.
 */

/** No piece is shorter (but a document's last), none longer. */
export const PIECE_MIN_BYTES = 256;
const PIECE_NORMAL_BYTES = 512;
export const PIECE_MAX_BYTES = 4096;

/** 10 high bits before the normal size (a cut in 1,024 bytes), 8 after (one in 256). */
const MASK_STRICT = 0xffc00000;
const MASK_LOOSE = 0xff000000;

/** The gear table: 256 fixed pseudo-random words (splitmix32 from a fixed seed), the same in every svc. */
const GEAR: Uint32Array = (() => {
  const table = new Uint32Array(256);
  let state = 0x5356_4331; // "SVC1"
  for (let i = 0; i < 256; i += 1) {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    table[i] = (z ^ (z >>> 16)) >>> 0;
  }
  return table;
})();

/**
 * Where the piece that begins at `start` of `bytes` ends: the index after its last byte, or undefined when `bytes`
 * ends before its cut is known (more bytes may follow).
 */
function cutOf(bytes: Uint8Array, start: number): number | undefined {
  const available = bytes.length - start;
  if (available < PIECE_MIN_BYTES) return undefined;
  const max = start + Math.min(available, PIECE_MAX_BYTES);
  const normal = Math.min(start + PIECE_NORMAL_BYTES, max);
  let hash = 0;
  let i = start + PIECE_MIN_BYTES;
  for (; i < normal; i += 1) {
    hash = ((hash << 1) + GEAR[bytes[i]]) >>> 0;
    if ((hash & MASK_STRICT) === 0) return i + 1;
  }
  for (; i < max; i += 1) {
    hash = ((hash << 1) + GEAR[bytes[i]]) >>> 0;
    if ((hash & MASK_LOOSE) === 0) return i + 1;
  }
  return available >= PIECE_MAX_BYTES ? max : undefined;
}

/**
 * Cuts bytes that come in chunks into pieces, as cutting them whole would: `push` returns the pieces each chunk
 * completes, `end` the rest. Holds at most one piece's bytes between chunks.
 */
export class PieceCutter {
  private pending: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): Uint8Array[] {
    const bytes = this.pending.length === 0 ? chunk : concat(this.pending, chunk);
    const pieces: Uint8Array[] = [];
    let start = 0;
    for (let end = cutOf(bytes, start); end !== undefined; end = cutOf(bytes, start)) {
      pieces.push(bytes.subarray(start, end));
      start = end;
    }
    // What is left is copied: the chunk it is part of may be a large buffer the caller reuses or drops.
    this.pending = bytes.slice(start);
    return pieces;
  }

  end(): Uint8Array[] {
    const rest = this.pending;
    this.pending = new Uint8Array(0);
    return rest.length === 0 ? [] : [rest];
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(a.length + b.length);
  both.set(a, 0);
  both.set(b, a.length);
  return both;
}

/**
 * Pieces `first` … `first + count - 1` of pack `pack`, in order. A store numbers the pieces a run adds 0, 1, … in its
 * pack (the run's seq): a document is the pieces of its spans, in order, and an unchanged document one span.
 */
export interface PieceSpan {
  pack: number;
  first: number;
  count: number;
}

/** Adds piece `index` of pack `pack` to the end of a piece list, joined to its last span when it follows it. */
export function addPiece(spans: PieceSpan[], pack: number, index: number): void {
  const last = spans.at(-1);
  if (last !== undefined && last.pack === pack && last.first + last.count === index) last.count += 1;
  else spans.push({ pack, first: index, count: 1 });
}

/** Leads an encoded piece list: "SVCP", then 1 for a list of the document's pieces, 2 for one of its list's pieces. */
const SPANS_MAGIC = [0x53, 0x56, 0x43, 0x50];
const OF_DOCUMENT = 1;
const OF_LIST = 2;

/**
 * A stored piece list: the spans of the document's pieces, or (`ofList`) of the pieces of that list's own bytes.
 * A large document that changes a little every day has a list that does too: kept as pieces, it shares them.
 */
export interface PieceList {
  spans: PieceSpan[];
  ofList: boolean;
}

/**
 * A piece list as bytes: the magic, then per span its pack as a zigzag varint of its difference from the span
 * before's, its first piece as one of its difference from the piece after the last span of the same pack (0 for the
 * pack's first span), and its count as a varint. A document that changed in a hundred places since its base is a few
 * hundred bytes: each of its spans of the base's pieces goes on where the one before it in that pack ended.
 */
export function encodeSpans(spans: readonly PieceSpan[], ofList = false): Uint8Array {
  const out: number[] = [...SPANS_MAGIC, ofList ? OF_LIST : OF_DOCUMENT];
  const next = new Map<number, number>();
  let pack = 0;
  for (const span of spans) {
    if (!isCount(span.pack) || !isCount(span.first) || !isCount(span.count) || span.count === 0)
      throw new RangeError(`not a piece span: ${JSON.stringify(span)}`);
    varint(out, zigzag(span.pack - pack));
    varint(out, zigzag(span.first - (next.get(span.pack) ?? 0)));
    varint(out, span.count);
    pack = span.pack;
    next.set(pack, span.first + span.count);
  }
  return Uint8Array.from(out);
}

/** The list `encodeSpans` wrote; undefined for bytes it did not write (so the store can name the file). */
export function decodeSpans(bytes: Uint8Array): PieceList | undefined {
  if (bytes.length <= SPANS_MAGIC.length || SPANS_MAGIC.some((b, i) => bytes[i] !== b)) return undefined;
  const of = bytes[SPANS_MAGIC.length];
  if (of !== OF_DOCUMENT && of !== OF_LIST) return undefined;
  const spans: PieceSpan[] = [];
  const at = { offset: SPANS_MAGIC.length + 1 };
  const next = new Map<number, number>();
  let pack = 0;
  while (at.offset < bytes.length) {
    const packDelta = readVarint(bytes, at);
    const firstDelta = readVarint(bytes, at);
    const count = readVarint(bytes, at);
    if (packDelta === undefined || firstDelta === undefined || count === undefined || count === 0) return undefined;
    pack += unzigzag(packDelta);
    const first = (next.get(pack) ?? 0) + unzigzag(firstDelta);
    if (!isCount(pack) || !isCount(first)) return undefined;
    spans.push({ pack, first, count });
    next.set(pack, first + count);
  }
  return { spans, ofList: of === OF_LIST };
}

function isCount(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1;
}

function unzigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

/** Appends `n` (a safe non-negative integer) as an unsigned LEB128 varint. */
export function varint(out: number[], n: number): void {
  let rest = n;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** The varint at `at.offset`, which it moves past it; undefined when the bytes end inside one or it is not safe. */
export function readVarint(bytes: Uint8Array, at: { offset: number }): number | undefined {
  let value = 0;
  let scale = 1;
  for (let i = at.offset; i < bytes.length; i += 1) {
    const byte = bytes[i];
    value += (byte & 0x7f) * scale;
    if (!Number.isSafeInteger(value)) return undefined;
    if (byte < 0x80) {
      at.offset = i + 1;
      return value;
    }
    scale *= 0x80;
  }
  return undefined;
}

/** A piece an earlier run kept: its key (a number made of a prefix of its hash, as the store keeps it) and where it is. */
export interface KeptPiece {
  key: number;
  pack: number;
  index: number;
}

/**
 * The pieces of a document's earlier version (its base) that a new version may share, as a window that moves along
 * both: the new version's pieces are looked up among the base's within `reach` pieces of where they are matching, so
 * what is held is bounded (2·reach pieces) however large the document. A document written in the same order every
 * day (svc's are: by KSI, by result) changes in place, and each change moves the window by its own size only; content
 * moved further than `reach` is kept again, which costs bytes, never correctness. A piece the base holds more than
 * once (JSON repeats itself) matches its nearest copy at or after where matching is, so it does not drag the window
 * ahead of the document.
 */
export class BaseWindow<Piece extends KeptPiece = KeptPiece> {
  /** Each key's copies in the window, in base order (`from` is the first still in it). */
  private readonly byKey = new Map<number, { copies: { piece: Piece; position: number }[]; from: number }>();
  private readonly order: number[] = [];
  /** The position of order[0], and of the first piece still in the window. */
  private first = 0;
  private evicted = 0;
  private loaded = 0;
  private cursor = 0;

  constructor(private readonly reach = 16_384) {}

  /** How many of the base's pieces should be added (in order) before the new piece at `position` is matched. */
  wanted(position: number): number {
    return Math.max(this.cursor, position) + this.reach;
  }

  /** The number of base pieces added so far. */
  get added(): number {
    return this.loaded;
  }

  /** Adds the base's next piece; the oldest beyond 2·reach behind it leaves the window. */
  add(piece: Piece): void {
    const position = this.loaded;
    this.loaded += 1;
    const held = this.byKey.get(piece.key);
    if (held === undefined) this.byKey.set(piece.key, { copies: [{ piece, position }], from: 0 });
    else held.copies.push({ piece, position });
    this.order.push(piece.key);
    for (; this.loaded - this.evicted > 2 * this.reach; this.evicted += 1) {
      const key = this.order[this.evicted - this.first];
      const copies = this.byKey.get(key) as { copies: { position: number }[]; from: number };
      copies.from += 1;
      if (copies.from === copies.copies.length) this.byKey.delete(key);
      else if (copies.from > 64 && copies.from * 2 > copies.copies.length) {
        copies.copies.splice(0, copies.from);
        copies.from = 0;
      }
    }
    // The keys that left are dropped from `order` in batches (an array's shift moves every element).
    if (this.evicted - this.first > this.reach) {
      this.order.splice(0, this.evicted - this.first);
      this.first = this.evicted;
    }
  }

  /**
   * The base's piece with `key` within the window: its first copy at or after where matching is, which then moves
   * past it, else its last copy before (the window stays); undefined when there is none.
   */
  match(key: number): Piece | undefined {
    const held = this.byKey.get(key);
    if (held === undefined) return undefined;
    const { copies } = held;
    let low = held.from;
    let high = copies.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (copies[middle].position < this.cursor) low = middle + 1;
      else high = middle;
    }
    if (low === copies.length) return copies[copies.length - 1].piece;
    this.cursor = copies[low].position + 1;
    return copies[low].piece;
  }
}

/** Leads a run's piece lists kept together: "SVCL" and format 1. */
const LISTS_MAGIC = [0x53, 0x56, 0x43, 0x4c, 1];

/**
 * A run's piece lists, by document name, as one value: the magic, then per document its name's length and name
 * (names are plain ASCII: stored-documents.ts) and its list's length and list, as varints and bytes. A store that keeps
 * a row per document (PostgreSQL) keeps a run's lists in one row instead: a daily run of hundreds of documents then
 * adds one row, not hundreds.
 */
export function encodeNamedLists(lists: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const out: number[] = [...LISTS_MAGIC];
  for (const [name, list] of lists) {
    varint(out, name.length);
    for (let i = 0; i < name.length; i += 1) out.push(name.charCodeAt(i) & 0x7f);
    varint(out, list.length);
    for (const byte of list) out.push(byte);
  }
  return Uint8Array.from(out);
}

/** The lists encodeNamedLists wrote; undefined for bytes it did not write. */
export function decodeNamedLists(bytes: Uint8Array): Map<string, Uint8Array> | undefined {
  if (bytes.length < LISTS_MAGIC.length || LISTS_MAGIC.some((b, i) => bytes[i] !== b)) return undefined;
  const lists = new Map<string, Uint8Array>();
  const at = { offset: LISTS_MAGIC.length };
  while (at.offset < bytes.length) {
    const nameLength = readVarint(bytes, at);
    if (nameLength === undefined || at.offset + nameLength > bytes.length) return undefined;
    const name = String.fromCharCode(...bytes.subarray(at.offset, at.offset + nameLength));
    at.offset += nameLength;
    const length = readVarint(bytes, at);
    if (length === undefined || at.offset + length > bytes.length) return undefined;
    lists.set(name, bytes.slice(at.offset, at.offset + length));
    at.offset += length;
  }
  return lists;
}
