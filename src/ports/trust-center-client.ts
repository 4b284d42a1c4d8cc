import type { InjectionToken } from 'tsyringe';
import type { AgencyProvider } from '../domain/agency/providers';
import type { TlsIdentity } from '../domain/agency/pulled-documents';
export { TrustCenterFailure, type TrustCenterFailureKind } from '../domain/agency/trust-center-failure';

export interface TrustCenterRequest {
  /** Absolute URL under the provider's base. */
  url: string;
  /** The ETag of the bytes already held: sent as If-None-Match. */
  etag?: string;
  /** Sent as Origin, to see the CORS headers FRC-CSO-JSN asks of the public JSON. */
  origin?: string;
}

export interface TrustCenterResponse {
  status: number;
  /** Response headers, names lower-case. */
  headers: Record<string, string>;
  /** The body (empty for a 304). */
  body: Uint8Array;
  /** The server's certificate, over https. */
  tls?: TlsIdentity;
  /** Attempts made, the retries included. */
  attempts: number;
}

/** A session with one provider's trust center, authenticated as its configuration says. */
export interface TrustCenterSession {
  /**
   * GET with the configured authentication, the time-out and size limit of the pull settings, retrying network errors,
   * 429 and 5xx with back-off. Resolves with every HTTP response (304, 4xx, 5xx after the retries); rejects only with
   * TrustCenterFailure. Never puts a credential into an error message.
   */
  get(request: TrustCenterRequest): Promise<TrustCenterResponse>;
  /** Closes the session's connections. */
  close(): void;
}

/** Opens sessions with providers' trust centers (HTTPS with none, Negotiate, a client certificate or a bearer token). */
export interface TrustCenterClient {
  open(provider: AgencyProvider, settings: { timeoutMs: number; retries: number; maxDocumentBytes: number }): TrustCenterSession;
}

export const TRUST_CENTER_CLIENT: InjectionToken<TrustCenterClient> = Symbol('TrustCenterClient');
