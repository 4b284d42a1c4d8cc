import { createHash } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../../src/domain/errors';
import { parseJson } from '../../src/infrastructure/fs/fs-report-reader';
import type { LoadedDocument, PathKind, ReportReader } from '../../src/ports/report-reader';

/** REPORT_READER over files kept in a map; directories are the paths under which files exist. */
export class InMemoryReportReader implements ReportReader {
  readonly files = new Map<string, string | Buffer>();
  readonly reads: string[] = [];

  constructor(files: Record<string, unknown> = {}) {
    for (const [path, content] of Object.entries(files)) this.put(path, content);
  }

  /** Stores a document: strings and Buffers as they are, anything else as JSON. */
  put(path: string, content: unknown): this {
    this.files.set(path, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
    return this;
  }

  async read(path: string): Promise<LoadedDocument> {
    this.reads.push(path);
    const content = this.files.get(path);
    if (content === undefined) {
      if ((await this.kind(path)) === 'directory') throw new InvalidInputError('input-is-directory', `${path}: is a directory, expected a JSON file; pass the report file itself`);
      throw new NotFoundError('file-not-found', `${path}: no such input file; check the path`);
    }
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return { name: path.split('/').pop() ?? path, path, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, document: parseJson(bytes.toString('utf8', bom), path) };
  }

  async readMember(dir: string, member: string): Promise<LoadedDocument> {
    return this.read(`${dir}/${member}`);
  }

  async kind(path: string): Promise<PathKind> {
    if (this.files.has(path)) return 'file';
    return [...this.files.keys()].some((p) => p.startsWith(`${path}/`)) ? 'directory' : 'missing';
  }
}
