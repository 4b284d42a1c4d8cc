import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/**
 * A full garbage collection by V8, where the runtime allows one (the flag is set on first use, as jest does for its
 * leak detection); nothing otherwise. V8 collects its old generation lazily against a heap limit of several GB, so a
 * process that streams gigabytes through short-lived pieces (the documents of a million-result run) would otherwise
 * grow to several times what it holds; collecting now and then keeps it near what it holds.
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}

/** Collects once every `bytes` bytes noted: a writer of large streams notes what it wrote. */
export class GarbagePace {
  private since = 0;

  constructor(private readonly bytes: number) {}

  note(written: number): void {
    this.since += written;
    if (this.since < this.bytes) return;
    this.since = 0;
    collectGarbage();
  }
}
