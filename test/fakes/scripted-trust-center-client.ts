import type { AgencyProvider } from '../../src/domain/agency/providers';
import type { TlsIdentity } from '../../src/domain/agency/pulled-documents';
import {
  TrustCenterFailure,
  type TrustCenterClient,
  type TrustCenterRequest,
  type TrustCenterResponse,
  type TrustCenterSession,
} from '../../src/ports/trust-center-client';

/** One scripted answer: an HTTP response (JSON of `json`, or the bytes of `body`), or a failure the session rejects with. */
export type ScriptedAnswer =
  | {
      status?: number;
      headers?: Record<string, string>;
      /** The body as text or bytes (wins over `json`). */
      body?: string | Uint8Array;
      /** The body as the JSON of this value. */
      json?: unknown;
      tls?: TlsIdentity;
      attempts?: number;
      /** Turns of the event loop to wait before answering (for overlap between providers; never a wall-clock delay). */
      turns?: number;
    }
  | TrustCenterFailure;

/** What a URL answers: always the same, in turn (the last one repeated), or as a function of the request. */
export type Script = ScriptedAnswer | ScriptedAnswer[] | ((request: TrustCenterRequest) => ScriptedAnswer);

/** A request the client was asked, with the provider whose session asked it. */
export interface RecordedRequest extends TrustCenterRequest {
  provider: string;
}

/** The headers a FRC-CSO-JSN-compliant trust center sends with JSON. */
export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' };

/** The TLS identity scripted answers show unless they give their own. */
export const SCRIPTED_TLS: TlsIdentity = {
  fingerprint256: 'AA:'.repeat(31) + 'AA',
  subject: 'CN=trust.acme.example',
  issuer: 'CN=Acme CA',
  validTo: 'Dec 31 00:00:00 2027 GMT',
};

/**
 * TRUST_CENTER_CLIENT answering from a per-URL script (an unscripted URL answers 404 with a problem), recording every
 * request in order (with its etag and origin), the sessions opened and closed, and the most sessions open at once.
 * A provider's session can be made to fail at open (`failOpen`), as an unreadable key file does.
 */
export class ScriptedTrustCenterClient implements TrustCenterClient {
  readonly requests: RecordedRequest[] = [];
  readonly opened: { provider: string; settings: { timeoutMs: number; retries: number; maxDocumentBytes: number } }[] = [];
  readonly closed: string[] = [];
  /** The most sessions open at the same time so far. */
  maxOpen = 0;
  private open_ = 0;
  private readonly scripts = new Map<string, Script>();
  private readonly served = new Map<string, number>();
  private readonly openFailures = new Map<string, TrustCenterFailure>();

  /** Sets what `url` answers (replacing what it answered before). */
  script(url: string, script: Script): this {
    this.scripts.set(url, script);
    this.served.delete(url);
    return this;
  }

  /** Makes open() of `provider` throw `failure`. */
  failOpen(provider: string, failure: TrustCenterFailure): this {
    this.openFailures.set(provider, failure);
    return this;
  }

  /** The requests made of URLs under `base` (a provider's trust center), in order. */
  requestsUnder(base: string): RecordedRequest[] {
    return this.requests.filter((r) => r.url === base || r.url.startsWith(`${base}/`));
  }

  open(provider: AgencyProvider, settings: { timeoutMs: number; retries: number; maxDocumentBytes: number }): TrustCenterSession {
    const failure = this.openFailures.get(provider.name);
    if (failure !== undefined) throw failure;
    this.opened.push({ provider: provider.name, settings: { ...settings } });
    this.open_++;
    this.maxOpen = Math.max(this.maxOpen, this.open_);
    let closed = false;
    return {
      get: (request) => this.answer(provider.name, request),
      close: () => {
        if (closed) return;
        closed = true;
        this.open_--;
        this.closed.push(provider.name);
      },
    };
  }

  private async answer(provider: string, request: TrustCenterRequest): Promise<TrustCenterResponse> {
    this.requests.push({ provider, ...request });
    const answer = this.next(request);
    for (let i = 0; i < (answer instanceof TrustCenterFailure ? 1 : (answer.turns ?? 1)); i++) await new Promise((resolve) => setImmediate(resolve));
    if (answer instanceof TrustCenterFailure) throw answer;
    const body =
      answer.body !== undefined
        ? typeof answer.body === 'string'
          ? new TextEncoder().encode(answer.body)
          : Uint8Array.from(answer.body)
        : answer.json !== undefined
          ? new TextEncoder().encode(JSON.stringify(answer.json))
          : new Uint8Array();
    return {
      status: answer.status ?? 200,
      headers: Object.fromEntries(Object.entries(answer.headers ?? (answer.json !== undefined ? JSON_HEADERS : {})).map(([k, v]) => [k.toLowerCase(), v])),
      body,
      ...(answer.tls === undefined ? {} : { tls: answer.tls }),
      attempts: answer.attempts ?? 1,
    };
  }

  private next(request: TrustCenterRequest): ScriptedAnswer {
    const script = this.scripts.get(request.url);
    if (script === undefined) return { status: 404, headers: { 'content-type': 'application/problem+json' }, json: { title: 'Not Found', status: 404 } };
    if (typeof script === 'function') return script(request);
    if (!Array.isArray(script)) return script;
    const n = this.served.get(request.url) ?? 0;
    this.served.set(request.url, n + 1);
    return script[Math.min(n, script.length - 1)]!;
  }
}
