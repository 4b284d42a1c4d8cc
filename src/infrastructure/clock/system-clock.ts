import { ConfigError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';

/**
 * Wall-clock time, or the fixed time of SOURCE_DATE_EPOCH (reproducible-builds.org) when it is set. A
 * malformed value is reported when the time is first needed, so commands that never ask are not stopped.
 */
export class SystemClock implements Clock {
  constructor(private readonly sourceDateEpoch: string | undefined) {}

  now(): Date {
    const epoch = this.sourceDateEpoch;
    if (epoch === undefined || epoch === '') return new Date();
    if (!/^\d{1,12}$/.test(epoch)) {
      throw new ConfigError(
        'bad-source-date-epoch',
        `SOURCE_DATE_EPOCH=${epoch.slice(0, 40)} is not a count of seconds since 1970; set it to e.g. $(git log -1 --format=%ct) or unset it`,
      );
    }
    return new Date(Number(epoch) * 1000);
  }
}
