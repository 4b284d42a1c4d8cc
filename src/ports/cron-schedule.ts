import type { InjectionToken } from 'tsyringe';

/** Cron expressions in UTC: 5 fields, or 6 with seconds first. */
export interface CronSchedule {
  /** What is wrong with the expression (a phrase to follow it in a message), or undefined when it is valid. */
  validate(expression: string): string | undefined;
  /** The first time strictly after `after` the expression matches. The expression must be valid. */
  next(expression: string, after: Date): Date;
}

export const CRON_SCHEDULE: InjectionToken<CronSchedule> = Symbol('CronSchedule');
