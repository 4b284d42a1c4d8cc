import { createHash } from 'node:crypto';
import type { WrittenFile } from '../../src/domain/artifacts/manifest';
import { InvalidInputError } from '../../src/domain/errors';
import type { ArtifactSink, ArtifactTransaction, ArtifactWriter } from '../../src/ports/artifact-writer';
import type { Fragment } from '../../src/domain/artifacts/partition';

/**
 * ARTIFACT_WRITER over a map of path → text. Nothing is visible in `files` before a commit (or, for a single
 * file, before close). `failWriting` makes writes to that file name throw, to exercise aborts.
 */
export class InMemoryArtifactWriter implements ArtifactWriter {
  readonly files = new Map<string, string>();
  failWriting?: string;

  async begin(dir: string): Promise<ArtifactTransaction> {
    if (this.files.has(dir)) throw new InvalidInputError('out-dir-is-file', `${dir}: is a file, expected a directory for the bundle; pass a directory path`);
    const staged = new Map<string, string>();
    const sinks: MemorySink[] = [];
    return {
      open: (name) => {
        if (staged.has(name) || sinks.some((s) => s.name === name))
          throw new InvalidInputError('bad-artifact-name', `${name}: not a fresh plain file name for a bundle artifact`);
        const sink = new MemorySink(name, this.failWriting === name, (text) => staged.set(name, text), this.files);
        sinks.push(sink);
        return sink;
      },
      scratch: async () => `${dir}/.scratch`,
      commit: async () => {
        for (const [name, text] of staged) this.files.set(`${dir}/${name}`, text);
        return dir;
      },
      abort: async () => {
        staged.clear();
      },
    };
  }

  async open(path: string): Promise<ArtifactSink> {
    if ([...this.files.keys()].some((p) => p.startsWith(`${path}/`)))
      throw new InvalidInputError('out-is-directory', `${path}: is a directory, expected a file path; name the file to write`);
    return new MemorySink(path, this.failWriting === path, (text) => this.files.set(path, text), this.files);
  }
}

class MemorySink implements ArtifactSink {
  private text = '';
  private aborted = false;

  constructor(
    readonly name: string,
    private readonly fail: boolean,
    private readonly publish: (text: string) => void,
    private readonly files: Map<string, string>,
  ) {}

  write(text: string): void {
    if (this.fail) throw new Error(`injected failure writing ${this.name}`);
    this.text += text;
  }

  /** Bytes are kept one character per byte (latin1), so a test can turn them back with Buffer.from(text, 'latin1'). */
  writeBytes(bytes: Uint8Array): void {
    this.write(Buffer.from(bytes).toString('latin1'));
  }

  append(fragment: Fragment): void {
    const text = this.files.get(fragment.path);
    if (text === undefined || Buffer.byteLength(text) !== fragment.bytes) throw new Error(`fragment ${fragment.path} is missing or of another size`);
    this.files.delete(fragment.path);
    this.write(text);
  }

  async close(): Promise<WrittenFile> {
    if (!this.aborted) this.publish(this.text);
    const bytes = Buffer.from(this.text, 'utf8');
    return { name: this.name.split('/').pop() ?? this.name, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  }

  async abort(): Promise<void> {
    this.aborted = true;
  }
}
