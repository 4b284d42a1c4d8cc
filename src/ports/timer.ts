import type { InjectionToken } from 'tsyringe';

/** Wall-clock time for scheduling (never SOURCE_DATE_EPOCH: a scheduler lives in real time). */
export interface Timer {
  now(): Date;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const TIMER: InjectionToken<Timer> = Symbol('Timer');
