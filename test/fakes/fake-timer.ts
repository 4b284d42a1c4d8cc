import type { Timer } from '../../src/ports/timer';

interface Sleeper {
  due: number;
  wake: () => void;
}

/** A timer that only moves when a test calls advance(); sleepers wake when their time comes or their signal aborts. */
export class FakeTimer implements Timer {
  readonly sleepers = new Set<Sleeper>();
  /** Every ms asked of sleep(), in order. */
  readonly requested: number[] = [];
  private time: number;

  constructor(start = new Date('2026-11-20T12:00:00Z')) {
    this.time = start.getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.requested.push(ms);
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        due: this.time + ms,
        wake: () => {
          this.sleepers.delete(sleeper);
          signal?.removeEventListener('abort', sleeper.wake);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
      signal?.addEventListener('abort', sleeper.wake, { once: true });
    });
  }

  advance(ms: number): void {
    this.time += ms;
    for (const sleeper of [...this.sleepers]) if (sleeper.due <= this.time) sleeper.wake();
  }
}
