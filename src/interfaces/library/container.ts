import { SystemClock } from '../../infrastructure/clock/system-clock';
import { SystemTimer } from '../../infrastructure/orchestrator/system-timer';
import type { Clock } from '../../ports/clock';
import type { Timer } from '../../ports/timer';

/**
 * The composition root of the library entries: the real clock and timer. The audit trail records when things
 * happened, so its clock is the wall clock even when SOURCE_DATE_EPOCH pins the time of rebuilt artifacts.
 */
export function systemTime(): { clock: Clock; timer: Timer } {
  return { clock: new SystemClock(undefined), timer: new SystemTimer() };
}
