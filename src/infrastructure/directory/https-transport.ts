import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { ConfigError } from '../../domain/errors';

export interface HttpAnswer {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

export interface HttpCall {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * HTTPS over node:https, shared by MSAL (through MsalNetworkClient) and the Graph client. It exists because Node's
 * global fetch ignores CA certificates added at run time (only NODE_EXTRA_CA_CERTS, read at start-up), and a
 * private or test CA is configured as `graph.ca_file`: its certificates are trusted in addition to Node's roots.
 * No connection is kept alive, so nothing holds the process open. Redirects are not followed.
 * Network failures (refused, reset, TLS, timeout) reject with the Node error; callers word them.
 */
export class HttpsTransport {
  private readonly agent: Agent;
  private readonly defaultTimeoutMs: number;

  constructor(options: { caFile?: string; timeoutMs?: number } = {}) {
    let ca: string[] | undefined;
    if (options.caFile !== undefined) {
      let pem: string;
      try {
        pem = readFileSync(options.caFile, 'utf8');
      } catch (error) {
        throw new ConfigError(
          'graph-ca-unreadable',
          `${options.caFile}: cannot read the CA certificate file (graph.ca_file); fix the path or its permissions`,
          { cause: error },
        );
      }
      if (!pem.includes('-----BEGIN CERTIFICATE-----'))
        throw new ConfigError('graph-ca-unreadable', `${options.caFile}: not a PEM certificate file (graph.ca_file); give the CA certificate in PEM form`);
      ca = [...rootCertificates, pem];
    }
    this.agent = new Agent({ keepAlive: false, ...(ca ? { ca } : {}) });
    this.defaultTimeoutMs = options.timeoutMs ?? 30_000;
  }

  send(call: HttpCall): Promise<HttpAnswer> {
    const timeoutMs = call.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise<HttpAnswer>((resolve, reject) => {
      const req = request(call.url, { method: call.method, headers: call.headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            req.destroy(new Error(`answer larger than ${MAX_BODY_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      });
      req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
      req.on('error', reject);
      req.end(call.body);
    });
  }
}

/** One line for a network failure: the Node error code and message (ECONNREFUSED, a TLS verification error). */
export function networkReason(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}
