import { isUtf8 } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { wholeReport } from '../../domain/artifacts/partition';
import { notUtf8 } from '../../domain/encoding/utf8-text';
import type { PartitionedReport, PartitionedReportReader } from '../../ports/partitioned-report';
import type { LoadedDocument, ReportReader } from '../../ports/report-reader';
import { translateFsError } from '../shared/fs-errors';
import { bomLength, inputSize, loaded } from './fs-report-reader';
import { splitReport } from './report-splitter';
import { WorkerPart } from './worker-part';

/** The compiled worker that holds a later part of a report (absent when running from TypeScript sources). */
const PART_WORKER = join(__dirname, 'part-worker.js');

export interface PartitionOptions {
  /** Reports at least this large are read in parts (SVC_SPLIT_MIN_BYTES). */
  splitMinBytes?: number;
  /** Threads to read with, the main one included: 2 when there are cores to spare (the default), else 1. */
  threads?: number;
}

/**
 * Reads a large report in parts: the bytes go into shared memory, a worker thread parses the second half while this
 * thread parses the first, and the worker then checks and renders its results when asked (WorkerPart, part-worker).
 * A small report, a single core, or a layout the splitter does not recognize is read whole by `reader`.
 */
export class ParallelReportReader implements PartitionedReportReader {
  private readonly splitMinBytes: number;
  private readonly threads: number;

  constructor(
    private readonly reader: ReportReader,
    options: PartitionOptions = {},
  ) {
    this.splitMinBytes = options.splitMinBytes ?? 32 * 2 ** 20;
    this.threads = Math.min(2, options.threads ?? availableParallelism());
  }

  async readInParts(path: string): Promise<PartitionedReport> {
    const size = await inputSize(path);
    if (size < this.splitMinBytes || this.threads < 2 || !existsSync(PART_WORKER)) return whole(await this.reader.read(path));
    let bytes: Buffer | undefined = Buffer.from(new SharedArrayBuffer(size));
    try {
      const handle = await open(path, 'r');
      try {
        for (let at = 0; at < size;) {
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
    // JSON is UTF-8 (RFC 8259): a report that is not is refused naming the byte, as a whole read refuses it; the parts
    // below decode leniently, so the check comes first (buffer.isUtf8: milliseconds for hundreds of MiB).
    if (!isUtf8(bytes.subarray(bomLength(bytes)))) throw notUtf8(bytes, path, bomLength(bytes));
    const layout = splitReport(bytes, bomLength(bytes), this.threads);
    if (!layout || layout.cuts.length === 0) return whole(loaded(path, bytes, size));
    const [cut] = layout.cuts;
    // Each part is decoded as one JSON array, brackets included, so JSON.parse gets one flat string and no
    // copy of it: the comma at the cut becomes the worker's `[` and, once it has decoded, this part's `]`.
    const sha256 = createHash('sha256')
      .update(bytes.subarray(0, cut))
      .update(',')
      .update(bytes.subarray(cut + 1))
      .digest('hex');
    bytes[cut] = 0x5b;
    const part = new WorkerPart(PART_WORKER, {
      shared: bytes.buffer as SharedArrayBuffer,
      from: cut,
      to: layout.end + 1,
      id: `part-${randomBytes(4).toString('hex')}`,
    });
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
      return whole(await this.reader.read(path));
    }
  }
}

/** A report read in one piece, as a partitioned report without remote parts. */
function whole({ document, ...file }: LoadedDocument): PartitionedReport {
  return { file, ...wholeReport(document), remote: [] };
}
