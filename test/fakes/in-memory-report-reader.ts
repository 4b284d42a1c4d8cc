import { createHash } from 'node:crypto';
import { utf8Text } from '../../src/domain/encoding/utf8-text';
import { InvalidInputError, NotFoundError } from '../../src/domain/errors';
import { PartWork, wholeReport, type Fragment } from '../../src/domain/artifacts/partition';
import { parseJson } from '../../src/domain/encoding/json-syntax-problem';
import type { KsiResult } from '../../src/domain/ksi/ksi-result';
import type { PartitionedReport, PartitionedReportReader, RemotePart } from '../../src/ports/partitioned-report';
import type { ItemizedReport, PathKind, LoadedDocument, LoadedText, ReportReader } from '../../src/ports/report-reader';
import { PureJsHashing } from './pure-js-hashing';

/**
 * REPORT_READER and PARTITIONED_REPORT_READER over files kept in a map; directories are the paths under which files
 * exist. With `parts`, readInParts splits a report's results into that many parts, the later ones run on this thread
 * by the domain's PartWork, as the worker threads run them, writing their fragments with `putFragment` (the artifact
 * writer's map).
 */
export class InMemoryReportReader implements ReportReader, PartitionedReportReader {
  readonly files = new Map<string, string | Buffer>();
  parts = 1;
  putFragment: (path: string, text: string) => void = () => undefined;

  constructor(files: Record<string, unknown> = {}) {
    for (const [path, content] of Object.entries(files)) this.put(path, content);
  }

  /** The results of a report object or array, each as its JSON text; undefined for anything else. */
  async readItems(path: string): Promise<ItemizedReport | undefined> {
    const { document, ...file } = await this.read(path);
    const { header, local } = wholeReport(document);
    if (!Array.isArray(document) && !Array.isArray((document as { results?: unknown } | null)?.results)) return undefined;
    async function* items(): AsyncGenerator<string> {
      for (const item of local) yield JSON.stringify(item);
    }
    return { header, items: items(), file: () => file };
  }

  async readInParts(path: string): Promise<PartitionedReport> {
    const { document, ...file } = await this.read(path);
    const one = { file, ...wholeReport(document), remote: [] };
    if (this.parts < 2 || one.local.length < this.parts) return one;
    const size = Math.ceil(one.local.length / this.parts);
    const chunks = Array.from({ length: this.parts }, (_, i) => one.local.slice(i * size, (i + 1) * size));
    return { ...one, local: chunks[0], remote: chunks.slice(1).map((chunk, i) => this.part(chunk as KsiResult[], `part${i + 1}`)) };
  }

  private part(results: KsiResult[], id: string): RemotePart {
    const work = new PartWork(structuredClone(results));
    const put = (path: string, text: string) => this.putFragment(path, text);
    return {
      check: async (rules) => work.check(rules),
      render: async (job) =>
        work.render(job, new PureJsHashing(), (name) => {
          let text = '';
          const path = `${job.scratch}/${id}.${name}`;
          return {
            write: (t: string) => void (text += t),
            close: (): Fragment => {
              put(path, text);
              return { path, bytes: Buffer.byteLength(text) };
            },
          };
        }),
      close: async () => undefined,
    };
  }

  /** Stores a document: strings and Buffers as they are, anything else as JSON. */
  put(path: string, content: unknown): this {
    this.files.set(path, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
    return this;
  }

  async read(path: string, options: { keepText?: boolean } = {}): Promise<LoadedDocument> {
    if (!this.files.has(path) && (await this.kind(path)) === 'directory')
      throw new InvalidInputError('input-is-directory', `${path}: is a directory, expected a JSON file; pass the report file itself`);
    const { text, ...file } = await this.readText(path);
    return { ...file, document: parseJson(text, path), ...(options.keepText ? { text } : {}) };
  }

  async readText(dir: string, member?: string, options: { anyBytes?: boolean } = {}): Promise<LoadedText> {
    const path = member === undefined ? dir : `${dir}/${member}`;
    const content = this.files.get(path);
    if (content === undefined) {
      if ((await this.kind(path)) === 'directory')
        throw new InvalidInputError('input-is-directory', `${path}: is a directory, expected a file; pass the file itself`);
      throw new NotFoundError('file-not-found', `${path}: no such input file; check the path`);
    }
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return {
      name: path.split('/').pop() ?? path,
      path,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
      text: options.anyBytes ? bytes.toString('utf8', bom) : utf8Text(bytes, path, bom),
    };
  }

  async readMember(dir: string, member: string): Promise<LoadedDocument> {
    return this.read(`${dir}/${member}`);
  }

  async names(dir: string): Promise<string[]> {
    if (this.files.has(dir)) throw new InvalidInputError('not-a-directory', `${dir}: is a file, expected a directory`);
    const inside = [...this.files.keys()].filter((p) => p.startsWith(`${dir}/`)).map((p) => p.slice(dir.length + 1).split('/')[0]);
    if (inside.length === 0) throw new NotFoundError('file-not-found', `${dir}: no such directory; check the path`);
    return [...new Set(inside)].sort();
  }

  async kind(path: string): Promise<PathKind> {
    if (this.files.has(path)) return 'file';
    return [...this.files.keys()].some((p) => p.startsWith(`${path}/`)) ? 'directory' : 'missing';
  }
}
