import type { InjectionToken } from 'tsyringe';

/** Progress of a long job, for a person watching a terminal; silent otherwise. */
export interface Progress {
  start(label: string, total: number): void;
  advance(done: number): void;
  stop(): void;
}

export const PROGRESS: InjectionToken<Progress> = Symbol('Progress');
