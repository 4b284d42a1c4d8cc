import { ConfigError, IntegrityError, NotFoundError, UnavailableError } from '../../domain/errors';
import type { GraphRetryBudget } from '../../ports/graph-settings';
import type { HttpAnswer, HttpsTransport } from './https-transport';
import { networkReason } from './https-transport';
import type { TokenSource } from './msal-token-source';

export type Sleep = (ms: number) => Promise<void>;

export interface GraphClientOptions {
  /** `host[:port]` Graph is called on, e.g. graph.microsoft.us. */
  graphHost: string;
  tokens: TokenSource;
  transport: HttpsTransport;
  retry: GraphRetryBudget;
  /** Shown in permission messages so the operator knows which app registration to fix. */
  clientId?: string;
  sleep?: Sleep;
  now?: () => number;
}

export interface ListQuery {
  select: readonly string[];
  top?: number;
}

/**
 * Microsoft Graph v1.0 over HttpsTransport with the rules of STYLE §8: `$select` on every read, `@odata.nextLink`
 * paging (only links on the Graph host itself: a link elsewhere would carry the token to another host), 429 and 503
 * retried after Retry-After (seconds or an HTTP date; doubling from 1 s without one) within a budget of attempts
 * and total wait, then UnavailableError. 401/403 become ConfigError naming the application permission the call
 * needs; 404 NotFoundError; 400 ConfigError (a request svc built from the settings); network failures and other
 * answers UnavailableError. Tokens never appear in messages.
 */
export class GraphClient {
  private readonly base: URL;
  private readonly sleep: Sleep;
  private readonly now: () => number;

  constructor(private readonly options: GraphClientOptions) {
    this.base = new URL(`https://${options.graphHost}/v1.0/`);
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
  }

  /** Every item of a collection, following nextLinks. `path` is relative to /v1.0/, e.g. `users`. */
  async list(path: string, query: ListQuery, permissions: readonly string[]): Promise<Record<string, unknown>[]> {
    const first = new URL(path, this.base);
    first.searchParams.set('$select', query.select.join(','));
    if (query.top !== undefined) first.searchParams.set('$top', String(query.top));
    const items: Record<string, unknown>[] = [];
    let url: URL | undefined = first;
    while (url !== undefined) {
      const page = await this.call('GET', url, permissions);
      const value = isObject(page) ? page.value : undefined;
      if (!Array.isArray(value))
        throw new IntegrityError(
          'graph-unexpected-answer',
          `${describeEndpoint('GET', url)}: the answer has no "value" array; check graph.graph_host points at Microsoft Graph`,
        );
      for (const item of value) if (isObject(item)) items.push(item);
      const next = isObject(page) ? page['@odata.nextLink'] : undefined;
      url = typeof next === 'string' ? this.sameHost(next, url) : undefined;
    }
    return items;
  }

  /** One request; resolves with the parsed JSON body (undefined for 204). */
  async send(method: 'GET' | 'PATCH', path: string, permissions: readonly string[], body?: unknown): Promise<unknown> {
    return this.call(method, new URL(path, this.base), permissions, body);
  }

  private sameHost(next: string, from: URL): URL {
    let url: URL;
    try {
      url = new URL(next);
    } catch {
      throw new IntegrityError('graph-foreign-next-link', `${describeEndpoint('GET', from)}: the @odata.nextLink is not a URL; refusing to follow it`);
    }
    if (url.protocol !== 'https:' || url.host !== this.base.host) {
      throw new IntegrityError(
        'graph-foreign-next-link',
        `${describeEndpoint('GET', from)}: the @odata.nextLink points at ${url.protocol}//${url.host}, not ${this.base.host}; refusing to send the token there`,
      );
    }
    return url;
  }

  private async call(method: 'GET' | 'PATCH', url: URL, permissions: readonly string[], body?: unknown): Promise<unknown> {
    const { retry } = this.options;
    const endpoint = describeEndpoint(method, url);
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const token = await this.options.tokens.getToken();
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      let answer: HttpAnswer;
      try {
        answer = await this.options.transport.send({ method, url: url.href, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch (error) {
        throw new UnavailableError(
          'graph-unreachable',
          `${endpoint}: ${networkReason(error)}; check graph.cloud (or graph.graph_host), the network and graph.ca_file`,
          { cause: error },
        );
      }
      const { status } = answer;
      if (status === 429 || status === 503) {
        const wait = retryAfterMs(answer.headers['retry-after'], this.now()) ?? 1000 * 2 ** (attempt - 1);
        if (attempt >= retry.attempts || waited + wait > retry.maxWaitMs) {
          throw new UnavailableError(
            'graph-throttled',
            `${endpoint}: Microsoft Graph answered ${status} ${status === 429 ? 'Too Many Requests' : 'Service Unavailable'} ${attempt} time(s), waited ${waited / 1000} s; try again later or raise graph.retry (attempts ${retry.attempts}, max_wait_seconds ${retry.maxWaitMs / 1000})`,
          );
        }
        await this.sleep(wait);
        waited += wait;
        continue;
      }
      if (status >= 200 && status < 300) return parseBody(answer, endpoint);
      throw this.refusal(endpoint, answer, permissions);
    }
  }

  private refusal(endpoint: string, answer: HttpAnswer, permissions: readonly string[]): Error {
    const { status } = answer;
    const said = graphError(answer.body);
    const because = said ? ` (${said})` : '';
    if (status === 401 || status === 403) {
      const app = this.options.clientId ? `app ${this.options.clientId}` : 'the app';
      return new ConfigError(
        'graph-permission-missing',
        `${endpoint}: Microsoft Graph answered ${status}${because}; grant ${app} the application permission ${permissions.join(' and ')} and give admin consent`,
      );
    }
    if (status === 404)
      return new NotFoundError('graph-not-found', `${endpoint}: Microsoft Graph answered 404${because}; the object does not exist in the tenant`);
    if (status === 400)
      return new ConfigError(
        'graph-bad-request',
        `${endpoint}: Microsoft Graph answered 400${because}; check the graph settings (e.g. graph.orgpath_attribute names a user property)`,
      );
    return new UnavailableError('graph-error', `${endpoint}: Microsoft Graph answered ${status}${because}; try again later`);
  }
}

/** `GET https://graph.microsoft.com/v1.0/users`: method and URL without the query, for messages. */
function describeEndpoint(method: string, url: URL): string {
  return `${method} ${url.origin}${url.pathname}`;
}

function parseBody(answer: HttpAnswer, endpoint: string): unknown {
  if (answer.status === 204 || answer.body.trim() === '') return undefined;
  try {
    return JSON.parse(answer.body);
  } catch (error) {
    throw new IntegrityError('graph-unexpected-answer', `${endpoint}: the answer is not JSON; check graph.graph_host points at Microsoft Graph`, {
      cause: error,
    });
  }
}

/** Graph's error body `{"error": {"code", "message"}}` as `code: message`, one line, short. */
function graphError(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = isObject(parsed) ? parsed.error : undefined;
    if (!isObject(error)) return undefined;
    const parts = [error.code, error.message].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    return parts.length === 0 ? undefined : parts.join(': ').replace(/\s+/g, ' ').trim().slice(0, 200);
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3), in milliseconds from `now`. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
