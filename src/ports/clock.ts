import type { InjectionToken } from 'tsyringe';

/** The run's time: `SOURCE_DATE_EPOCH` when set, so rebuilt artifacts are byte-identical. */
export interface Clock {
  now(): Date;
}

export const CLOCK: InjectionToken<Clock> = Symbol('Clock');
