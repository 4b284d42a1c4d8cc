import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { InvalidInputError } from '../../domain/errors';
import { parseJson } from '../../domain/encoding/json-syntax-problem';
import { translateFsError } from '../shared/fs-errors';

/** V8 cannot hold a longer string: the largest JSON or text file a parser can take whole. */
const MAX_TEXT_BYTES = 0x1fffffe8;
const BOM = /^\uFEFF/;

export interface XmlVisitor {
  open?(tag: SaxesTagNS): void;
  text?(text: string): void;
  close?(tag: SaxesTagNS): void;
}

/**
 * A scanner's output file, read the way its format needs: whole as text or JSON, or streamed through a SAX
 * parser (XML reports can be hundreds of megabytes). Whichever way, the SHA-256 of its bytes is kept.
 */
export class RawInput {
  readonly name: string;
  private digest?: string;

  constructor(
    readonly path: string,
    readonly size: number,
  ) {
    this.name = basename(path);
  }

  /** Hex SHA-256 of the file's bytes, once read. */
  get sha256(): string {
    if (this.digest === undefined) throw new Error(`${this.path} has not been read yet`);
    return this.digest;
  }

  /** The first bytes as text, for telling formats apart. */
  async head(bytes = 64 * 1024): Promise<string> {
    try {
      const handle = await open(this.path, 'r');
      try {
        const buffer = Buffer.alloc(Math.min(bytes, this.size));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return buffer.toString('utf8', 0, bytesRead).replace(BOM, '');
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw translateFsError(error, this.path, 'input file');
    }
  }

  async text(): Promise<string> {
    if (this.size > MAX_TEXT_BYTES) {
      throw new InvalidInputError(
        'input-too-large',
        `${this.path}: ${this.size} bytes is more than this format can be read in one piece (512 MiB); split the scan into smaller runs`,
      );
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(this.path);
    } catch (error) {
      throw translateFsError(error, this.path, 'input file');
    }
    this.digest = createHash('sha256').update(bytes).digest('hex');
    return bytes.toString('utf8').replace(BOM, '');
  }

  /** The file as JSON; invalid JSON is reported with line and column. */
  async json(): Promise<unknown> {
    return parseJson(await this.text(), this.path);
  }

  /** Streams the file through a namespace-aware SAX parser; malformed or truncated XML is reported with line and column. */
  async xml(visitor: XmlVisitor): Promise<void> {
    const hash: Hash = createHash('sha256');
    const parser = new SaxesParser({ xmlns: true, position: true });
    let failure: Error | undefined;
    parser.on('error', (error) => {
      failure ??= error;
    });
    if (visitor.open) parser.on('opentag', visitor.open);
    if (visitor.text) {
      parser.on('text', visitor.text);
      parser.on('cdata', visitor.text);
    }
    if (visitor.close) parser.on('closetag', visitor.close);
    const decoder = new StringDecoder('utf8'); // keeps a character cut between two chunks whole
    try {
      let first = true;
      for await (const chunk of createReadStream(this.path, { highWaterMark: 1 << 20 })) {
        hash.update(chunk as Buffer);
        let text = decoder.write(chunk as Buffer);
        if (first) text = text.replace(BOM, '');
        first = false;
        parser.write(text);
        if (failure) break;
      }
      if (!failure) parser.write(decoder.end()).close();
    } catch (error) {
      // Errors from the visitor (a report of the wrong shape) and from the file system go out as they are.
      if (!(error instanceof Error) || typeof (error as NodeJS.ErrnoException).code === 'string') throw translateFsError(error, this.path, 'input file');
      failure ??= error;
    }
    if (failure) {
      const message = failure.message.split('\n')[0];
      throw new InvalidInputError('invalid-xml', `${this.path}: invalid XML: ${message}; the file is damaged or cut short, export it again`, {
        cause: failure,
      });
    }
    this.digest = hash.digest('hex');
  }
}
