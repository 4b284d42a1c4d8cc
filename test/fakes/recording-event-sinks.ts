import type { ConmonEvent } from '../../src/domain/conmon/conmon-event';
import { UsageError } from '../../src/domain/errors';
import type { DeliveryReport, SecurityEventSink, SecurityEventSinks } from '../../src/ports/security-event-sink';

const FORMS = 'use ndjson:<file>, syslog+tcp://host:port, syslog+udp://host:port or https://host/path';

/** The spec forms of the port (SecurityEventSinks.open), and the fake's own `fail:<name>`. */
const ACCEPTED = /^(?:ndjson:.*\S.*|syslog\+(?:tcp|udp):\/\/[^/?#\s]+\/?|https?:\/\/[^/?#\s]+.*|fail:.+)$/i;

/**
 * SECURITY_EVENT_SINKS that keeps what each sink received, by spec, as the destination would have it (a copy taken
 * at delivery). A spec `fail:<name>` opens a sink that reports a failed delivery (as a real sink does after its
 * retries). Specs are refused as a bad --sink is: UsageError bad-sink for one not of the port's forms,
 * sink-token-in-url (not repeating the secret) for a URL with credentials in it.
 */
export class RecordingEventSinks implements SecurityEventSinks {
  readonly received = new Map<string, ConmonEvent[]>();
  readonly opened: string[][] = [];

  open(specs: readonly string[]): SecurityEventSink[] {
    this.opened.push([...specs]);
    return specs.map((spec) => {
      const url = /^https?:\/\//i.test(spec) ? urlOf(spec) : undefined;
      if (!ACCEPTED.test(spec) || url === null) throw new UsageError('bad-sink', `--sink ${withoutSecrets(spec)}: not a sink; ${FORMS}`);
      if (url && (url.username || url.password || [...url.searchParams.keys()].some((key) => /token/i.test(key)))) {
        throw new UsageError(
          'sink-token-in-url',
          `--sink ${url.protocol}//${url.host}${url.pathname}: credentials in the URL; put the token in SVC_SINK_TOKEN instead (a command line shows up in ps)`,
        );
      }
      // Named as the real sinks name an HTTP collector: without the query, which may carry a channel or more.
      const name = url ? `${url.protocol}//${url.host}${url.pathname}` : spec;
      return {
        name,
        deliver: async (events: readonly ConmonEvent[]): Promise<DeliveryReport> => {
          // As the real sinks: no events is no work, not even for a failing destination.
          if (events.length === 0) return { sink: name, delivered: 0, attempts: 0 };
          if (spec.startsWith('fail:')) return { sink: name, delivered: 0, attempts: 4, error: 'connect ECONNREFUSED' };
          const copies = JSON.parse(JSON.stringify(events)) as ConmonEvent[];
          this.received.set(spec, [...(this.received.get(spec) ?? []), ...copies]);
          return { sink: name, delivered: events.length, attempts: 1 };
        },
      };
    });
  }
}

function urlOf(spec: string): URL | null {
  try {
    return new URL(spec);
  } catch {
    return null;
  }
}

/** A spec that is refused may still hold a password or a token; neither belongs in an error message. */
function withoutSecrets(spec: string): string {
  return spec.replace(/\/\/[^/?#]*@/, '//').replace(/([?&][^=&#]*token[^=&#]*=)[^&#]*/gi, '$1…');
}
