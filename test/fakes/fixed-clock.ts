import type { Clock } from '../../src/ports/clock';

export class FixedClock implements Clock {
  constructor(public time = new Date('2026-11-20T12:00:00Z')) {}

  now(): Date {
    return this.time;
  }
}
