import type { InjectionToken } from 'tsyringe';
import type { ConmonEvent } from '../domain/conmon/conmon-event';

/** How one delivery went, after the sink's retries. */
export interface DeliveryReport {
  /** The sink as configured, without secrets (`syslog+tcp://127.0.0.1:5514`, `ndjson:/var/log/svc.ndjson`). */
  sink: string;
  delivered: number;
  /** Attempts made in all (1 when the first succeeded). */
  attempts: number;
  /** Why the last attempt failed; absent when delivered. */
  error?: string;
}

/**
 * Where continuous-monitoring events go (a SIEM): an ndjson file, RFC 5424 syslog over TCP or UDP, or an HTTP
 * collector (Splunk HEC-style). `deliver` never throws for a failing destination: it retries with back-off and
 * reports the failure, so recording a run never depends on a sink.
 */
export interface SecurityEventSink {
  readonly name: string;
  deliver(events: readonly ConmonEvent[]): Promise<DeliveryReport>;
}

/** Builds the sinks of a `--sink` list (and of svc.config.json's conmon.sinks). */
export interface SecurityEventSinks {
  /**
   * One sink per spec: `ndjson:<path>`, `syslog+tcp://host:port`, `syslog+udp://host:port`, `http(s)://host[:port]/path`.
   * Throws UsageError naming the spec and the accepted forms when one cannot be understood.
   */
  open(specs: readonly string[]): SecurityEventSink[];
}

export const SECURITY_EVENT_SINKS: InjectionToken<SecurityEventSinks> = Symbol('SecurityEventSinks');
