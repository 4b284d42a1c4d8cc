import type { HttpsTransport } from './https-transport';

/** MSAL's INetworkModule, restated so this file needs no type from the optional @azure/msal-node. */
interface NetworkResponse<T> {
  headers: Record<string, string>;
  body: T;
  status: number;
}

/**
 * MSAL's HTTP client (`system.networkClient`), over the same HttpsTransport as the Graph calls so the configured
 * CA is trusted for the token endpoint too. MSAL turns any error thrown here into a bare `network_error`, so the
 * last failure and status are kept for MsalTokenSource to word the error.
 */
export class MsalNetworkClient {
  lastFailure: unknown;
  lastStatus: number | undefined;

  constructor(private readonly transport: HttpsTransport) {}

  sendGetRequestAsync<T>(url: string, options?: { headers?: Record<string, string> }, timeout?: number): Promise<NetworkResponse<T>> {
    return this.send<T>('GET', url, options?.headers, undefined, timeout);
  }

  sendPostRequestAsync<T>(url: string, options?: { headers?: Record<string, string>; body?: string }): Promise<NetworkResponse<T>> {
    return this.send<T>('POST', url, options?.headers, options?.body);
  }

  private async send<T>(method: 'GET' | 'POST', url: string, headers?: Record<string, string>, body?: string, timeoutMs?: number): Promise<NetworkResponse<T>> {
    this.lastFailure = undefined;
    this.lastStatus = undefined;
    try {
      const answer = await this.transport.send({ method, url, headers, body, timeoutMs });
      this.lastStatus = answer.status;
      let parsed: unknown = {};
      try {
        parsed = answer.body === '' ? {} : JSON.parse(answer.body);
      } catch {
        parsed = {};
      }
      return { headers: answer.headers, body: parsed as T, status: answer.status };
    } catch (error) {
      this.lastFailure = error;
      throw error;
    }
  }
}
