import { InvalidInputError } from '../errors';

/**
 * An array whose items are produced only while it is written: a document holding one per growing list (one
 * observation per result, ...) never holds those items as objects, nor their text as one string.
 * `produce` is called each time the array is read, so the same document can be written twice.
 */
export class LazyArray<T = unknown> implements Iterable<T> {
  constructor(private readonly produce: () => Iterable<T>) {}

  [Symbol.iterator](): Iterator<T> {
    return this.produce()[Symbol.iterator]();
  }

  /**
   * JSON.stringify and the `canonicalize` package write the items as an array, so a document that reaches a
   * one-string serializer is still written right (at the memory cost this class exists to avoid).
   */
  toJSON(): T[] {
    return [...this];
  }
}

export function lazyArray<T>(produce: () => Iterable<T>): LazyArray<T> {
  return new LazyArray(produce);
}

/** `canonical`: RFC 8785 (JCS); `pretty`: exactly what JSON.stringify(value, null, 2) writes. */
export type JsonForm = 'canonical' | 'pretty';

/**
 * Pieces of about this many UTF-16 code units: 256 to 768 KiB of UTF-8 (plus the item that crossed the mark), so a
 * piece usually fits the artifact sink's 1 MiB buffer and is encoded straight into it.
 */
export const DEFAULT_CHUNK_CHARS = 256 * 1024;

/**
 * The text of a JSON value in pieces of at least `chunkChars` code units (the last may be shorter): LazyArrays are
 * read item by item, so the extra memory is one piece plus one item. `canonical` is RFC 8785: keys sorted by UTF-16
 * code units at every level, strings and numbers as JSON.stringify writes them (which is what RFC 8785 specifies),
 * NaN and Infinity refused with InvalidInputError; `pretty` is JSON.stringify(value, null, 2), insertion order.
 */
export function* jsonChunks(value: unknown, form: JsonForm, chunkChars = DEFAULT_CHUNK_CHARS): Generator<string, void, undefined> {
  const writer = new ChunkWriter(form === 'canonical', chunkChars);
  const root = prepare(value, '');
  if (isAbsent(root)) throw notJson(form === 'canonical', `${typeof root} is not a JSON value`);
  yield* writer.value(root, '');
  if (writer.text !== '') yield writer.text;
}

/** The whole text at once, for documents known to be small. */
export function jsonText(value: unknown, form: JsonForm): string {
  let text = '';
  for (const chunk of jsonChunks(value, form)) text += chunk;
  return text;
}

/**
 * A copy of `value` with every LazyArray read into an array, for a consumer that needs the document as objects
 * (a schema validator, a test). It holds the whole document: keep it to small runs.
 */
export function materialize<T>(value: T): T {
  if (value instanceof LazyArray) return [...value].map(materialize) as T;
  if (Array.isArray(value)) return value.map(materialize) as T;
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // An own "__proto__" member (JSON.parse makes them) must stay a member, not become the prototype.
      if (key === '__proto__') Object.defineProperty(copy, key, { value: materialize(value[key]), enumerable: true, writable: true, configurable: true });
      else copy[key] = materialize(value[key]);
    }
    return copy as T;
  }
  return value;
}

/**
 * Thrown by the one-string writer when it meets a LazyArray, or an array of more than WHOLE_ITEMS_MAX items: the
 * enclosing value is then written piece by piece, so a long list (a run's POA&M items, its events) is never one string.
 */
class Piecewise {}
const PIECEWISE = new Piecewise();
const WHOLE_ITEMS_MAX = 256;

class ChunkWriter {
  text = '';

  constructor(
    private readonly canonical: boolean,
    private readonly chunkChars: number,
  ) {}

  /** Writes a present value (see prepare); pieces are yielded between values, never inside a string. */
  *value(value: unknown, indent: string): Generator<string, void, undefined> {
    if (value instanceof LazyArray) {
      yield* this.items(value, indent);
      return;
    }
    let whole: string | undefined;
    try {
      whole = this.whole(value, indent);
    } catch (error) {
      if (error !== PIECEWISE) throw error;
    }
    if (whole !== undefined) {
      this.text += whole;
      if (this.text.length >= this.chunkChars) yield this.flush();
    } else if (Array.isArray(value)) {
      yield* this.items(value, indent);
    } else {
      yield* this.members(value as Record<string, unknown>, indent);
    }
  }

  private *items(items: Iterable<unknown>, indent: string): Generator<string, void, undefined> {
    const inner = this.canonical ? '' : `${indent}  `;
    let index = 0;
    for (const raw of items) {
      const item = prepare(raw, String(index));
      this.text += index === 0 ? (this.canonical ? '[' : `[\n${inner}`) : this.canonical ? ',' : `,\n${inner}`;
      if (isAbsent(item)) this.text += 'null';
      else yield* this.value(item, inner);
      index++;
    }
    this.text += index === 0 ? '[]' : this.canonical ? ']' : `\n${indent}]`;
  }

  private *members(record: Record<string, unknown>, indent: string): Generator<string, void, undefined> {
    const inner = this.canonical ? '' : `${indent}  `;
    const keys = this.keysOf(record);
    let written = 0;
    for (const key of keys) {
      const member = prepare(record[key], key);
      if (isAbsent(member)) continue;
      this.text += `${written === 0 ? '{' : ','}${this.canonical ? '' : `\n${inner}`}${JSON.stringify(key)}${this.canonical ? ':' : ': '}`;
      yield* this.value(member, inner);
      written++;
    }
    this.text += written === 0 ? '{}' : this.canonical ? '}' : `\n${indent}}`;
  }

  /**
   * The text of a value holding no LazyArray and no long array, built as one string; else throws PIECEWISE. A
   * canonical value of plain JSON is JSON.stringify's text of its sortedCopy, written natively (twice as fast as
   * member by member: an OSCAL document of a million results writes millions of small objects).
   */
  private whole(value: unknown, indent: string): string {
    if (value === null) return 'null';
    if (this.canonical && typeof value === 'object') {
      const sorted = sortedCopy(value, WHOLE_ITEMS_MAX);
      if (sorted !== undefined) return JSON.stringify(sorted);
    }
    switch (typeof value) {
      case 'string':
        return JSON.stringify(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'number':
        return this.number(value);
      case 'bigint':
        throw notJson(this.canonical, 'a BigInt is not a JSON value');
      default:
        break;
    }
    if (value instanceof LazyArray || (Array.isArray(value) && value.length > WHOLE_ITEMS_MAX)) throw PIECEWISE;
    const inner = this.canonical ? '' : `${indent}  `;
    if (Array.isArray(value)) {
      if (value.length === 0) return '[]';
      let text = this.canonical ? '[' : `[\n${inner}`;
      for (let i = 0; i < value.length; i++) {
        const item = prepare(value[i], String(i));
        if (i > 0) text += this.canonical ? ',' : `,\n${inner}`;
        text += isAbsent(item) ? 'null' : this.whole(item, inner);
      }
      return text + (this.canonical ? ']' : `\n${indent}]`);
    }
    const record = value as Record<string, unknown>;
    let text = '';
    for (const key of this.keysOf(record)) {
      const member = prepare(record[key], key);
      if (isAbsent(member)) continue;
      text += `${text === '' ? '{' : ','}${this.canonical ? '' : `\n${inner}`}${JSON.stringify(key)}${this.canonical ? ':' : ': '}${this.whole(member, inner)}`;
    }
    return text === '' ? '{}' : text + (this.canonical ? '}' : `\n${indent}}`);
  }

  private number(value: number): string {
    if (Number.isFinite(value)) return JSON.stringify(value);
    // RFC 8785 has no form for them; JSON.stringify writes null.
    if (this.canonical) throw notJson(true, Number.isNaN(value) ? 'NaN is not allowed' : 'Infinity is not allowed');
    return 'null';
  }

  /** Own enumerable keys: in insertion order (JSON.stringify), or sorted by UTF-16 code units (RFC 8785 §3.2.3). */
  private keysOf(record: Record<string, unknown>): string[] {
    const keys = Object.keys(record);
    return this.canonical ? keys.sort() : keys;
  }

  flush(): string {
    const text = this.text;
    this.text = '';
    return text;
  }
}

/**
 * Whether `value` is plain JSON whose object keys are in UTF-16 code-unit order at every level (checked without
 * allocating), and no array of it is longer than `maxItems`: then JSON.stringify writes its RFC 8785 text, since
 * RFC 8785 writes strings and numbers as JSON.stringify does. Anything else (a toJSON, NaN, undefined, a key out of
 * order, an array index key) is false, for the member-by-member writers to decide.
 */
export function isOrderedJson(value: unknown, maxItems = Infinity): boolean {
  if (typeof value !== 'object' || value === null) return isPlainJsonScalar(value);
  if (Array.isArray(value)) {
    if (value.length > maxItems) return false;
    for (let i = 0; i < value.length; i++) if (!isOrderedJson(value[i], maxItems)) return false;
    return true;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    if (!isOrderedJson((value as Record<string, unknown>)[key], maxItems)) return false;
  }
  return true;
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/**
 * A copy of `value` with every object's keys inserted in UTF-16 code-unit order (Array.prototype.sort's order), so
 * JSON.stringify of it is the RFC 8785 text; or undefined when `value` is not plain JSON that JSON.stringify writes as
 * RFC 8785 does: a toJSON, a value JSON has no text for (undefined, a function, a symbol, a BigInt), a non-finite
 * number, an array longer than `maxItems`, an array-index key (JavaScript enumerates those first, in numeric order) or
 * an own `__proto__` key. Those are for the member-by-member writers (or a library) to decide.
 */
export function sortedCopy(value: unknown, maxItems = Infinity): unknown {
  if (typeof value !== 'object' || value === null) return isPlainJsonScalar(value) ? value : undefined;
  if (Array.isArray(value)) {
    if (value.length > maxItems) return undefined;
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) if ((copy[i] = sortedCopy(value[i], maxItems)) === undefined) return undefined;
    return copy;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const keys = Object.keys(value).sort();
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === '__proto__' || ARRAY_INDEX.test(key)) return undefined;
    if ((copy[key] = sortedCopy((value as Record<string, unknown>)[key], maxItems)) === undefined) return undefined;
  }
  return copy;
}

/** A string, a boolean, null or a finite number: a JSON scalar written as JSON.stringify writes it. */
export function isPlainJsonScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isFinite(value));
}

/** What JSON.stringify writes in place of a value: its toJSON(key) result (a LazyArray stays itself). */
function prepare(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && !(value instanceof LazyArray) && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  return value;
}

/** Values JSON has no text for: left out of objects, null in arrays (as JSON.stringify and RFC 8785's reference code do). */
function isAbsent(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The error Hashing.canonicalize throws for the same value (the message names the `canonicalize` package's words). */
function notJson(canonical: boolean, problem: string): InvalidInputError {
  return new InvalidInputError('not-json-value', `cannot write a ${canonical ? 'canonical ' : ''}JSON form: ${problem}`);
}
