import { link, mkdir, open, readdir, readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { chainTampered } from '../../domain/conmon/run-chain';
import { canonicalText } from '../../domain/conmon/run-id';
import { isPlainObject } from '../../domain/encoding/json-values';
import { IntegrityError } from '../../domain/errors';
import {
  AccessTallies,
  accessDay,
  MAX_RAW_DENIALS,
  isAccessTally,
  isStoredAccessEvent,
  rawAccessEvents,
  splitAccessBatch,
  tallyAccess,
  type AccessCutoffs,
  type AccessEvent,
  type AccessTally,
} from '../../domain/trust/access-log';
import type { AccessUpkeep } from '../../ports/access-store';
import { translateFsError } from '../shared/fs-errors';
import { tempTag } from '../shared/lock-owner';
import { writeFileAtomically, writeNewFile } from '../shared/atomic-file';

/** The summary file's schema. */
export const ACCESS_SUMMARY_SCHEMA = 'svc.access-summary/v1';

/** A day's raw events, one canonical event a line (what svc 0.6 and earlier kept, and nothing else). */
const RAW_FILE = /^(\d{4}-\d{2}-\d{2})\.ndjson$/;
/** A day's tallies as appended: one canonical JSON array of tallies a line, a line per batch. */
const TALLY_FILE = /^(\d{4}-\d{2}-\d{2})\.tally\.ndjson$/;
/** A day's summary: its tallies merged, and how much of the tally file they hold. */
const SUMMARY_FILE = /^(\d{4}-\d{2}-\d{2})\.summary\.json$/;

/** Bytes read at a time: a day's file is never read whole into memory, and the event loop runs between chunks. */
const CHUNK_BYTES = 1 << 20;

/** Days whose tallies are kept in memory to be read on (today's and yesterday's, and a few read lately). */
const CURSORS = 4;

/** What a summary file holds. */
interface SummaryFile {
  schema: typeof ACCESS_SUMMARY_SCHEMA;
  day: string;
  /** The tally file (its inode) whose first `bytes` bytes `tallies` hold; absent: none. */
  absorbed?: { ino: string; bytes: number };
  tallies: AccessTally[];
}

/** A day's tallies as read so far: the summary's, then the tally file's lines up to `offset`. */
interface DayCursor {
  /** The summary file read (inode, change time, size), or '' when there was none. */
  summaryId: string;
  base: AccessTally[];
  absorbed?: SummaryFile['absorbed'];
  /** The tally file (inode) read from; undefined before the first read. */
  fileIno?: string;
  /** Bytes of it held in `tallies` (up to the last whole line). */
  offset: number;
  /** Lines of it read, for messages. */
  lines: number;
  tallies: AccessTallies;
}

/**
 * The file store's access log (CDS-TRC-ACL), under `<store>/access/`, a few files a day:
 *
 * - `<day>.tally.ndjson`: each batch's tallies (AccessTally) as one line, appended with O_APPEND, so processes
 *   appending at once interleave whole lines without a lock. Written before the raw events: a crash between the two
 *   loses raw lines, never counts.
 * - `<day>.ndjson`: the raw events, a line each (the format svc has always written), but a principal's denials of a day
 *   beyond MAX_RAW_DENIALS (counted in the tallies only).
 * - `<day>.summary.json`: written whole (temporary file, fsync, rename) once the day is settled (compaction): the
 *   tallies merged, with the inode and length of the tally file they hold, so a reader adds only the tally file's
 *   later bytes, whichever summary it sees: no lock between readers, writers and compaction.
 *
 * A crash mid-append leaves at most a torn last line, which reading skips and the next append starts after. A day an
 * earlier svc logged (raw events, no tallies, no summary) is summarized from its events the first time it is read or
 * written, its summary created exclusively (a second process doing the same at once finds it made). Raw events and
 * tally files are removed after the raw days, summaries after the summary days (prune).
 */
export class FileAccessLog {
  private readonly cursors = new Map<string, DayCursor>();

  constructor(private readonly dir: string) {}

  async append(events: readonly AccessEvent[]): Promise<void> {
    const { valid, refusal } = splitAccessBatch(events);
    const byDay = new Map<string, AccessEvent[]>();
    for (const event of valid) {
      const day = accessDay(event);
      const list = byDay.get(day);
      if (list === undefined) byDay.set(day, [event]);
      else list.push(event);
    }
    if (byDay.size > 0) {
      try {
        await mkdir(this.dir, { recursive: true, mode: 0o700 });
      } catch (error) {
        throw translateFsError(error, this.dir, 'access log directory');
      }
    }
    for (const [day, dayEvents] of byDay) {
      const kept = rawAccessEvents(dayEvents, await this.deniedSoFar(day));
      await appendText(this.tallyPath(day), `${canonicalText(tallyAccess(dayEvents))}\n`);
      if (kept.length > 0) await appendText(this.rawPath(day), kept.map((e) => `${canonicalText(e)}\n`).join(''));
    }
    if (refusal !== undefined) throw refusal;
  }

  /**
   * How many denials of a principal the day holds, from its tallies. Tallies changed outside svc are reported by
   * every read; the log goes on meanwhile, keeping no more denials raw (a request is never failed for its log).
   */
  private async deniedSoFar(day: string): Promise<(day: string, principal: string) => number> {
    try {
      const { tallies } = await this.cursor(day);
      return (d, principal) => tallies.denied(d, principal);
    } catch (error) {
      if (error instanceof IntegrityError) return () => MAX_RAW_DENIALS;
      throw error;
    }
  }

  async events(from: string, to: string): Promise<AccessEvent[]> {
    const days = (await this.names())
      .map((n) => RAW_FILE.exec(n)?.[1])
      .filter((d): d is string => d !== undefined && d >= from && d <= to)
      .sort();
    const events: AccessEvent[] = [];
    for (const day of days) {
      const path = this.rawPath(day);
      await eachLine(path, 0, undefined, (line, n) => {
        // A line a crash tore (an object begun and never ended) is skipped; anything else that is no event was edited.
        if (line.startsWith('{') && !line.endsWith('}')) return;
        const event = parseOrUndefined(line);
        if (!isStoredAccessEvent(event)) throw chainTampered(`${path}:${n}`, 'not an access event');
        events.push(event);
      });
    }
    return events;
  }

  async tallies(day: string): Promise<AccessTally[]> {
    return (await this.cursor(day)).tallies.list();
  }

  async prune(cutoffs: AccessCutoffs): Promise<AccessUpkeep> {
    const done: AccessUpkeep = { compacted: 0, summarized: 0, raw_days: 0, summary_days: 0 };
    const files = new Map<string, Set<'raw' | 'tally' | 'summary'>>();
    for (const name of await this.names()) {
      for (const [kind, pattern] of [
        ['raw', RAW_FILE],
        ['tally', TALLY_FILE],
        ['summary', SUMMARY_FILE],
      ] as const) {
        const day = pattern.exec(name)?.[1];
        if (day !== undefined) files.set(day, (files.get(day) ?? new Set()).add(kind));
      }
    }
    for (const [day, kinds] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (day < cutoffs.summaries_from) {
        for (const path of [this.tallyPath(day), this.rawPath(day), this.summaryPath(day)]) await remove(path);
        if (kinds.has('raw')) done.raw_days += 1;
        if (kinds.has('summary') || kinds.has('tally')) done.summary_days += 1;
        this.cursors.delete(day);
        continue;
      }
      // A day with its summary alone has nothing to fold in.
      if ((day < cutoffs.settled_before || day < cutoffs.raw_from) && (kinds.has('tally') || (kinds.has('raw') && !kinds.has('summary')))) {
        const outcome = await this.compact(day);
        if (outcome === 'compacted') done.compacted += 1;
        if (outcome === 'summarized') done.summarized += 1;
      }
      if (day < cutoffs.raw_from && (kinds.has('raw') || kinds.has('tally'))) {
        // The summary now holds every tally: the tally file goes with the raw events, then the summary forgets it.
        await remove(this.tallyPath(day));
        await remove(this.rawPath(day));
        const summary = await this.readSummary(day);
        if (summary?.absorbed !== undefined) await this.writeSummary({ schema: ACCESS_SUMMARY_SCHEMA, day, tallies: summary.tallies });
        if (kinds.has('raw')) done.raw_days += 1;
      }
      // Between days, so a long upkeep never holds the event loop.
      await yieldToEvents();
    }
    return done;
  }

  /**
   * Folds the tally lines after the summary's into a new summary (written atomically); a day an earlier svc logged is
   * summarized from its raw events instead. Safe at any time and in several processes at once: a summary always holds
   * its tallies and says how much of the tally file they cover, and the tally file only grows.
   */
  private async compact(day: string): Promise<'compacted' | 'summarized' | undefined> {
    if (await this.isLegacy(day)) return (await this.summarizeLegacy(day)) ? 'summarized' : undefined;
    const summary = await this.readSummary(day);
    const path = this.tallyPath(day);
    const handle = await openOrUndefined(path);
    if (handle === undefined) return undefined;
    try {
      const { ino, size } = await handle.stat({ bigint: true });
      const from = summary?.absorbed?.ino === String(ino) ? summary.absorbed.bytes : 0;
      if (Number(size) <= from) return undefined;
      const tallies = new AccessTallies(summary?.tallies ?? []);
      const read = await readTallyLines(handle, path, day, from, Number(size), 0, (t) => tallies.add(t));
      if (read.offset === from) return undefined;
      await this.writeSummary({ schema: ACCESS_SUMMARY_SCHEMA, day, absorbed: { ino: String(ino), bytes: read.offset }, tallies: tallies.list() });
      return 'compacted';
    } finally {
      await handle.close();
    }
  }

  /** The day's tallies read on from where this process left off: the summary's, then the tally file's new lines. */
  private async cursor(day: string, converted = false): Promise<DayCursor> {
    const summaryId = await identity(this.summaryPath(day));
    let cursor = this.cursors.get(day);
    if (cursor === undefined || cursor.summaryId !== summaryId) {
      if (summaryId === '' && !converted && (await this.isLegacy(day))) {
        await this.summarizeLegacy(day);
        return this.cursor(day, true);
      }
      const summary = summaryId === '' ? undefined : await this.readSummary(day);
      const base = summary?.tallies ?? [];
      cursor = {
        summaryId,
        base,
        ...(summary?.absorbed === undefined ? {} : { absorbed: summary.absorbed }),
        offset: 0,
        lines: 0,
        tallies: new AccessTallies(base),
      };
    }
    this.cursors.delete(day);
    this.cursors.set(day, cursor);
    if (this.cursors.size > CURSORS) this.cursors.delete(this.cursors.keys().next().value as string);
    const path = this.tallyPath(day);
    const handle = await openOrUndefined(path);
    if (handle === undefined) return cursor;
    try {
      const { ino, size } = await handle.stat({ bigint: true });
      if (cursor.fileIno !== String(ino)) {
        // Another tally file than the one read (removed and made again): start over from the summary.
        if (cursor.fileIno !== undefined) cursor.tallies = new AccessTallies(cursor.base);
        cursor.fileIno = String(ino);
        cursor.offset = cursor.absorbed?.ino === cursor.fileIno ? cursor.absorbed.bytes : 0;
        cursor.lines = 0;
      }
      if (Number(size) < cursor.offset) throw chainTampered(path, `it is ${size} bytes long, shorter than the ${cursor.offset} svc read of it`);
      const tallies = cursor.tallies;
      const read = await readTallyLines(handle, path, day, cursor.offset, Number(size), cursor.lines, (t) => tallies.add(t));
      cursor.offset = read.offset;
      cursor.lines = read.lines;
      return cursor;
    } finally {
      await handle.close();
    }
  }

  /** A day an earlier svc logged: raw events, and neither tallies nor a summary. */
  private async isLegacy(day: string): Promise<boolean> {
    return (await identity(this.rawPath(day))) !== '' && (await identity(this.tallyPath(day))) === '' && (await identity(this.summaryPath(day))) === '';
  }

  /**
   * Summarizes a day an earlier svc logged from its raw events, read a chunk at a time, and creates its summary unless
   * one appeared meanwhile. The raw file's length is taken before checking that no tallies exist yet: an svc that
   * tallies makes the summary before its first line, so every line up to that length is an earlier svc's. False when
   * another process made the summary first.
   */
  private async summarizeLegacy(day: string): Promise<boolean> {
    const path = this.rawPath(day);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw translateFsError(error, path, 'access log');
    }
    if ((await identity(this.tallyPath(day))) !== '' || (await identity(this.summaryPath(day))) !== '') return false;
    const tallies = new AccessTallies();
    await eachLine(path, 0, size, (line, n) => {
      if (line.startsWith('{') && !line.endsWith('}')) return;
      const event = parseOrUndefined(line);
      if (!isStoredAccessEvent(event) || accessDay(event) !== day) throw chainTampered(`${path}:${n}`, 'not an access event of this day');
      tallies.addEvent(event);
    });
    const summaryPath = this.summaryPath(day);
    const temp = join(this.dir, `.${day}.summary.json.${tempTag()}`);
    try {
      await writeNewFile(temp, [canonicalText({ schema: ACCESS_SUMMARY_SCHEMA, day, tallies: tallies.list() } satisfies SummaryFile)]);
      await link(temp, summaryPath);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw translateFsError(error, summaryPath, 'access log summary');
    } finally {
      await rm(temp, { force: true }).catch(() => undefined);
    }
  }

  /** The day's summary, checked; undefined when there is none. */
  private async readSummary(day: string): Promise<SummaryFile | undefined> {
    const path = this.summaryPath(day);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw translateFsError(error, path, 'access log summary');
    }
    const summary = parseOrUndefined(text);
    const valid =
      isPlainObject(summary) &&
      summary.schema === ACCESS_SUMMARY_SCHEMA &&
      summary.day === day &&
      (summary.absorbed === undefined ||
        (isPlainObject(summary.absorbed) &&
          typeof summary.absorbed.ino === 'string' &&
          Number.isSafeInteger(summary.absorbed.bytes) &&
          (summary.absorbed.bytes as number) >= 0)) &&
      Array.isArray(summary.tallies) &&
      summary.tallies.every((t) => isAccessTally(t) && t.day === day);
    if (!valid) throw chainTampered(path, `not a ${ACCESS_SUMMARY_SCHEMA} summary of ${day}`);
    return summary as unknown as SummaryFile;
  }

  private async writeSummary(summary: SummaryFile): Promise<void> {
    const path = this.summaryPath(summary.day);
    try {
      await writeFileAtomically(path, canonicalText(summary));
    } catch (error) {
      throw translateFsError(error, path, 'access log summary');
    }
  }

  /** The names in access/; none before the first access. */
  private async names(): Promise<string[]> {
    try {
      return await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw translateFsError(error, this.dir, 'access log directory');
    }
  }

  private rawPath(day: string): string {
    return join(this.dir, `${day}.ndjson`);
  }

  private tallyPath(day: string): string {
    return join(this.dir, `${day}.tally.ndjson`);
  }

  private summaryPath(day: string): string {
    return join(this.dir, `${day}.summary.json`);
  }
}

/**
 * Reads the tally lines of `handle` from byte `from` up to `to`, the last whole line included, handing each tally to
 * `add`; returns where the whole lines end and how many lines (counting `lines` before) that makes. A torn line (an
 * array begun and never ended: a crash mid-write) is skipped; any other line that is not tallies of `day` was edited.
 */
async function readTallyLines(
  handle: FileHandle,
  path: string,
  day: string,
  from: number,
  to: number,
  lines: number,
  add: (t: AccessTally) => void,
): Promise<{ offset: number; lines: number }> {
  let n = lines;
  const offset = await eachLineOf(handle, from, to, (line) => {
    n += 1;
    if (line === '' || (line.startsWith('[') && !line.endsWith(']'))) return;
    const tallies = parseOrUndefined(line);
    if (!Array.isArray(tallies) || !tallies.every((t) => isAccessTally(t) && t.day === day))
      throw chainTampered(`${path}:${n}`, `not a line of access tallies of ${day}`);
    for (const t of tallies as AccessTally[]) add(t);
  });
  return { offset, lines: n };
}

/** Calls `each` with every whole line of the file at `path` from `from` to `to` (default: its end), numbered from 1. */
async function eachLine(path: string, from: number, to: number | undefined, each: (line: string, n: number) => void): Promise<void> {
  const handle = await openOrUndefined(path);
  if (handle === undefined) return;
  try {
    let n = 0;
    await eachLineOf(handle, from, to ?? Number((await handle.stat()).size), (line) => each(line, ++n));
  } finally {
    await handle.close();
  }
}

/**
 * Calls `each` with every whole line (ended by a line feed) between byte `from` and `to`, reading CHUNK_BYTES at a
 * time (awaiting each read lets the event loop run); returns the offset after the last whole line.
 */
async function eachLineOf(handle: FileHandle, from: number, to: number, each: (line: string) => void): Promise<number> {
  let offset = from;
  let carry = Buffer.alloc(0);
  let position = from;
  while (position < to) {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, to - position));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const bytes = carry.length === 0 ? buffer.subarray(0, bytesRead) : Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
    let start = 0;
    for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a, start)) {
      each(bytes.toString('utf8', start, newline));
      start = newline + 1;
    }
    offset += start;
    carry = Buffer.from(bytes.subarray(start));
  }
  return offset;
}

/**
 * Appends `text` (whole lines) to `path` with O_APPEND, created 0600: processes appending at once interleave whole
 * writes. After a crash mid-write the file may end in a torn line: then the text starts on a line of its own.
 */
async function appendText(path: string, text: string): Promise<void> {
  try {
    const handle = await open(path, 'a+', 0o600);
    try {
      const { size } = await handle.stat();
      const last = Buffer.alloc(1);
      const torn = size > 0 && (await handle.read(last, 0, 1, size - 1)).bytesRead === 1 && last[0] !== 0x0a;
      let bytes = Buffer.from(`${torn ? '\n' : ''}${text}`, 'utf8');
      // One write() in the usual case; a short write (a full disk) goes on where it stopped.
      while (bytes.length > 0) {
        const { bytesWritten } = await handle.write(bytes);
        bytes = bytes.subarray(bytesWritten);
      }
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw translateFsError(error, path, 'access log');
  }
}

/** `path` opened for reading; undefined when it does not exist. */
async function openOrUndefined(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw translateFsError(error, path, 'access log');
  }
}

/** The file's inode, change time and size, which change when it is replaced or written; '' when it does not exist. */
async function identity(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.ctimeNs}:${s.size}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw translateFsError(error, path, 'access log');
  }
}

async function remove(path: string): Promise<void> {
  try {
    await rm(path, { force: true });
  } catch (error) {
    throw translateFsError(error, path, 'access log');
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
