import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MemoryStore } from 'express-rate-limit';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { ApiLimits } from '../config/api-config';
import { normalizeAddress } from '../auth/auth-config';
import type { Principal, Role } from '../auth/principal';
import { HttpProblem } from '../responses/problem-details';
import { logFailure, sendProblem } from '../responses/problem-response';
import { contextOf, setContext } from './request-context';
import { asciiLower } from '../../../domain/trust/principal-name';
import type { ReplayCache } from '../responses/response-cache';
import type { DetailPolicy } from '../responses/server-paths';

export interface FrontDoorDependencies {
  /** The Express app: everything the front door does not answer itself. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  logger: Logger;
  limits: ApiLimits;
  replay: ReplayCache;
  /** The principal of a request that proves it without a handshake (trusted proxy, client certificate), else undefined. */
  quickPrincipal: (req: IncomingMessage) => Principal | undefined;
  holdsRole: (principal: Principal, roles: readonly Role[]) => boolean;
  /** Keeps server paths out of the problem details of anyone but an operator. */
  problems?: DetailPolicy;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** helmet's response headers, taken once: with the default options they are the same for every response. */
function securityHeaders(): [string, string][] {
  const headers: [string, string][] = [];
  const capture = { setHeader: (name: string, value: unknown) => headers.push([name, String(value)]), removeHeader: () => undefined };
  helmet()({} as never, capture as never, () => undefined);
  return headers;
}

/**
 * Whose requests count together against limits.requests_per_minute: the principal proven without a handshake
 * (trusted proxy, client certificate), case-folded as role grants compare names, else the peer address. Never an
 * unverified header: rotating or re-cased values of a header the peer may not assert all count as the peer.
 */
function rateKey(req: IncomingMessage, principal: Principal | undefined): string {
  return principal ? `principal ${asciiLower(principal.name)}` : `peer ${normalizeAddress(req.socket.remoteAddress ?? '')}`;
}

/**
 * The node:http handler of svc-api, in front of Express: it gives each request its id, helmet's headers, the access
 * log line and the rate limit, then replays a read route's cached response when the run, path, query and role all
 * match one Express already produced, and hands everything else to Express. Express 5's per-request work costs
 * more than serving a cached page, so the hot read path skips it without answering anything Express would not.
 */
export function createFrontDoor(deps: FrontDoorDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  const headers = securityHeaders();
  const store = new MemoryStore();
  store.init({ windowMs: 60_000 } as never);
  return (req, res) => {
    const given = req.headers['x-request-id'];
    const context = setContext(req, { id: typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID() });
    res.setHeader('X-Request-Id', context.id);
    for (const [name, value] of headers) res.setHeader(name, value);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      deps.logger.info(
        {
          req_id: context.id,
          method: req.method,
          route: context.route ?? null,
          path: (req.url ?? '').split('?')[0],
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          principal: context.principal?.name ?? null,
          auth: context.principal?.method ?? null,
          agency: context.principal?.agency ?? null,
          remote: req.socket.remoteAddress ?? null,
        },
        'request',
      );
    });
    void admit(req, res)
      .then((handled) => handled || deps.app(req, res))
      .catch((error) => (res.headersSent ? logFailure(deps.logger, context.id, error) : sendProblem(req, res, error, deps.logger, deps.problems)));
  };

  /** True when the front door answered: a 429, or a replayed read. */
  async function admit(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const context = contextOf(req);
    let principal: Principal | undefined;
    try {
      principal = deps.quickPrincipal(req);
    } catch {
      principal = undefined; // a refused credential: counted as its peer, and Express gives the 401 with its detail
    }
    const { totalHits, resetTime } = await store.increment(rateKey(req, principal));
    if (totalHits > deps.limits.requests_per_minute) {
      const retry = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + 60_000) - Date.now()) / 1000));
      sendProblem(
        req,
        res,
        new HttpProblem(
          429,
          'rate-limited',
          `more than ${deps.limits.requests_per_minute} requests in a minute from this client; retry after the Retry-After seconds`,
          { 'Retry-After': String(retry) },
        ),
        deps.logger,
        deps.problems,
      );
      return true;
    }
    if (req.method !== 'GET' || req.headers.authorization !== undefined) return false;
    const hit = await deps.replay.lookup(req.url ?? '');
    if (!hit || !principal || !deps.holdsRole(principal, hit.roles)) return false;
    context.principal = principal;
    context.route = hit.route;
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': hit.body.length });
    res.end(hit.body);
    return true;
  }
}
