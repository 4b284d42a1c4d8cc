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
      // Required here, not at start-up: most commands never stream a run (and `svc --version` stays fast).
      /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, above */
      const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
      const { runInNewContext } = require('node:vm') as typeof import('node:vm');
      /* eslint-enable @typescript-eslint/no-require-imports */
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}

const PACE_BYTES = 128 * 2 ** 20;
let streamed = 0;

/**
 * Notes `bytes` read or written by a stream of a run's size (a report read an item at a time, a run's documents
 * written); every 128 MiB of them, V8 collects. The readers and writers of such streams call it; nothing else needs to.
 */
export function noteStreamed(bytes: number): void {
  streamed += bytes;
  if (streamed < PACE_BYTES) return;
  streamed = 0;
  collectGarbage();
}
