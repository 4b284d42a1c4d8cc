/** The bytes of JSON's structure, as UTF-8 (every one is ASCII, so never part of a multi-byte character). */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

/** Where a byte stream is not the JSON the splitter expects: the byte offset and what was wrong. */
export class JsonSplitError extends Error {
  constructor(
    readonly offset: number,
    problem: string,
  ) {
    super(`byte ${offset}: ${problem}`);
  }
}

/**
 * The items of one JSON array read from a byte stream a chunk at a time, each item's text given whole as soon as it
 * ends, so a document of a million items is never one string. The stream must begin with `prefix` (e.g.
 * `{"entries":[`, the opening of the array, with no spaces inside it); `rest()` gives the text after the array's `]`.
 * Items are objects or arrays, split on their structure (strings, escapes, nesting), not validated: each is parsed by its reader, which
 * reports a malformed one. Memory: the chunk being read plus the item that crosses into it.
 */
export class JsonArrayItems {
  private readonly prefix: Uint8Array;
  private pending: Uint8Array = new Uint8Array(0);
  /** Offset in the stream of pending[0]. */
  private base = 0;
  /** Where scanning resumes in pending. */
  private at = 0;
  /** Start of the item being read in pending, or -1 between items. */
  private start = -1;
  private depth = 0;
  private inString = false;
  private closed = false;
  private expectItem = true;
  private sawItem = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(prefix: string) {
    this.prefix = new TextEncoder().encode(prefix);
  }

  /** The items that end in `chunk` (with what came before it), in order. */
  push(chunk: Uint8Array): string[] {
    this.append(chunk);
    const items: string[] = [];
    if (this.base === 0 && this.at === 0) {
      if (this.pending.length < this.prefix.length) return items;
      for (let i = 0; i < this.prefix.length; i++)
        if (this.pending[i] !== this.prefix[i]) throw new JsonSplitError(i, `expected the document to begin with ${new TextDecoder().decode(this.prefix)}`);
      this.at = this.prefix.length;
    }
    const bytes = this.pending;
    let i = this.at;
    while (i < bytes.length && !this.closed) {
      const c = bytes[i];
      if (this.inString) {
        const quote = bytes.indexOf(QUOTE, i);
        if (quote === -1) {
          i = bytes.length;
          break;
        }
        let backslashes = 0;
        while (quote - 1 - backslashes >= this.start && bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
        i = quote + 1;
        if (backslashes % 2 === 0) this.inString = false;
        continue;
      }
      if (this.start === -1) {
        // Between items: space, a comma, the closing bracket, or the opening of an item (an object or an array).
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i += 1;
        else if (c === COMMA && !this.expectItem) {
          this.expectItem = true;
          i += 1;
        } else if (c === CLOSE_ARRAY && (!this.expectItem || !this.sawItem)) {
          this.closed = true;
          i += 1;
        } else if (this.expectItem && (c === OPEN_OBJECT || c === OPEN_ARRAY)) {
          this.start = i;
          this.depth = 1;
          i += 1;
        } else
          throw new JsonSplitError(
            this.base + i,
            this.expectItem ? 'expected an object or an array as the next item' : 'expected "," or "]" after an array item',
          );
        continue;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.depth += 1;
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.depth -= 1;
        if (this.depth === 0) {
          items.push(this.text(this.start, i + 1));
          this.finishItem();
        }
      }
      i += 1;
    }
    this.at = i;
    this.compact();
    return items;
  }

  /** Whether the array's closing `]` has been read: push no more, take the bytes after it from remainder(). */
  get done(): boolean {
    return this.closed;
  }

  /** The bytes pushed after the array's `]`, once it has closed: the start of what follows it in the stream. */
  remainder(): Uint8Array {
    if (!this.closed) throw new JsonSplitError(this.base + this.pending.length, 'the array does not end');
    return this.pending.subarray(this.at);
  }

  /** The text after the array, once the stream has ended; throws when the array never closed. */
  rest(): string {
    if (!this.closed) throw new JsonSplitError(this.base + this.pending.length, 'the array does not end');
    return this.decoder.decode(this.pending.subarray(this.at));
  }

  private finishItem(): void {
    this.start = -1;
    this.expectItem = false;
    this.sawItem = true;
  }

  private text(from: number, to: number): string {
    try {
      return this.decoder.decode(this.pending.subarray(from, to));
    } catch {
      throw new JsonSplitError(this.base + from, 'an array item is not UTF-8');
    }
  }

  private append(chunk: Uint8Array): void {
    if (this.pending.length === 0) {
      this.pending = chunk;
      return;
    }
    const joined = new Uint8Array(this.pending.length + chunk.length);
    joined.set(this.pending, 0);
    joined.set(chunk, this.pending.length);
    this.pending = joined;
  }

  /** Drops the bytes before the item being read (or before the scan position between items). */
  private compact(): void {
    if (this.closed) return;
    const keep = this.start === -1 ? this.at : this.start;
    if (keep === 0) return;
    this.pending = this.pending.subarray(keep);
    this.base += keep;
    this.at -= keep;
    if (this.start !== -1) this.start = 0;
  }
}
