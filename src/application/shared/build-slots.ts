import { UnavailableError } from '../../domain/errors';

/** How many builds run at once, and how many more may wait for a turn. */
export interface BuildSlotLimits {
  running: number;
  waiting: number;
}

/** What a BuildSlots has done: for tests and logs. */
export interface BuildSlotCounts {
  /** Builds started (each key once while it is under way). */
  started: number;
  /** Builds refused because `waiting` were already waiting. */
  refused: number;
  /** The most that ran at once. */
  peakRunning: number;
}

interface Job {
  key: string;
  build: () => Promise<unknown>;
  settle: { resolve(value: unknown): void; reject(error: unknown): void };
}

/**
 * A bound on the work requests can cause (the trust center's snapshot documents and evidence indexes, docs/api.md
 * "Bounded work"): at most `running` builds at a time, at most `waiting` more queued in the order they came, and each
 * key built once while it is under way (concurrent askers for one key share its build: single flight). Past the queue,
 * `run` throws UnavailableError `busy` at once (the caller answers 503 with Retry-After): a request never queues work
 * without bound. A queued build starts on a later turn of the event loop, so requests already read are answered between
 * two builds.
 */
export class BuildSlots {
  readonly counts: BuildSlotCounts = { started: 0, refused: 0, peakRunning: 0 };
  private readonly underway = new Map<string, Promise<unknown>>();
  private readonly queue: Job[] = [];
  private running = 0;

  /** @param what names the builds in the busy message: `snapshot documents`. */
  constructor(
    private readonly limits: BuildSlotLimits,
    private readonly what: string,
  ) {}

  /** The build of `key`: the one under way, else `build()` now or after those queued, else UnavailableError `busy`. */
  run<T>(key: string, build: () => Promise<T>): Promise<T> {
    const shared = this.underway.get(key);
    if (shared !== undefined) return shared as Promise<T>;
    if (this.running >= this.limits.running && this.queue.length >= this.limits.waiting) {
      this.counts.refused += 1;
      throw new UnavailableError(
        'busy',
        `the server is building ${this.what} (${this.running} at a time, ${this.queue.length} more waiting, the most it queues); retry after the Retry-After seconds`,
      );
    }
    const done = new Promise<T>((resolve, reject) => {
      const job: Job = { key, build, settle: { resolve: resolve as (value: unknown) => void, reject } };
      if (this.running < this.limits.running) this.start(job);
      else this.queue.push(job);
    });
    this.underway.set(key, done);
    // The entry goes when the build ends, whatever its outcome: a later asker builds again, or reads what was kept.
    const forget = () => {
      if (this.underway.get(key) === done) this.underway.delete(key);
    };
    done.then(forget, forget);
    return done;
  }

  /** Whether a build of `key` is under way (running or queued): `run` would share it. */
  has(key: string): boolean {
    return this.underway.has(key);
  }

  /** Builds running now, and queued. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  private start(job: Job): void {
    this.running += 1;
    this.counts.started += 1;
    this.counts.peakRunning = Math.max(this.counts.peakRunning, this.running);
    let outcome: Promise<unknown>;
    try {
      outcome = job.build();
    } catch (error) {
      outcome = Promise.reject(error);
    }
    outcome.then(job.settle.resolve, job.settle.reject).finally(() => {
      this.running -= 1;
      const next = this.queue.shift();
      if (next === undefined) return;
      // The slot is taken now, the build begun on the next turn: requests read meanwhile are answered first.
      this.running += 1;
      setImmediate(() => {
        this.running -= 1;
        this.start(next);
      });
    });
  }
}
