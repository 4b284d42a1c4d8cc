import { CronExpressionParser } from 'cron-parser';
import type { CronSchedule } from '../../ports/cron-schedule';

/** Cron expressions by cron-parser, in UTC; exactly 5 fields or 6 (seconds first): no macros such as @daily. */
export class CronParserSchedule implements CronSchedule {
  validate(expression: string): string | undefined {
    const fields = expression
      .trim()
      .split(/\s+/)
      .filter((f) => f !== '');
    if (fields.length !== 5 && fields.length !== 6) {
      return `has ${fields.length} fields; expected 5 (minute hour day-of-month month day-of-week), or 6 with seconds first`;
    }
    try {
      CronExpressionParser.parse(expression, { tz: 'UTC' });
      return undefined;
    } catch (error) {
      return `is not a cron expression (${(error as Error).message})`;
    }
  }

  next(expression: string, after: Date): Date {
    return CronExpressionParser.parse(expression, { currentDate: after, tz: 'UTC' }).next().toDate();
  }
}
