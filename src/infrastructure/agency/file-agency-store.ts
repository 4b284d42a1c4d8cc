import { link, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import type { AgencyPull, AgencyReview } from '../../domain/agency/pulled-documents';
import { DOCUMENT_CHUNK_BYTES } from '../../domain/conmon/stored-documents';
import type { AgencyStore } from '../../ports/agency-store';
import { writeFileAtomically, writeNewFile } from '../shared/atomic-file';
import { translateFsError } from '../shared/fs-errors';
import { tempTag } from '../shared/lock-owner';
import { syncDir } from '../shared/sync-dir';
import { compressedPart, COMPRESSED_SUFFIX } from '../store/compressed-documents';
import { checkLast, checkProviderName, checkSha256, documentCorrupt, documentMissing, recordCorrupt, sha256Of } from './agency-store-checks';

const decompress = promisify(brotliDecompress);

/** A record's file: its seq, zero-padded so names sort as seqs do (a longer seq still reads: they are sorted as numbers). */
const RECORD_FILE = /^(\d{10,})\.json$/;
const SEQ_DIGITS = 10;

type RecordKind = 'pulls' | 'reviews';

/**
 * The agency store on files (the default; DESIGN §14), in the directory it is given (`<svc home>/agency`):
 *
 * - `objects/<2 hex>/<62 hex>.br`: each document's bytes under their SHA-256, Brotli-compressed at quality 1 as the
 *   run store keeps its documents (trust-center JSON compresses about 8 to 1 at well over 100 MB/s a core). Written once
 *   (an intact object is never rewritten); read back only after re-hashing.
 * - `providers/<name>/pulls/<seq>.json` and `providers/<name>/reviews/<seq>.json`: one record a file, seq zero-padded
 *   to 10 digits. A seq is taken by creating its file exclusively (a hard link of a complete temporary file), so
 *   concurrent writers in any number of processes get distinct consecutive seqs and a reader never sees part of a record.
 *
 * Temporary files (`.<name>.svc-tmp-…`) a crash leaves are ignored by every read.
 */
export class FileAgencyStore implements AgencyStore {
  /** The store's directory, as messages name it. */
  readonly location: string;

  constructor(private readonly dir: string) {
    this.location = dir;
  }

  async putDocument(bytes: Uint8Array): Promise<string> {
    const sha256 = sha256Of(bytes);
    const path = this.objectPath(sha256);
    if (await this.intact(sha256)) return sha256;
    await this.makeDir(dirname(path));
    try {
      // Replaces a damaged object (pulling again repairs it); an intact one was left alone above.
      await writeFileAtomically(path, await compressedPart(bytes));
    } catch (error) {
      throw translateFsError(error, path, 'agency store object');
    }
    return sha256;
  }

  async readDocument(sha256: string): Promise<Uint8Array> {
    const path = this.objectPath(checkSha256(sha256));
    let stored: Buffer;
    try {
      stored = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw documentMissing(this.location, sha256);
      throw translateFsError(error, path, 'agency store object');
    }
    let bytes: Buffer;
    try {
      // A mebibyte a step: zlib's default 16 KiB makes a large document's decompression take about three times as long.
      bytes = await decompress(stored, { chunkSize: DOCUMENT_CHUNK_BYTES });
    } catch (error) {
      throw documentCorrupt(path, sha256, error);
    }
    if (sha256Of(bytes) !== sha256) throw documentCorrupt(path, sha256);
    return bytes;
  }

  async appendPull(pull: Omit<AgencyPull, 'seq'>): Promise<AgencyPull> {
    const provider = checkProviderName(pull.provider);
    return this.append('pulls', provider, (seq) => ({ ...pull, seq }) as AgencyPull);
  }

  async pulls(provider: string, options: { last?: number } = {}): Promise<AgencyPull[]> {
    const last = checkLast(options.last);
    return this.records<AgencyPull>('pulls', checkProviderName(provider), last, (record, seq) =>
      record.seq === seq ? undefined : `it holds seq ${JSON.stringify(record.seq)}`,
    );
  }

  async providers(): Promise<string[]> {
    const root = join(this.dir, 'providers');
    const found: string[] = [];
    for (const name of await this.list(root)) {
      if (!checkableName(name)) continue;
      const kinds = await Promise.all((['pulls', 'reviews'] as const).map((kind) => this.seqs(kind, name)));
      if (kinds.some((seqs) => seqs.length > 0)) found.push(name);
    }
    return found.sort();
  }

  async appendReview(review: AgencyReview): Promise<void> {
    const provider = checkProviderName(review.provider);
    await this.append('reviews', provider, () => review);
  }

  async reviews(provider: string): Promise<AgencyReview[]> {
    return this.records<AgencyReview>('reviews', checkProviderName(provider), undefined, () => undefined);
  }

  /**
   * Records `make(seq)` under the next free seq of the provider's `kind`: one more than the largest there, and on losing
   * that seq to another writer, the one after, until a file is created.
   */
  private async append<T>(kind: RecordKind, provider: string, make: (seq: number) => T): Promise<T> {
    const dir = this.recordDir(kind, provider);
    await this.makeDir(dir);
    let seq = ((await this.seqs(kind, provider)).at(-1) ?? 0) + 1;
    for (;;) {
      const record = make(seq);
      const path = join(dir, recordFile(seq));
      if (await createOnce(path, `${JSON.stringify(record)}\n`)) return record;
      // Lost to another writer: past it, and past any others that went ahead meanwhile.
      seq = Math.max(seq, (await this.seqs(kind, provider)).at(-1) ?? 0) + 1;
    }
  }

  /** The provider's records of `kind`, oldest first (`last`: only the newest n files are read). */
  private async records<T extends { provider: string }>(
    kind: RecordKind,
    provider: string,
    last: number | undefined,
    wrong: (record: T, seq: number) => string | undefined,
  ): Promise<T[]> {
    const seqs = await this.seqs(kind, provider);
    const wanted = last === undefined ? seqs : seqs.slice(-last);
    const what = kind === 'pulls' ? 'pull' : 'review';
    return Promise.all(
      wanted.map(async (seq) => {
        const path = join(this.recordDir(kind, provider), recordFile(seq));
        let text: string;
        try {
          text = await readFile(path, 'utf8');
        } catch (error) {
          throw translateFsError(error, path, `agency store ${what}`);
        }
        let record: T;
        try {
          record = JSON.parse(text) as T;
        } catch (error) {
          throw recordCorrupt(path, what, `not JSON: ${(error as Error).message}`);
        }
        if (record === null || typeof record !== 'object' || Array.isArray(record)) throw recordCorrupt(path, what, 'not a JSON object');
        if (record.provider !== provider) throw recordCorrupt(path, what, `it names provider ${JSON.stringify(record.provider)}`);
        const problem = wrong(record, seq);
        if (problem !== undefined) throw recordCorrupt(path, what, problem);
        return record;
      }),
    );
  }

  /** The seqs of the provider's records of `kind`, ascending; none when it has none (temporary files skipped). */
  private async seqs(kind: RecordKind, provider: string): Promise<number[]> {
    const seqs: number[] = [];
    for (const name of await this.list(this.recordDir(kind, provider))) {
      const match = RECORD_FILE.exec(name);
      if (match) seqs.push(Number(match[1]));
    }
    return seqs.sort((a, b) => a - b);
  }

  /** The names in `dir`; none when it does not exist (or is a file: not the store's). */
  private async list(dir: string): Promise<string[]> {
    try {
      return await readdir(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw translateFsError(error, dir, 'agency store directory');
    }
  }

  /** Whether the object `sha256` exists and still hashes to it. */
  private async intact(sha256: string): Promise<boolean> {
    try {
      await this.readDocument(sha256);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'agency-document-missing' || (error as { code?: unknown }).code === 'agency-document-corrupt') return false;
      throw error;
    }
  }

  private async makeDir(dir: string): Promise<void> {
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw translateFsError(error, dir, 'agency store directory');
    }
  }

  private objectPath(sha256: string): string {
    return join(this.dir, 'objects', sha256.slice(0, 2), `${sha256.slice(2)}${COMPRESSED_SUFFIX}`);
  }

  private recordDir(kind: RecordKind, provider: string): string {
    return join(this.dir, 'providers', provider, kind);
  }
}

/** A directory under providers/ the store could have made: a provider name (anything else there is not the store's). */
function checkableName(name: string): boolean {
  try {
    checkProviderName(name);
    return true;
  } catch {
    return false;
  }
}

function recordFile(seq: number): string {
  return `${String(seq).padStart(SEQ_DIGITS, '0')}.json`;
}

/**
 * Creates `path` holding `text` unless it exists (false then): the text is written and fsynced to a temporary file,
 * which is hard-linked to `path` (refused when it exists), so a reader sees the whole record or none. A file system
 * without hard links gets `path` created exclusively and written.
 */
async function createOnce(path: string, text: string): Promise<boolean> {
  const temp = join(dirname(path), `.${basename(path)}.${tempTag()}`);
  try {
    await writeNewFile(temp, [text]);
    try {
      await link(temp, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
      await writeNewFile(path, [text]);
    }
    await syncDir(dirname(path));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw translateFsError(error, path, 'agency store record');
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}
