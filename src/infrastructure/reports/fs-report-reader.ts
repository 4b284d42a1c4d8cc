import { createHash } from 'node:crypto';
import { open, readdir, readFile, stat, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseJson } from '../../domain/encoding/json-syntax-problem';
import { utf8Text } from '../../domain/encoding/utf8-text';
import { InvalidInputError, NotFoundError } from '../../domain/errors';
import { CLOSE_ARRAY, CLOSE_OBJECT, JsonArrayItems, JsonSplitError, OPEN_ARRAY } from '../../domain/encoding/json-array-items';
import type { ItemizedReport, LoadedDocument, LoadedText, PathKind, ReportReader } from '../../ports/report-reader';
import { translateFsError } from '../shared/fs-errors';
import { noteStreamed } from '../shared/collect-garbage';
import { lastByte, resultsArrayOpen, skipSpace } from './report-splitter';

/** V8 cannot hold a longer string, so one JSON document can be at most this large. */
const MAX_JSON_BYTES = 0x1fffffe8;

/** How much of a report readItems reads at a time. */
const ITEM_CHUNK_BYTES = 1 << 20;
/** readItems looks this far for the results array (the report-level fields before it), and this far back for its end. */
const MAX_HEAD_BYTES = 16 * 2 ** 20;
const TAIL_BYTES = 4096;

/**
 * Reads JSON files whole: one read, one digest of the bytes, one JSON.parse (V8's parser is the fastest here), or a
 * normalized report an item at a time (readItems).
 */
export class FsReportReader implements ReportReader {
  async read(path: string, options: { keepText?: boolean } = {}): Promise<LoadedDocument> {
    const { bytes, size } = await this.bytesOf(path);
    const document = loaded(path, bytes, size);
    return options.keepText ? { ...document, text: utf8Text(bytes, path, bomLength(bytes)) } : document;
  }

  async readText(dir: string, member?: string, options: { anyBytes?: boolean } = {}): Promise<LoadedText> {
    const path = member === undefined ? dir : join(dir, member);
    const { bytes, size } = await this.bytesOf(path, 'text');
    const text = options.anyBytes ? bytes.toString('utf8', bomLength(bytes)) : utf8Text(bytes, path, bomLength(bytes));
    return { name: basename(path), path, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: size, text };
  }

  private async bytesOf(path: string, what?: 'json' | 'text'): Promise<{ bytes: Buffer; size: number }> {
    const size = await inputSize(path, what);
    try {
      return { bytes: await readFile(path), size };
    } catch (error) {
      throw translateFsError(error, path, 'input file');
    }
  }

  /**
   * The file is read a mebibyte at a time, twice: first its start, up to the `[` of the results array (found by the
   * walk readInParts uses), and its end, which must close that array and the report (`]}`: results is the last
   * member, as svc and the tools it reads write it); then the array, split into items (JsonArrayItems) as they are
   * asked for. The digest is of the bytes read the second time. Anything else is read whole.
   */
  async readItems(path: string): Promise<ItemizedReport | undefined> {
    const size = await inputSize(path);
    const opening = () =>
      open(path, 'r').catch((error: unknown) => {
        throw translateFsError(error, path, 'input file');
      });
    let head = Buffer.alloc(0);
    let start: number | undefined;
    let tail: Buffer;
    const first = await opening();
    try {
      for (let at = 0; start === undefined && at < size && head.length < MAX_HEAD_BYTES;) {
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
    const end = bare
      ? tail[brace] === CLOSE_ARRAY
        ? tailAt + brace
        : -1
      : tail[brace] === CLOSE_OBJECT && tail[bracket] === CLOSE_ARRAY
        ? tailAt + bracket
        : -1;
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
        for (let at = open_; at <= end;) {
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

  async names(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir)).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new NotFoundError('file-not-found', `${dir}: no such directory; check the path`, { cause: error });
      if (code === 'ENOTDIR') throw new InvalidInputError('not-a-directory', `${dir}: is a file, expected a directory`, { cause: error });
      throw translateFsError(error, dir, 'directory');
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

export function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

export function loaded(path: string, bytes: Buffer, size: number): LoadedDocument {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { name: basename(path), path, sha256, bytes: size, document: parseJson(utf8Text(bytes, path, bomLength(bytes)), path) };
}

/**
 * The size of an input file; InvalidInputError for a directory (the message says what was expected: a JSON file, or a
 * file of any kind for `text`) or a file larger than one JSON document can be.
 */
export async function inputSize(path: string, what: 'json' | 'text' = 'json'): Promise<number> {
  try {
    const info = await stat(path);
    if (info.isDirectory())
      throw new InvalidInputError(
        'input-is-directory',
        `${path}: is a directory, expected ${what === 'json' ? 'a JSON file; pass the report file itself' : 'a file; pass the file itself'}`,
      );
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
