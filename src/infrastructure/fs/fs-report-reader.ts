import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import type { ParseError } from 'jsonc-parser';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';
import { InvalidInputError } from '../../domain/errors';
import { CLOSE_ARRAY, CLOSE_OBJECT, JsonArrayItems, JsonSplitError, OPEN_ARRAY } from '../../domain/encoding/json-array-items';
import type { ItemizedReport, LoadedDocument, LoadedText, PartitionedReport, PathKind, ReportReader } from '../../ports/report-reader';
import { WorkerPart } from '../parallel/worker-part';
import { translateFsError } from './fs-errors';
import { noteStreamed } from '../runtime/collect-garbage';
import { lastByte, resultsArrayOpen, skipSpace, splitReport } from './report-splitter';

/** V8 cannot hold a longer string, so one JSON document can be at most this large. */
const MAX_JSON_BYTES = 0x1fffffe8;

/** How much of a report readItems reads at a time. */
const ITEM_CHUNK_BYTES = 1 << 20;
/** readItems looks this far for the results array (the report-level fields before it), and this far back for its end. */
const MAX_HEAD_BYTES = 16 * 2 ** 20;
const TAIL_BYTES = 4096;

/** The compiled worker that holds a later part of a report (absent when running from TypeScript sources). */
const PART_WORKER = join(__dirname, '..', 'parallel', 'part-worker.js');

export interface ReaderOptions {
  /** Reports at least this large are read in parts (SVC_SPLIT_MIN_BYTES). */
  splitMinBytes?: number;
  /** Threads to read with, the main one included: 2 when there are cores to spare (the default), else 1. */
  threads?: number;
}

/**
 * Reads JSON files whole: one read, one digest of the bytes, one JSON.parse (V8's parser is the fastest here).
 * A large report is read in parts: the bytes go into shared memory, a worker thread parses the second half
 * while this thread parses the first, and each part then renders its own results (ports/report-reader.ts).
 */
export class FsReportReader implements ReportReader {
  private readonly splitMinBytes: number;
  private readonly threads: number;

  constructor(options: ReaderOptions = {}) {
    this.splitMinBytes = options.splitMinBytes ?? 32 * 2 ** 20;
    this.threads = Math.min(2, options.threads ?? availableParallelism());
  }

  async read(path: string, options: { keepText?: boolean } = {}): Promise<LoadedDocument> {
    const { bytes, size } = await this.bytesOf(path);
    const document = loaded(path, bytes, size);
    return options.keepText ? { ...document, text: bytes.toString('utf8', bomLength(bytes)) } : document;
  }

  async readText(dir: string, member?: string): Promise<LoadedText> {
    const path = member === undefined ? dir : join(dir, member);
    const { bytes, size } = await this.bytesOf(path);
    return { name: basename(path), path, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: size, text: bytes.toString('utf8', bomLength(bytes)) };
  }

  private async bytesOf(path: string): Promise<{ bytes: Buffer; size: number }> {
    const size = await this.sizeOf(path);
    try {
      return { bytes: await readFile(path), size };
    } catch (error) {
      throw translateFsError(error, path, 'input file');
    }
  }

  async readInParts(path: string): Promise<PartitionedReport> {
    const size = await this.sizeOf(path);
    if (size < this.splitMinBytes || this.threads < 2 || !existsSync(PART_WORKER)) return whole(await this.read(path));
    let bytes: Buffer | undefined = Buffer.from(new SharedArrayBuffer(size));
    try {
      const handle = await open(path, 'r');
      try {
        for (let at = 0; at < size; ) {
          const { bytesRead } = await handle.read(bytes, at, size - at, at);
          if (bytesRead === 0) break; // the file shrank while being read: the parts will not parse, and it is read whole
          at += bytesRead;
        }
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw translateFsError(error, path, 'input file');
    }
    const layout = splitReport(bytes, bomLength(bytes), this.threads);
    if (!layout || layout.cuts.length === 0) return whole(loaded(path, bytes, size));
    const [cut] = layout.cuts;
    // Each part is decoded as one JSON array, brackets included, so JSON.parse gets one flat string and no
    // copy of it: the comma at the cut becomes the worker's `[` and, once it has decoded, this part's `]`.
    const sha256 = createHash('sha256').update(bytes.subarray(0, cut)).update(',').update(bytes.subarray(cut + 1)).digest('hex');
    bytes[cut] = 0x5b;
    const part = new WorkerPart(PART_WORKER, { shared: bytes.buffer as SharedArrayBuffer, from: cut, to: layout.end + 1, id: `part-${randomBytes(4).toString('hex')}` });
    await part.decoded;
    bytes[cut] = 0x5d;
    const localText = bytes.toString('utf8', layout.start - 1, cut + 1);
    bytes = undefined; // from here on only the texts are needed: the shared bytes can be collected while parsing
    const file = { name: basename(path), path, sha256, bytes: size };
    try {
      const header = layout.header === undefined ? [] : (JSON.parse(layout.header) as unknown);
      const local = JSON.parse(localText) as unknown[];
      return { file, header, local, remote: [part] };
    } catch {
      // A part that does not parse means the guess about the layout was wrong, or the JSON is: read it whole.
      await part.close();
      return whole(await this.read(path));
    }
  }

  /**
   * The file is read a mebibyte at a time, twice: first its start, up to the `[` of the results array (found by the
   * walk readInParts uses), and its end, which must close that array and the report (`]}`: results is the last
   * member, as svc and the tools it reads write it); then the array, split into items (JsonArrayItems) as they are
   * asked for. The digest is of the bytes read the second time. Anything else is read whole.
   */
  async readItems(path: string): Promise<ItemizedReport | undefined> {
    const size = await this.sizeOf(path);
    const opening = () =>
      open(path, 'r').catch((error: unknown) => {
        throw translateFsError(error, path, 'input file');
      });
    let head = Buffer.alloc(0);
    let start: number | undefined;
    let tail: Buffer;
    const first = await opening();
    try {
      for (let at = 0; start === undefined && at < size && head.length < MAX_HEAD_BYTES; ) {
        const chunk = await readAt(first, at, ITEM_CHUNK_BYTES);
        if (chunk.length === 0) break;
        head = Buffer.concat([head, chunk]);
        at += chunk.length;
        start = resultsArrayOpen(head, bomLength(head));
      }
      if (start === undefined) return undefined;
      tail = await readAt(first, Math.max(start + 1, size - TAIL_BYTES), TAIL_BYTES);
    } catch (error) {
      throw translateFsError(error, path, 'input file');
    } finally {
      await first.close();
    }
    const open_ = start;
    const tailAt = size - tail.length;
    const brace = lastByte(tail, tail.length);
    const bracket = lastByte(tail, brace);
    const bare = head[skipSpace(head, bomLength(head))] === OPEN_ARRAY;
    // The array must end the document: `]` last for a bare array, `]` then `}` for a report object.
    const end = bare ? (tail[brace] === CLOSE_ARRAY ? tailAt + brace : -1) : tail[brace] === CLOSE_OBJECT && tail[bracket] === CLOSE_ARRAY ? tailAt + bracket : -1;
    if (end <= open_) return undefined;
    let header: unknown = [];
    try {
      if (!bare) header = JSON.parse(`${head.toString('utf8', bomLength(head), open_)}[]${tail.toString('utf8', end - tailAt + 1)}`);
    } catch {
      return undefined;
    }
    const hash = createHash('sha256').update(head.subarray(0, open_));
    let digest: string | undefined;
    let read = false;
    async function* items(): AsyncGenerator<string> {
      if (read) throw new Error(`${path}: the items of a report are read once`);
      read = true;
      const handle = await opening();
      try {
        const splitter = new JsonArrayItems('[');
        for (let at = open_; at <= end; ) {
          const chunk = await readAt(handle, at, Math.min(ITEM_CHUNK_BYTES, end + 1 - at)).catch((error: unknown) => {
            throw translateFsError(error, path, 'input file');
          });
          if (chunk.length === 0) throw new JsonSplitError(at, 'the file ended early');
          hash.update(chunk);
          at += chunk.length;
          yield* splitter.push(chunk);
          // What the caller made of the items so far (parsed, checked, kept as entries) is mostly garbage now.
          noteStreamed(chunk.length);
        }
        if (splitter.rest() !== '') throw new JsonSplitError(end, 'text after the results array');
        digest = hash.update(tail.subarray(end - tailAt + 1)).digest('hex');
      } finally {
        await handle.close();
      }
    }
    const file = () => {
      if (digest === undefined) throw new Error(`${path}: the digest of a report read an item at a time is known once its items are read`);
      return { name: basename(path), path, sha256: digest, bytes: size };
    };
    return { header, items: { [Symbol.asyncIterator]: items }, file };
  }

  async readMember(dir: string, member: string): Promise<LoadedDocument> {
    return this.read(join(dir, member));
  }

  private async sizeOf(path: string): Promise<number> {
    try {
      const info = await stat(path);
      if (info.isDirectory()) throw new InvalidInputError('input-is-directory', `${path}: is a directory, expected a JSON file; pass the report file itself`);
      if (info.size > MAX_JSON_BYTES) {
        throw new InvalidInputError(
          'input-too-large',
          `${path}: ${info.size} bytes is more than svc reads as one JSON document (512 MiB); a normalized report can be split and its parts merged with "svc evidence build"`,
        );
      }
      return info.size;
    } catch (error) {
      throw translateFsError(error, path, 'input file');
    }
  }

  async kind(path: string): Promise<PathKind> {
    try {
      return (await stat(path)).isDirectory() ? 'directory' : 'file';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw translateFsError(error, path, 'path');
    }
  }
}

function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

function loaded(path: string, bytes: Buffer, size: number): LoadedDocument {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { name: basename(path), path, sha256, bytes: size, document: parseJson(bytes.toString('utf8', bomLength(bytes)), path) };
}

/** A report read in one piece, in the partitioned shape: the report-level fields and all results. */
export function whole({ document, ...file }: LoadedDocument): PartitionedReport {
  if (Array.isArray(document)) return { file, header: [], local: document, remote: [] };
  const results = (document as { results?: unknown } | null)?.results;
  if (Array.isArray(results)) return { file, header: { ...(document as object), results: [] }, local: results, remote: [] };
  return { file, header: document, local: [], remote: [] };
}

/** JSON.parse, and on failure a message with line and column (from V8, or from a tolerant parser when V8 gives no position). */
export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const offset = errorOffset(message, text);
    const { line, column } = lineAndColumn(text, offset);
    const problem = text.trim() === '' ? 'the file is empty' : jsonSyntaxProblem(message);
    throw new InvalidInputError('invalid-json', `${path}: invalid JSON at line ${line}, column ${column}: ${problem}; fix the syntax there (a JSON validator shows the context)`);
  }
}

function errorOffset(message: string, text: string): number {
  const at = / at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length;
  const errors: ParseError[] = [];
  // Only a malformed file needs the tolerant parser's error offset: it loads then, not on every run.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('jsonc-parser') as typeof import('jsonc-parser')).parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0]?.offset ?? 0;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Up to `length` bytes of the file from `at` (fewer at its end). */
async function readAt(handle: FileHandle, at: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, at + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
