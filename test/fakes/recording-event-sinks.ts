import type { ConmonEvent } from '../../src/domain/conmon/conmon-event';
import { UsageError } from '../../src/domain/errors';
import type { DeliveryReport, SecurityEventSink, SecurityEventSinks } from '../../src/ports/security-event-sink';

/**
 * SECURITY_EVENT_SINKS that keeps what each sink received. A spec `fail:<name>` opens a sink that reports a failed
 * delivery (as a real sink does after its retries); a spec without a colon is refused like a bad --sink.
 */
export class RecordingEventSinks implements SecurityEventSinks {
  readonly received = new Map<string, ConmonEvent[]>();
  readonly opened: string[][] = [];

  open(specs: readonly string[]): SecurityEventSink[] {
    this.opened.push([...specs]);
    return specs.map((spec) => {
      if (!spec.includes(':')) throw new UsageError('bad-sink', `--sink ${spec}: not a sink`);
      return {
        name: spec,
        deliver: async (events: readonly ConmonEvent[]): Promise<DeliveryReport> => {
          if (spec.startsWith('fail:')) return { sink: spec, delivered: 0, attempts: 4, error: 'connect ECONNREFUSED' };
          this.received.set(spec, [...(this.received.get(spec) ?? []), ...events]);
          return { sink: spec, delivered: events.length, attempts: 1 };
        },
      };
    });
  }
}
