import { resolve } from 'node:path';
import { ConfigError, UsageError } from '../../domain/errors';
import type { SecurityEventSink, SecurityEventSinks } from '../../ports/security-event-sink';
import { HttpEventSink } from './http-event-sink';
import { NdjsonFileSink } from './ndjson-file-sink';
import { retryPolicy, type RetryPolicy } from './retry';
import { SyslogSink, syslogFacility } from './syslog-sink';

export interface SinkFactoryOptions {
  /** SVC_SINK_TOKEN: the HTTP collector's token, kept off the command line (and out of `ps`). */
  token?: string;
  retry?: Partial<RetryPolicy>;
  /** Syslog facility 0–23; default 16 (local0). */
  facility?: number;
  /** The host name sinks report; default os.hostname(). */
  hostname?: string;
  /** What a relative `ndjson:` path is resolved against; default process.cwd(). */
  cwd?: string;
}

const FORMS = 'use ndjson:<file>, syslog+tcp://host:port, syslog+udp://host:port or https://host/path';
const DEFAULT_SYSLOG_PORT = 514;

/** Builds sinks from `--sink` specs. Options are checked here, so a bad retry policy or facility fails before any run starts. */
export class SinkFactory implements SecurityEventSinks {
  private readonly retry: RetryPolicy;
  private readonly token?: string;

  constructor(private readonly options: SinkFactoryOptions = {}) {
    this.retry = retryPolicy(options.retry);
    syslogFacility(options.facility);
    // An empty SVC_SINK_TOKEN= counts as unset, and the newline of a token read from a file is not part of it.
    const token = options.token?.trim() || undefined;
    if (token !== undefined && !/^[\x21-\x7e]+$/.test(token))
      throw new ConfigError('bad-sink-token', 'SVC_SINK_TOKEN: contains spaces or control characters; set it to the token alone');
    this.token = token;
  }

  open(specs: readonly string[]): SecurityEventSink[] {
    return specs.map((spec) => this.openOne(spec));
  }

  private openOne(spec: string): SecurityEventSink {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(spec)?.[1].toLowerCase();
    switch (scheme) {
      case 'ndjson': {
        const path = spec.slice('ndjson:'.length);
        if (path.trim() === '') throw badSink(spec, 'no file path');
        return new NdjsonFileSink(resolve(this.options.cwd ?? process.cwd(), path), this.retry);
      }
      case 'syslog+tcp':
      case 'syslog+udp':
        return this.syslog(spec, scheme === 'syslog+tcp' ? 'tcp' : 'udp');
      case 'http':
      case 'https':
        return this.http(spec);
      default:
        throw badSink(spec, 'not a sink');
    }
  }

  private syslog(spec: string, transport: 'tcp' | 'udp'): SecurityEventSink {
    const url = parseUrl(spec);
    const port = url?.port === '' ? DEFAULT_SYSLOG_PORT : Number(url?.port);
    if (!url || url.hostname === '' || url.username || url.password || url.search || url.hash || (url.pathname !== '' && url.pathname !== '/') || port === 0) {
      throw badSink(spec, `expected syslog+${transport}://host:port with a port from 1 to 65535`);
    }
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    return new SyslogSink({ transport, host, port, retry: this.retry, facility: this.options.facility, hostname: this.options.hostname });
  }

  private http(spec: string): SecurityEventSink {
    const url = parseUrl(spec);
    if (!url || url.hostname === '') throw badSink(spec, 'not a valid URL');
    const shown = `${url.protocol}//${url.host}${url.pathname}`;
    const tokenParameter = [...url.searchParams.keys()].some((key) => /token/i.test(key));
    if (url.username || url.password || tokenParameter) {
      // The message names the URL without the secret: usage errors are printed and logged.
      throw new UsageError(
        'sink-token-in-url',
        `--sink ${shown}: credentials in the URL; put the token in SVC_SINK_TOKEN instead (a command line shows up in ps)`,
      );
    }
    return new HttpEventSink({ url, retry: this.retry, token: this.token, hostname: this.options.hostname });
  }
}

function parseUrl(spec: string): URL | undefined {
  try {
    return new URL(spec);
  } catch {
    return undefined;
  }
}

function badSink(spec: string, problem: string): UsageError {
  return new UsageError('bad-sink', `--sink ${withoutSecrets(spec)}: ${problem}; ${FORMS}`);
}

/** A malformed spec may still hold a password or a token; neither belongs in an error message. */
function withoutSecrets(spec: string): string {
  return spec.replace(/\/\/[^/?#]*@/, '//').replace(/([?&][^=&#]*token[^=&#]*=)[^&#]*/gi, '$1…');
}
