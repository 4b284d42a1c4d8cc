import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { connect, isIPv6 } from 'node:net';
import { hostname as osHostname } from 'node:os';
import { type ConmonEvent, SYSLOG_SEVERITY } from '../../domain/conmon/conmon-event';
import { ConfigError } from '../../domain/errors';
import type { DeliveryReport, SecurityEventSink } from '../../ports/security-event-sink';
import { deliverBatch, messageOf, type RetryPolicy, SendError } from './retry';

/** local0: the first facility RFC 5424 leaves to local use, so svc's lines do not mix with the system's own. */
export const DEFAULT_SYSLOG_FACILITY = 16;

/** The private enterprise number RFC 5612 reserves for documentation: svc has none of its own to put in SD-IDs. */
const SD_ID = 'svc@32473';
const APP_NAME = 'svc';
/** RFC 5426 §3.2 asks receivers to take 2048 bytes and lets them take more; rsyslog and syslog-ng take 8 KiB. */
const UDP_MAX_BYTES = 8192;
const RFC5424_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})$/;

export interface SyslogSinkOptions {
  transport: 'tcp' | 'udp';
  /** A host name or IP address (an IPv6 address without brackets). */
  host: string;
  port: number;
  retry: RetryPolicy;
  /** 0–23; default 16 (local0). */
  facility?: number;
  /** HOSTNAME of every message; default os.hostname(). */
  hostname?: string;
  /** TCP only: how long connecting, or a stalled write, may take; default 5 s. */
  timeoutMs?: number;
}

/**
 * RFC 5424 syslog: `<PRI>1 TIMESTAMP HOSTNAME svc PROCID MSGID [svc@32473 event_id kind ksi_id poam_id run] MSG`,
 * MSGID the event kind and MSG the event's JSON. MSG is sent as MSG-ANY, without the BOM RFC 5424 §6.4 suggests for
 * MSG-UTF8: it is JSON, which is UTF-8 by definition and must not start with a BOM on the wire (RFC 8259 §8.1), and
 * collectors that parse MSG as JSON (rsyslog mmjsonparse, Splunk KV_MODE=json) would stumble on it.
 *
 * TCP (RFC 6587 octet counting, one connection per delivery) is the transport to choose: a delivery there means
 * the collector's kernel took every byte. Over UDP each event is one datagram that may be lost without notice, and
 * one that would exceed 8 KiB is sent without `data` and with `"truncated": true` rather than be cut mid-JSON.
 */
export class SyslogSink implements SecurityEventSink {
  readonly name: string;
  private readonly facility: number;
  private readonly hostname: string;

  constructor(private readonly options: SyslogSinkOptions) {
    this.facility = syslogFacility(options.facility);
    this.hostname = headerField(options.hostname ?? osHostname(), 255);
    this.name = `syslog+${options.transport}://${isIPv6(options.host) ? `[${options.host}]` : options.host}:${options.port}`;
  }

  deliver(events: readonly ConmonEvent[]): Promise<DeliveryReport> {
    const send =
      this.options.transport === 'tcp'
        ? () => this.sendTcp(Buffer.concat(events.map((event) => octetCounted(this.message(event, JSON.stringify(event))))))
        : () => this.sendUdp(events.map((event) => this.datagram(event)));
    return deliverBatch(this.name, events.length, send, this.options.retry);
  }

  private message(event: ConmonEvent, msg: string): Buffer {
    const pri = this.facility * 8 + SYSLOG_SEVERITY[event.severity];
    return Buffer.from(
      `<${pri}>1 ${timestamp(event.time)} ${this.hostname} ${APP_NAME} ${process.pid} ${headerField(event.kind, 32)} ${structuredData(event)} ${msg}`,
      'utf8',
    );
  }

  private datagram(event: ConmonEvent): Buffer {
    const whole = this.message(event, JSON.stringify(event));
    if (whole.length <= UDP_MAX_BYTES) return whole;
    // A summary is one line, so without `data` an event fits; were it still larger, it goes as it is.
    const { data: _dropped, ...rest } = event;
    return this.message(event, JSON.stringify({ ...rest, truncated: true }));
  }

  /** Resolves once every byte and the FIN are handed to the kernel; no answer is expected, so the socket is destroyed then. */
  private sendTcp(payload: Buffer): Promise<void> {
    const { host, port, timeoutMs = 5000 } = this.options;
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const fail = (error: Error): void => {
        socket.destroy();
        reject(this.failure(error, 'TCP'));
      };
      socket.setTimeout(timeoutMs, () => fail(new Error(`no progress within ${timeoutMs} ms`)));
      socket.on('error', fail);
      socket.once('finish', () => {
        socket.destroy();
        resolve();
      });
      socket.once('connect', () => socket.end(payload));
    });
  }

  /** One socket per delivery, closed whatever happens; the name is looked up once, not per datagram. */
  private async sendUdp(datagrams: readonly Buffer[]): Promise<void> {
    const { host, port } = this.options;
    let socket: ReturnType<typeof createSocket> | undefined;
    try {
      const { address, family } = await lookup(host);
      const open = createSocket(family === 6 ? 'udp6' : 'udp4');
      socket = open;
      // Bind errors are emitted rather than passed to send's callback.
      const broken = new Promise<never>((_, reject) => open.once('error', reject));
      broken.catch(() => undefined);
      for (const datagram of datagrams) {
        await Promise.race([
          new Promise<void>((resolve, reject) => open.send(datagram, port, address, (error) => (error ? reject(error) : resolve()))),
          broken,
        ]);
      }
    } catch (error) {
      throw this.failure(error, 'UDP');
    } finally {
      socket?.close();
    }
  }

  private failure(error: unknown, transport: string): SendError {
    return new SendError(`${this.name}: ${messageOf(error)}; check the host and port and that a syslog collector listens there over ${transport}`, {
      cause: error,
    });
  }
}

/** The facility to use, checked: RFC 5424 §6.2.1 numbers them 0 to 23. */
export function syslogFacility(facility = DEFAULT_SYSLOG_FACILITY): number {
  if (!Number.isInteger(facility) || facility < 0 || facility > 23) {
    throw new ConfigError('bad-syslog-facility', `syslog facility ${facility}: expected a whole number from 0 to 23 (16 is local0)`);
  }
  return facility;
}

/** RFC 6587 §3.4.1: `MSG-LEN SP SYSLOG-MSG`, MSG-LEN in octets, so a message may hold newlines and any UTF-8. */
function octetCounted(message: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${message.length} `, 'ascii'), message]);
}

/** RFC 5424 §6.3: SD-PARAM values escape `"`, `\` and `]`; a null field is left out rather than sent as "null". */
function structuredData(event: ConmonEvent): string {
  const params: [string, string | null][] = [
    ['event_id', event.event_id],
    ['kind', event.kind],
    ['ksi_id', event.ksi_id],
    ['poam_id', event.poam_id],
    ['run', event.run.id],
  ];
  const present = params.filter((param): param is [string, string] => param[1] !== null);
  return `[${SD_ID} ${present.map(([name, value]) => `${name}="${value.replace(/["\\\]]/g, '\\$&')}"`).join(' ')}]`;
}

/** The event's time when it already is an RFC 5424 TIMESTAMP (at most 6 fraction digits), else as UTC, else NILVALUE. */
function timestamp(time: string): string {
  if (RFC5424_TIMESTAMP.test(time)) return time;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? '-' : new Date(ms).toISOString();
}

/** RFC 5424 §6.2 header fields are 1*n PRINTUSASCII (no spaces), `-` when there is nothing to say. */
function headerField(value: string, max: number): string {
  const printable = value.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return printable === '' ? '-' : printable;
}
