import { Worker } from 'node:worker_threads';

/**
 * A worker thread that hashes and writes file data while the main thread goes on producing it. The main
 * thread encodes text straight into the slots of a shared ring; the worker takes filled slots in order,
 * feeds each file's SHA-256 and writes the bytes (fsync at close). Each side blocks on Atomics only when the
 * ring is full or empty, so producers keep a synchronous write() and memory stays bounded.
 *
 * Per slot, `meta` holds [state, op, file, length]. The worker's first failure (errno code and message) is
 * kept in `failure`; from then on it only closes files, and every later call here throws that failure.
 */
export const SLOT_BYTES = 1 << 20;
const SLOTS = 8;
const FIELDS = 4;
const FAILURE_BYTES = 4096;

const State = { free: 0, filled: 1, done: 2 } as const;
const Op = { open: 1, data: 2, close: 3, abort: 4, stop: 5 } as const;

export interface ClosedFile {
  sha256: string;
  bytes: number;
}

/** A failure the worker met, with the errno code Node gave it. */
export class WriteBehindError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export class WriteBehind {
  private readonly data = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
  private readonly meta = new Int32Array(new SharedArrayBuffer(SLOTS * FIELDS * 4));
  /** [failed, message length] then the message bytes. */
  private readonly failure = new SharedArrayBuffer(8 + FAILURE_BYTES);
  private readonly worker: Worker;
  private head = 0;
  private nextFile = 1;
  private stopped = false;

  constructor() {
    const workerData = { data: this.data, meta: this.meta, failure: this.failure, slots: SLOTS, slotBytes: SLOT_BYTES, fields: FIELDS, state: State, op: Op };
    this.worker = new Worker(`(${writeBehindWorker.toString()})()`, { eval: true, workerData });
    this.worker.unref();
  }

  open(path: string): number {
    const file = this.nextFile++;
    this.enqueue(Op.open, file, (slot) => slot.write(path, 0, 'utf8'));
    return file;
  }

  /** Queues bytes that `fill` encodes into a slot of SLOT_BYTES; it returns how many it wrote. */
  write(file: number, fill: (slot: Buffer) => number): void {
    this.enqueue(Op.data, file, fill);
  }

  /** Flushes, fsyncs and closes the file; waits for the worker and returns the digest of every byte written. */
  close(file: number): ClosedFile {
    const index = this.enqueue(Op.close, file, () => 0);
    const at = index * FIELDS;
    while (Atomics.load(this.meta, at) === State.filled) Atomics.wait(this.meta, at, State.filled);
    this.throwIfFailed();
    const [sha256, bytes] = Buffer.from(this.data, index * SLOT_BYTES, this.meta[at + 3])
      .toString('utf8')
      .split(' ');
    Atomics.store(this.meta, at, State.free);
    return { sha256, bytes: Number(bytes) };
  }

  /** Closes the file whatever state it is in (the caller deletes it). Never throws. */
  abort(file: number): void {
    if (!this.stopped) this.enqueue(Op.abort, file, () => 0, false);
  }

  /** Ends the worker after it has closed every file still open. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    const index = this.enqueue(Op.stop, 0, () => 0, false);
    this.stopped = true;
    const at = index * FIELDS;
    while (Atomics.load(this.meta, at) === State.filled) Atomics.wait(this.meta, at, State.filled);
    await this.worker.terminate();
  }

  private enqueue(op: number, file: number, fill: (slot: Buffer) => number, failFast = true): number {
    if (this.stopped) throw new Error('write-behind worker already stopped');
    if (failFast) this.throwIfFailed();
    const index = this.head;
    const at = index * FIELDS;
    while (Atomics.load(this.meta, at) === State.filled) Atomics.wait(this.meta, at, State.filled);
    if (failFast) this.throwIfFailed();
    const length = fill(Buffer.from(this.data, index * SLOT_BYTES, SLOT_BYTES));
    this.meta[at + 1] = op;
    this.meta[at + 2] = file;
    this.meta[at + 3] = length;
    Atomics.store(this.meta, at, State.filled);
    Atomics.notify(this.meta, at);
    this.head = (index + 1) % SLOTS;
    return index;
  }

  private throwIfFailed(): void {
    const header = new Int32Array(this.failure, 0, 2);
    if (Atomics.load(header, 0) === 0) return;
    const [code, ...message] = Buffer.from(this.failure, 8, header[1]).toString('utf8').split(' ');
    throw new WriteBehindError(message.join(' '), code === '-' ? undefined : code);
  }
}

/**
 * The worker's whole program, started from its source text so it needs no file of its own in src or dist.
 * It closes over nothing: it uses only `require` and `workerData`.
 */
/* istanbul ignore next */
function writeBehindWorker(): void {
  /* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any */
  const { workerData } = require('node:worker_threads');
  const fs = require('node:fs');
  const crypto = require('node:crypto');
  const { data, meta, failure, slots, slotBytes, fields, state, op } = workerData;
  const failed = new Int32Array(failure, 0, 2);
  const files = new Map();
  const closeAll = () => {
    for (const file of files.values()) fs.closeSync(file.fd);
    files.clear();
  };
  for (let tail = 0; ; tail = (tail + 1) % slots) {
    const at = tail * fields;
    for (let s = Atomics.load(meta, at); s !== state.filled; s = Atomics.load(meta, at)) Atomics.wait(meta, at, s);
    const [kind, id, length] = [meta[at + 1], meta[at + 2], meta[at + 3]];
    const slot = Buffer.from(data, tail * slotBytes, slotBytes);
    let next = state.free;
    try {
      if (kind === op.stop) closeAll();
      else if (kind === op.abort) {
        const file = files.get(id);
        files.delete(id);
        if (file) fs.closeSync(file.fd);
      } else if (Atomics.load(failed, 0) === 0) {
        if (kind === op.open) files.set(id, { fd: fs.openSync(slot.toString('utf8', 0, length), 'wx', 0o644), hash: crypto.createHash('sha256'), bytes: 0 });
        else if (kind === op.data) {
          const file = files.get(id);
          file.hash.update(slot.subarray(0, length));
          for (let off = 0; off < length;) off += fs.writeSync(file.fd, slot, off, length - off);
          file.bytes += length;
        } else if (kind === op.close) {
          const file = files.get(id);
          files.delete(id);
          fs.fsyncSync(file.fd);
          fs.closeSync(file.fd);
          meta[at + 3] = slot.write(`${file.hash.digest('hex')} ${file.bytes}`, 0, 'utf8');
          next = state.done;
        }
      }
    } catch (error: any) {
      if (Atomics.load(failed, 0) === 0) {
        failed[1] = Buffer.from(failure, 8).write(`${error.code ?? '-'} ${error.message}`, 0, 'utf8');
        Atomics.store(failed, 0, 1);
      }
    }
    Atomics.store(meta, at, next);
    Atomics.notify(meta, at);
    if (kind === op.stop) return;
  }
}
