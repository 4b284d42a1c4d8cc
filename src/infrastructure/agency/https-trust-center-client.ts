import type { X509Certificate } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AgencyProvider } from '../../domain/agency/providers';
import type { TlsIdentity } from '../../domain/agency/pulled-documents';
import { TrustCenterFailure, type TrustCenterFailureKind } from '../../domain/agency/trust-center-failure';
import type { TrustCenterClient, TrustCenterRequest, TrustCenterResponse, TrustCenterSession } from '../../ports/trust-center-client';
import { readTrustCenterCredentials, type TrustCenterCredentials } from './trust-center-credentials';

/** The pull settings a session keeps (agency.pull). */
export interface TrustCenterSessionSettings {
  timeoutMs: number;
  retries: number;
  maxDocumentBytes: number;
}

/** What tests may change of HttpsTrustCenterClient; production uses the defaults. */
export interface HttpsTrustCenterClientOptions {
  /** Waits between attempts (tests may pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
  /** The module id of `kerberos` (tests name a missing one). */
  kerberosModule?: string;
}

const LIMIT_HINT = 'agency.pull.max_document_bytes sets the largest document accepted';
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 2_000;

/** Certificate verification codes of OpenSSL as Node reports them: the server's certificate is not trusted. */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);

/** Why one attempt got no response: what happened and what to do, worded into the failure's message with the URL. */
class AttemptFailure {
  constructor(
    readonly kind: TrustCenterFailureKind,
    readonly what: string,
    readonly hint: string,
    /** Whether another attempt may help (network errors and time-outs). */
    readonly retryable: boolean,
    /** The server had closed the kept-alive connection the request went on: sent again at once, as not an attempt. */
    readonly stale = false,
  ) {}

  /** `<url>: <what>[ after n attempts][; <hint>]`. */
  message(url: string, attempts: number): string {
    return `${url}: ${this.what}${attempts > 1 ? ` after ${attempts} attempts` : ''}${this.hint === '' ? '' : `; ${this.hint}`}`;
  }
}

/**
 * Opens sessions with providers' trust centers over node:https (node:http for an http:// URL): one keep-alive Agent
 * per session, trusting Node's root CAs plus the provider's `ca` file, authenticating as `provider.auth` says (a
 * bearer token from its file, a client certificate and key, a fresh SPNEGO token per request from the agency user's
 * Kerberos ticket). Files are read when the session opens; if one cannot be, every `get` of the session rejects with
 * that TrustCenterFailure (attempts 0), so a caller handles a provider's failures in one place.
 */
export class HttpsTrustCenterClient implements TrustCenterClient {
  constructor(private readonly options: HttpsTrustCenterClientOptions = {}) {}

  open(provider: AgencyProvider, settings: TrustCenterSessionSettings): TrustCenterSession {
    let credentials: TrustCenterCredentials | TrustCenterFailure;
    try {
      credentials = readTrustCenterCredentials(provider, this.options.kerberosModule);
    } catch (error) {
      if (!(error instanceof TrustCenterFailure)) throw error;
      credentials = error;
    }
    return new HttpsTrustCenterSession(credentials, settings, this.options.sleep ?? sleep);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One provider's session: GETs with retries, over one keep-alive Agent per scheme. */
class HttpsTrustCenterSession implements TrustCenterSession {
  private https: HttpsAgent | undefined;
  private http: HttpAgent | undefined;
  private closed = false;
  /** The leaf certificate of each TLS connection, read once per connection. */
  private readonly identities = new WeakMap<TLSSocket, TlsIdentity>();

  constructor(
    private readonly credentials: TrustCenterCredentials | TrustCenterFailure,
    private readonly settings: TrustCenterSessionSettings,
    private readonly wait: (ms: number) => Promise<void>,
  ) {}

  async get(request: TrustCenterRequest): Promise<TrustCenterResponse> {
    if (this.credentials instanceof TrustCenterFailure) throw this.credentials;
    const credentials = this.credentials;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new TrustCenterFailure('unreachable', `"${request.url}" is not a URL`, 0);
    }
    url.username = '';
    url.password = '';
    const shown = url.href;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TrustCenterFailure('unreachable', `${shown}: ${url.protocol} is not http or https`, 0);
    if (this.closed) throw new TrustCenterFailure('unreachable', `${shown}: the session with the trust center is closed; open another`, 0);
    let resent = false;
    for (let attempt = 1; ; attempt++) {
      let outcome: Omit<TrustCenterResponse, 'attempts'> | AttemptFailure;
      try {
        outcome = await this.attempt(url, shown, request, credentials);
      } catch (error) {
        // Only the authorization can throw (no Kerberos ticket): no request was sent on this attempt.
        if (error instanceof TrustCenterFailure) throw new TrustCenterFailure(error.kind, error.message, attempt - 1);
        throw error;
      }
      const last = attempt > this.settings.retries;
      if (outcome instanceof AttemptFailure) {
        if (outcome.stale && !resent) {
          resent = true;
          attempt--;
          continue;
        }
        if (!outcome.retryable || last) throw new TrustCenterFailure(outcome.kind, outcome.message(shown, attempt), attempt);
        await this.wait(backoff(attempt));
        continue;
      }
      if (!last && (outcome.status === 429 || outcome.status >= 500)) {
        await this.wait(backoff(attempt, outcome.headers['retry-after']));
        continue;
      }
      return { ...outcome, attempts: attempt };
    }
  }

  close(): void {
    this.closed = true;
    this.https?.destroy();
    this.http?.destroy();
  }

  /** One GET, from asking for the Authorization header to the last byte, within the time-out. */
  private attempt(
    url: URL,
    shown: string,
    request: TrustCenterRequest,
    credentials: TrustCenterCredentials,
  ): Promise<Omit<TrustCenterResponse, 'attempts'> | AttemptFailure> {
    const { timeoutMs, maxDocumentBytes } = this.settings;
    return new Promise((resolve, reject) => {
      let req: ClientRequest | undefined;
      let settled = false;
      const finish = (outcome: Omit<TrustCenterResponse, 'attempts'> | AttemptFailure) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
        if (outcome instanceof AttemptFailure) req?.destroy();
      };
      const timer = setTimeout(
        () => finish(new AttemptFailure('timeout', `no complete answer within ${timeoutMs} ms`, 'agency.pull.timeout_ms sets how long svc waits', true)),
        timeoutMs,
      );
      credentials.authorization(shown).then(
        (authorization) => {
          if (settled) return;
          const headers: Record<string, string> = { accept: 'application/json' };
          if (request.etag !== undefined) headers['if-none-match'] = request.etag;
          if (request.origin !== undefined) headers.origin = request.origin;
          if (authorization !== undefined) headers.authorization = authorization;
          const https = url.protocol === 'https:';
          const options = { method: 'GET', headers, agent: https ? this.httpsAgent(credentials) : this.httpAgent() };
          let answered = false;
          req = (https ? httpsRequest : httpRequest)(url, options, (res) => {
            answered = true;
            const tls = https ? this.identityOf(res.socket as TLSSocket) : undefined;
            const declared = Number(res.headers['content-length']);
            if (Number.isFinite(declared) && declared > maxDocumentBytes) {
              finish(new AttemptFailure('too-large', `the trust center announces ${declared} bytes, over the limit of ${maxDocumentBytes}`, LIMIT_HINT, false));
              return;
            }
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > maxDocumentBytes) {
                finish(new AttemptFailure('too-large', `the document passed the limit of ${maxDocumentBytes} bytes before its end`, LIMIT_HINT, false));
                return;
              }
              chunks.push(chunk);
            });
            res.on('end', () =>
              finish({ status: res.statusCode ?? 0, headers: headersOf(res), body: Buffer.concat(chunks), ...(tls === undefined ? {} : { tls }) }),
            );
            res.on('error', (error) => finish(networkFailure(error)));
          });
          // A trust center (Node's among them) may check the client certificate after the handshake, then hang up.
          let handshaken = false;
          if (https && credentials.tls.cert !== undefined) req.once('socket', (socket) => socket.once('secureConnect', () => (handshaken = true)));
          req.on('error', (error) => {
            const failure = networkFailure(error, handshaken);
            const stale = req?.reusedSocket === true && !answered && (error as NodeJS.ErrnoException).code === 'ECONNRESET';
            finish(stale ? new AttemptFailure(failure.kind, failure.what, failure.hint, true, true) : failure);
          });
          req.end();
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  private httpsAgent(credentials: TrustCenterCredentials): HttpsAgent {
    this.https ??= new HttpsAgent({ keepAlive: true, ...credentials.tls });
    return this.https;
  }

  private httpAgent(): HttpAgent {
    this.http ??= new HttpAgent({ keepAlive: true });
    return this.http;
  }

  private identityOf(socket: TLSSocket): TlsIdentity | undefined {
    const known = this.identities.get(socket);
    if (known !== undefined) return known;
    const certificate = socket.getPeerX509Certificate?.();
    if (certificate === undefined) return undefined;
    const identity = tlsIdentity(certificate);
    this.identities.set(socket, identity);
    return identity;
  }
}

/** The wait before attempt `attempt + 1`: 100 ms doubling, with jitter, or the server's Retry-After; at most 2 s. */
function backoff(attempt: number, retryAfter?: string): number {
  const asked = retryAfterMs(retryAfter);
  if (asked !== undefined) return Math.min(asked, MAX_BACKOFF_MS);
  const base = Math.min(FIRST_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return Math.round(base / 2 + (Math.random() * base) / 2);
}

/** Retry-After in seconds or as an HTTP date, in ms from now; undefined when absent or unreadable. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The response headers, names lower-case, repeated ones joined with ", " (from the raw list, which Node does not merge). */
function headersOf(res: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i].toLowerCase();
    const value = res.rawHeaders[i + 1];
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

/** The server's leaf certificate as a pull records it. */
export function tlsIdentity(certificate: X509Certificate): TlsIdentity {
  return {
    fingerprint256: certificate.fingerprint256,
    subject: oneLineName(certificate.subject),
    issuer: oneLineName(certificate.issuer),
    validTo: new Date(certificate.validTo).toISOString(),
  };
}

/**
 * Node's multi-line name (`C=US\nO=Example\nCN=host`, least specific first, values escaped) as one RFC 4514-style line,
 * most specific first: `CN=host,O=Example,C=US`; a multi-valued RDN joined with `+`.
 */
function oneLineName(name: string): string {
  return name
    .split('\n')
    .filter((rdn) => rdn !== '')
    .reverse()
    .map((rdn) => rdn.split(' + ').join('+'))
    .join(',');
}

/** A Node network or TLS error as the kind of failure and its cause (the Node code and message). */
function networkFailure(error: unknown, afterClientCertificate = false): AttemptFailure {
  const { code } = error as NodeJS.ErrnoException;
  // OpenSSL's messages run over lines (`…:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:…`): its reason alone.
  const text = String((error as Error).message);
  const message = /error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:\n]+)/.exec(text)?.[1] ?? text.split('\n')[0];
  const said = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  const tls = (what: string, hint: string) => new AttemptFailure('tls', `${what} (${said})`, hint, false);
  if (typeof code === 'string') {
    if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
      return tls("the trust center's TLS certificate is outside its validity period", 'the provider must renew it');
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH')
      return tls("the trust center's TLS certificate does not name this host", 'use a host name it names in agency.providers[].url');
    if (CERTIFICATE_CODES.has(code)) return tls("the trust center's TLS certificate is not trusted", 'give the CA that issued it as agency.providers[].ca');
    if (/^ERR_SSL_.*ALERT/.test(code))
      return tls('the trust center refused the TLS handshake', 'it may want a client certificate its CA issued (agency.providers[].auth kind cert)');
    if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO')
      return tls('the TLS handshake failed', "check that the URL is the trust center's https address");
  }
  if (afterClientCertificate && (code === 'ECONNRESET' || code === 'EPIPE'))
    return new AttemptFailure(
      'unreachable',
      `the trust center closed the connection after the TLS handshake (${said})`,
      'it may refuse the client certificate agency.providers[].auth.cert names: check that its CA issued it',
      true,
    );
  return new AttemptFailure('unreachable', `unreachable (${said})`, 'check the URL and that the trust center is up', true);
}
