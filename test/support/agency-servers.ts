import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { SERVER_EXTENSIONS, signCertificate, type Issued } from './pki';

/** One request a stub trust center received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The CN of the client certificate presented, over mTLS. */
  clientCertificate?: string;
}

/** A loopback HTTP(S) server answering as `handler` says, recording what it received. */
export interface StubTrustCenter {
  /** `https://localhost:<port>` (or http://, or the host given). */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted (a keep-alive session reuses one). */
  connections: number;
  close(): Promise<void>;
}

/** Answers request `n` (0-based, counted across the server's life). */
export type StubHandler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

/** How a stub trust center listens: plain HTTP, TLS, or mutual TLS. */
export interface StubOptions {
  /** Serve TLS with this certificate (http when absent). */
  cert?: Issued;
  /** Ask for a client certificate issued by this CA, and refuse the handshake without one. */
  clientCa?: Issued;
  /** The address to listen on (default 127.0.0.1) and the host name the URL uses (default localhost for TLS). */
  host?: string;
  urlHost?: string;
}

/**
 * Starts a stub trust center on loopback: plain HTTP, TLS with a real certificate (test/support/pki.ts), or mutual TLS
 * requiring a client certificate of `clientCa`. close() ends open keep-alive connections too.
 */
export async function startStubTrustCenter(handler: StubHandler, options: StubOptions = {}): Promise<StubTrustCenter> {
  const requests: ReceivedRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const peer = options.clientCa ? (req.socket as TLSSocket).getPeerCertificate() : undefined;
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      ...(peer?.subject?.CN === undefined ? {} : { clientCertificate: String(peer.subject.CN) }),
    });
    handler(req, res, requests.length - 1);
  };
  const server: Server = options.cert
    ? createHttpsServer(
        {
          cert: options.cert.certPem,
          key: options.cert.keyPem,
          ...(options.clientCa ? { ca: options.clientCa.certPem, requestCert: true, rejectUnauthorized: true } : {}),
        },
        listener,
      )
    : createHttpServer(listener);
  const stub = { requests, connections: 0 } as StubTrustCenter;
  server.on(options.cert ? 'secureConnection' : 'connection', () => stub.connections++);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as { port: number }).port;
  stub.port = port;
  stub.url = `${options.cert ? 'https' : 'http'}://${options.urlHost ?? (options.cert ? 'localhost' : host)}:${port}`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Answers JSON with the status and extra headers given. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length, ...headers });
  res.end(bytes);
}

/**
 * A trust center's server certificate for `localhost` and 127.0.0.1 with the openssl `-subj` given, issued by `ca`
 * (for a subject of several RDNs, or a second certificate of the same host: a changed TLS identity).
 */
export function issueServerCertificate(dir: string, name: string, subj: string, ca: Issued): Issued {
  return signCertificate(dir, ca, name, subj, SERVER_EXTENSIONS);
}
