import type { Clock } from '../../ports/clock';

/** How long a check of the store for something newer is trusted, in milliseconds. */
export const RECHECK_MS = 1000;

/**
 * A value read from the store at most once every RECHECK_MS (the API's current run, the trust center's store state):
 * askers in between get the value read last, concurrent askers share one read, and a read that fails is not kept.
 */
export class Rechecked<T> {
  private value: T | undefined;
  private readAt = -Infinity;
  private reading: Promise<T> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly read: (now: number, last: T | undefined) => Promise<T>,
  ) {}

  get(): Promise<T> {
    const now = this.clock.now().getTime();
    if (this.value !== undefined && now - this.readAt < RECHECK_MS) return Promise.resolve(this.value);
    this.reading ??= this.read(now, this.value)
      .then((value) => {
        this.value = value;
        this.readAt = now;
        return value;
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}
