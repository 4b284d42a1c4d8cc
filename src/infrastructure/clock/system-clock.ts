import { ConfigError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';

/** Wall-clock time, or the fixed time of SOURCE_DATE_EPOCH (reproducible-builds.org) when it is set. */
export class SystemClock implements Clock {
  private readonly fixed?: Date;

  constructor(sourceDateEpoch: string | undefined) {
    if (sourceDateEpoch === undefined || sourceDateEpoch === '') return;
    if (!/^\d{1,12}$/.test(sourceDateEpoch)) {
      throw new ConfigError('bad-source-date-epoch', `SOURCE_DATE_EPOCH=${sourceDateEpoch.slice(0, 40)} is not a count of seconds since 1970; set it to e.g. $(git log -1 --format=%ct) or unset it`);
    }
    this.fixed = new Date(Number(sourceDateEpoch) * 1000);
  }

  now(): Date {
    return this.fixed ?? new Date();
  }
}
