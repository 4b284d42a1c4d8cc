import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { readVarint, varint } from '../../domain/conmon/content-pieces';
import { syncDir } from '../shared/sync-dir';
import { tempTag } from '../shared/lock-owner';
import type { PieceFrame } from './piece-packs';

/**
 * The file store's packs (piece-packs.ts): `pieces/<seq>.pack`, one per run that added pieces, written once and never
 * changed. `SVCPACK1`, then each frame as a record (its first piece, lengths, keys and compressed bytes, each a varint
 * length and the bytes), then the frame table (how many frames; each one's first piece and record length), the
 * table's length (4 bytes, big-endian) and `SVCPEND1`. A reader reads the table once and a frame's record at a time.
 */
const HEAD = Buffer.from('SVCPACK1', 'latin1');
const END = Buffer.from('SVCPEND1', 'latin1');

/** A pack's file name: the run's seq, eight digits, as state files are named. */
function packFile(seq: number): string {
  return `${String(seq).padStart(8, '0')}.pack`;
}

/** The seq of a pack file's name, or undefined for a name that is not one. */
export function packSeq(name: string): number | undefined {
  const match = /^(\d{8,})\.pack$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/**
 * Writes one run's pack: frames as they come into a temporary file (made at the first), then `commit` writes the
 * table, fsyncs and renames it to `<dir>/<seq>.pack`; `discard` removes what was written. A run that adds no piece
 * has no pack.
 */
export class PackFileWriter {
  private handle?: FileHandle;
  private readonly temp: string;
  private readonly table: { first: number; length: number }[] = [];

  constructor(
    private readonly dir: string,
    private readonly seq: number,
  ) {
    this.temp = join(dir, `.${packFile(seq)}.${tempTag()}`);
  }

  readonly sink = async (frame: PieceFrame): Promise<void> => {
    if (this.handle === undefined) {
      this.handle = await open(this.temp, 'wx', 0o600);
      await this.handle.writeFile(HEAD);
    }
    const header: number[] = [];
    varint(header, frame.first);
    varint(header, frame.lengths.length);
    const record = [
      Buffer.from(header),
      frame.lengths,
      Buffer.from(lengthOf(frame.keys.length)),
      frame.keys,
      Buffer.from(lengthOf(frame.bytes.length)),
      frame.bytes,
    ];
    const bytes = Buffer.concat(record);
    await this.handle.writeFile(bytes);
    this.table.push({ first: frame.first, length: bytes.length });
  };

  /** The pack's path once renamed into place; undefined when no frame was written. */
  async commit(): Promise<string | undefined> {
    const handle = this.handle;
    if (handle === undefined) return undefined;
    const table: number[] = [];
    varint(table, this.table.length);
    for (const { first, length } of this.table) {
      varint(table, first);
      varint(table, length);
    }
    const size = Buffer.alloc(4);
    size.writeUInt32BE(table.length);
    try {
      await handle.writeFile(Buffer.concat([Buffer.from(table), size, END]));
      await handle.sync();
    } finally {
      await handle.close();
      this.handle = undefined;
    }
    const path = join(this.dir, packFile(this.seq));
    await rename(this.temp, path);
    await syncDir(this.dir);
    return path;
  }

  async discard(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    await rm(this.temp, { force: true });
  }
}

function lengthOf(n: number): number[] {
  const out: number[] = [];
  varint(out, n);
  return out;
}

/** A pack's frame table: each frame's first piece and where its record is. */
interface PackTable {
  firsts: number[];
  offsets: number[];
  lengths: number[];
}

/** How many packs' tables a reader keeps: a document of a year of daily runs reads pieces of each of them. */
const TABLES_KEPT = 1024;

/**
 * Reads frames of the packs in `dir`. A pack that is missing or not what PackFileWriter wrote is what `undecodable`
 * says (the store names it as tampered); tables are kept once read (a pack never changes).
 */
export class PackFileReader {
  private readonly tables = new Map<number, PackTable>();

  constructor(
    private readonly dir: string,
    private readonly undecodable: (path: string, problem: string) => Error,
  ) {}

  /** Drops the tables read (a pack an append wrote and did not commit may be written again). */
  forget(): void {
    this.tables.clear();
  }

  path(seq: number): string {
    return join(this.dir, packFile(seq));
  }

  /**
   * The frame of pack `seq` holding piece `index`, read synchronously: a document of a year of daily runs reads a frame
   * of each of hundreds of packs, a few KB each, and five round trips a frame through libuv's threads (open, stat, two
   * reads, close) left the OCR of day 60 waiting 34 ms where reading takes a few.
   */
  readonly frame = async (seq: number, index: number): Promise<PieceFrame | undefined> => {
    const path = this.path(seq);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw this.undecodable(path, `is the pack of run ${seq}, which a document's piece list names, but it is missing`);
      throw error;
    }
    try {
      const table = this.tables.get(seq) ?? this.table(fd, seq, path);
      let low = 0;
      let high = table.firsts.length - 1;
      if (high < 0 || index < table.firsts[0]) return undefined;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (table.firsts[middle] <= index) low = middle;
        else high = middle - 1;
      }
      const record = Buffer.alloc(table.lengths[low]);
      if (readSync(fd, record, 0, record.length, table.offsets[low]) !== record.length) throw this.undecodable(path, 'is cut short');
      return this.record(record, path);
    } finally {
      closeSync(fd);
    }
  };

  private table(fd: number, seq: number, path: string): PackTable {
    const { size } = fstatSync(fd);
    const tail = Buffer.alloc(12);
    if (size < HEAD.length + tail.length) throw this.undecodable(path, 'is not a pack svc wrote');
    readSync(fd, tail, 0, 12, size - 12);
    if (!tail.subarray(4).equals(END)) throw this.undecodable(path, 'is not a pack svc wrote (no end mark)');
    const tableBytes = tail.readUInt32BE(0);
    if (tableBytes > size - HEAD.length - 12) throw this.undecodable(path, 'is not a pack svc wrote (its frame table is cut)');
    const bytes = Buffer.alloc(tableBytes);
    readSync(fd, bytes, 0, tableBytes, size - 12 - tableBytes);
    const at = { offset: 0 };
    const frames = readVarint(bytes, at);
    const table: PackTable = { firsts: [], offsets: [], lengths: [] };
    let offset = HEAD.length;
    for (let i = 0; frames !== undefined && i < frames; i += 1) {
      const first = readVarint(bytes, at);
      const length = readVarint(bytes, at);
      if (first === undefined || length === undefined) break;
      table.firsts.push(first);
      table.offsets.push(offset);
      table.lengths.push(length);
      offset += length;
    }
    if (frames === undefined || table.firsts.length !== frames || at.offset !== bytes.length || offset !== size - 12 - tableBytes) {
      throw this.undecodable(path, 'is not a pack svc wrote (its frame table does not match its frames)');
    }
    this.tables.set(seq, table);
    if (this.tables.size > TABLES_KEPT) this.tables.delete(this.tables.keys().next().value as number);
    return table;
  }

  private record(record: Buffer, path: string): PieceFrame {
    const at = { offset: 0 };
    const first = readVarint(record, at);
    const part = (): Buffer => {
      const length = readVarint(record, at);
      if (length === undefined || at.offset + length > record.length) throw this.undecodable(path, 'holds a frame svc did not write');
      const bytes = record.subarray(at.offset, at.offset + length);
      at.offset += length;
      return bytes;
    };
    if (first === undefined) throw this.undecodable(path, 'holds a frame svc did not write');
    const frame = { first, lengths: part(), keys: part(), bytes: part() };
    if (at.offset !== record.length) throw this.undecodable(path, 'holds a frame svc did not write');
    return frame;
  }
}
