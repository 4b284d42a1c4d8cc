import { hostname as osHostname } from 'node:os';
import type { ConmonEvent } from '../../domain/conmon/conmon-event';
import type { DeliveryReport, SecurityEventSink } from '../../ports/security-event-sink';
import { deliverBatch, messageOf, type RetryPolicy, SendError } from './retry';

export interface HttpEventSinkOptions {
  /** The collector's endpoint, e.g. https://splunk.example:8088/services/collector/event; no credentials in it. */
  url: URL;
  retry: RetryPolicy;
  /** The HEC token (SVC_SINK_TOKEN), sent as `Authorization: Splunk <token>`; collectors without auth need none. */
  token?: string;
  /** `host` of every event; default os.hostname(). */
  hostname?: string;
  /** How long one request, body included, may take; default 10 s. */
  timeoutMs?: number;
}

/**
 * Posts a delivery as one Splunk HTTP Event Collector batch: HEC envelopes separated by newlines, which Splunk,
 * Cribl, Vector and Elastic's HEC input all read. 429 and 5xx are retried (after Retry-After when the collector
 * sends one), other refusals are not: a wrong token or path stays wrong. Redirects are not followed, so the token
 * never goes to a host nobody configured. The token is cut out of every message, since reports get logged.
 */
export class HttpEventSink implements SecurityEventSink {
  readonly name: string;
  private readonly host: string;

  constructor(private readonly options: HttpEventSinkOptions) {
    const { url } = options;
    this.name = `${url.protocol}//${url.host}${url.pathname}`;
    this.host = options.hostname ?? osHostname();
  }

  deliver(events: readonly ConmonEvent[]): Promise<DeliveryReport> {
    const body = events.map((event) => JSON.stringify(hecEnvelope(event, this.host))).join('\n');
    return deliverBatch(this.name, events.length, () => this.post(body), this.options.retry);
  }

  private async post(body: string): Promise<void> {
    const { url, token, timeoutMs = 10_000 } = this.options;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Splunk ${token}`;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method: 'POST', headers, body, signal: abort.signal, redirect: 'manual' });
      text = await response.text();
    } catch (error) {
      const reason = abort.signal.aborted ? `no answer within ${timeoutMs} ms` : networkReason(error);
      throw new SendError(this.redact(`${this.name}: ${reason}; check the URL and that the collector is running and reachable`), { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (response.ok) return;
    const { status } = response;
    const retryable = status === 429 || status >= 500;
    const said = collectorText(text);
    const reason = `answered ${status}${response.statusText ? ` ${response.statusText}` : ''}${said ? ` (${said})` : ''}`;
    throw new SendError(this.redact(`${this.name}: ${reason}; ${this.fix(status)}`), {
      retryable,
      retryAfterMs: retryable ? retryAfterMs(response.headers.get('retry-after')) : undefined,
    });
  }

  private fix(status: number): string {
    if (status === 401 || status === 403) return this.options.token ? 'check the token in SVC_SINK_TOKEN' : "set SVC_SINK_TOKEN to the collector's token";
    if (status === 404) return 'check the URL path (Splunk HEC: /services/collector/event)';
    if (status === 413) return "the batch is larger than the collector takes; raise the collector's maximum content length";
    if (status === 429 || status >= 500) return 'the collector is overloaded or failing; try again later';
    if (status >= 300 && status < 400) return 'point the sink at the URL the collector redirects to';
    return "check the URL and the collector's log";
  }

  private redact(message: string): string {
    const { token } = this.options;
    return token ? message.split(token).join('<SVC_SINK_TOKEN>') : message;
  }
}

/** HEC's event envelope; `time` in epoch seconds with the milliseconds as a fraction, left out when unparseable (HEC then uses receipt time). */
function hecEnvelope(event: ConmonEvent, host: string): Record<string, unknown> {
  const ms = Date.parse(event.time);
  return { ...(Number.isNaN(ms) ? {} : { time: ms / 1000 }), host, source: 'svc', sourcetype: 'svc:conmon', event };
}

/** fetch reports every network failure as "fetch failed"; the cause says which (ECONNREFUSED, ENOTFOUND, a TLS error). */
function networkReason(error: unknown): string {
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  return messageOf(cause ?? error);
}

/** The `text` of a HEC error body (`{"text":"Invalid token","code":4}`), one line and short; nothing for other bodies. */
function collectorText(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const text = typeof parsed === 'object' && parsed !== null ? (parsed as { text?: unknown }).text : undefined;
    return typeof text === 'string' && text.trim() !== '' ? text.replace(/\s+/g, ' ').trim().slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
