import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import type { ParseError } from 'jsonc-parser';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';
import { InvalidInputError } from '../../domain/errors';
import type { LoadedDocument, LoadedText, PartitionedReport, PathKind, ReportReader } from '../../ports/report-reader';
import { WorkerPart } from '../parallel/worker-part';
import { translateFsError } from './fs-errors';
import { splitReport } from './report-splitter';

/** V8 cannot hold a longer string, so one JSON document can be at most this large. */
const MAX_JSON_BYTES = 0x1fffffe8;

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
