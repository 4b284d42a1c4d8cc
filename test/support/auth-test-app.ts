import type { Principal } from '../../src/interfaces/http/auth/principal';
import express, { type ErrorRequestHandler } from 'express';
import { execFile } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Authenticator } from '../../src/interfaces/http/auth/authenticator';
import { HttpProblem, problemFor } from '../../src/interfaces/http/responses/problem-details';

/**
 * The smallest app around an authenticator: GET /whoami answers the principal, or a 401 `unauthenticated` with the
 * authenticator's challenges when the request proved none; errors are written as `{status, code, detail}` with the
 * problem's headers.
 */
export function authTestApp(authenticator: Authenticator): express.Express {
  const app = express();
  app.use(authenticator.middleware);
  app.get('/whoami', (_req, res) => {
    if (!res.locals.principal) {
      const headers: Record<string, string> = authenticator.challenges.length > 0 ? { 'WWW-Authenticate': authenticator.challenges.join(', ') } : {};
      throw new HttpProblem(401, 'unauthenticated', 'this route needs an authenticated principal', headers);
    }
    // The CAs of a certificate's chain as their subjects: what a reader of a test checks at a glance.
    const { authorities, ...principal } = res.locals.principal as Principal;
    res.json({ ...principal, ...(authorities === undefined ? {} : { authorities: authorities.map((a) => a.subject) }) });
  });
  const problems: ErrorRequestHandler = (error, _req, res, _next) => {
    const { problem, headers } = problemFor(error);
    res.status(problem.status).set(headers).json({ status: problem.status, code: problem.code, detail: problem.detail });
  };
  app.use(problems);
  return app;
}

/** Listens on `host` port 0; resolves the port and a close() that also drops idle keep-alive connections. */
export async function listen(server: Server, host = '127.0.0.1'): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((done) => server.listen(0, host, done));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()));
        server.closeAllConnections();
      }),
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface CallOptions {
  headers?: OutgoingHttpHeaders;
  localAddress?: string;
  /** https with these PEM strings (`ca` to trust the server; `key` and `cert` to present a client certificate). */
  tls?: { ca: string; key?: string; cert?: string };
}

/** GET `path` on host:port without keep-alive; the body is parsed as JSON. */
export function call(host: string, port: number, path: string, options: CallOptions = {}): Promise<Reply> {
  const send = options.tls ? httpsRequest : httpRequest;
  return new Promise((done, fail) => {
    const req = send(
      {
        host,
        port,
        path,
        agent: false,
        headers: options.headers,
        localAddress: options.localAddress,
        ...(options.tls ? { ...options.tls, servername: 'localhost' } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: parse(text) }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

const execFileAsync = promisify(execFile);

/** Runs curl with `args` and parses its `-i` output: the status line, headers and JSON body of the last response. */
export async function curl(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Reply> {
  const { stdout } = await execFileAsync('curl', ['-sS', '-i', ...args], { env, timeout: 20_000 });
  const blocks = stdout.split(/\r\n\r\n/);
  let at = 0;
  for (let i = 0; i < blocks.length - 1; i++) if (/^HTTP\/[\d.]+ \d{3}/.test(blocks[i])) at = i;
  const [statusLine, ...lines] = blocks[at].split('\r\n');
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = blocks.slice(at + 1).join('\r\n\r\n');
  return { status: Number(statusLine.split(' ')[1]), headers, body: parse(body) };
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
