import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { injectable } from 'tsyringe';
import { parse as parseTolerant, type ParseError } from 'jsonc-parser';
import { InvalidInputError } from '../../domain/errors';
import type { LoadedDocument, PathKind, ReportReader } from '../../ports/report-reader';
import { translateFsError } from './fs-errors';

/** V8 cannot hold a longer string, so one JSON document can be at most this large. */
const MAX_JSON_BYTES = 0x1fffffe8;

/** Reads JSON files whole: one read, one digest of the bytes, one JSON.parse (V8's parser is the fastest here). */
@injectable()
export class FsReportReader implements ReportReader {
  async read(path: string): Promise<LoadedDocument> {
    let bytes: Buffer;
    try {
      const info = await stat(path);
      if (info.isDirectory()) throw new InvalidInputError('input-is-directory', `${path}: is a directory, expected a JSON file; pass the report file itself`);
      if (info.size > MAX_JSON_BYTES) throw new InvalidInputError('input-too-large', `${path}: ${info.size} bytes is more than one JSON document can hold (512 MiB); split the report and merge the parts with "svc evidence build"`);
      bytes = await readFile(path);
    } catch (error) {
      throw translateFsError(error, path, 'input file');
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const text = bytes.toString('utf8', bom);
    return { name: basename(path), path, sha256, bytes: bytes.length, document: parseJson(text, path) };
  }

  async readMember(dir: string, member: string): Promise<LoadedDocument> {
    return this.read(join(dir, member));
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

/** JSON.parse, and on failure a message with line and column (from V8, or from a tolerant parser when V8 gives no position). */
export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const offset = errorOffset(message, text);
    const { line, column } = lineAndColumn(text, offset);
    const problem = text.trim() === '' ? 'the file is empty' : message.replace(/ in JSON at position \d+.*$/, '').replace(/, ".*" is not valid JSON$/s, '');
    throw new InvalidInputError('invalid-json', `${path}: invalid JSON at line ${line}, column ${column}: ${problem}; fix the syntax there (a JSON validator shows the context)`);
  }
}

function errorOffset(message: string, text: string): number {
  const at = / at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length;
  const errors: ParseError[] = [];
  parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
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
