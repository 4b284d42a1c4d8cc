import { closeSync, openSync, writeSync } from 'node:fs';
import type { Fragment, FragmentSink } from '../../domain/artifacts/partition';

const BATCH = 1 << 20;

/** A TextSink into a fragment file on a worker thread: text encoded into one buffer, written a megabyte at a time. */
export class FragmentFile implements FragmentSink {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafe(BATCH);
  private used = 0;
  private bytes = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'wx', 0o600);
  }

  write(text: string): void {
    if (this.used + text.length * 3 > BATCH) {
      this.flush();
      if (text.length * 3 > BATCH) return this.emit(Buffer.from(text, 'utf8'));
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  close(): Fragment {
    this.flush();
    closeSync(this.fd);
    return { path: this.path, bytes: this.bytes };
  }

  private flush(): void {
    this.emit(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private emit(bytes: Buffer): void {
    for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at);
    this.bytes += bytes.length;
  }
}
