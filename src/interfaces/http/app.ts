import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import swaggerUi from 'swagger-ui-express';
import type { ApiLimits } from './config/api-config';
import { contextOf } from './requests/request-context';
import type { Authenticator } from './auth/authenticator';
import type { OpenApiDocument } from './routes/openapi';
import type { Principal, Role } from './auth/principal';
import { holdsRole, type RoleGrant } from './auth/role-grants';
import { HttpProblem } from './responses/problem-details';
import { sendProblem } from './responses/problem-response';
import { requestValidator } from './requests/request-validation';
import type { DetailPolicy } from './responses/server-paths';
import type { RouteSpec } from './routes/route';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';
import type { AccessEvent } from '../../domain/trust/access-log';
import { isFederalIdentity } from '../../domain/trust/access-report';

export interface AppDependencies {
  routes: readonly RouteSpec[];
  openapi: OpenApiDocument;
  authenticator: Authenticator;
  roles: Record<Role, RoleGrant[]>;
  limits: ApiLimits;
  logger: Logger;
  /** Keeps server paths out of the problem details of anyone but an operator. */
  problems?: DetailPolicy;
  /** Logs each request for the trust center's certification data, served or denied (CDS-TRC-ACL). */
  access?: { record(event: Omit<AccessEvent, 'at'>): void };
}

export { holdsRole } from './auth/role-grants';

/** The Express app of svc-api: routes, OpenAPI, /docs and problem+json; the front door runs before it (front-door.ts). */
export function createApp(deps: AppDependencies): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  const json = express.json({ limit: deps.limits.body_bytes, type: () => true });
  const known: { pattern: RegExp; methods: string[] }[] = [];
  for (const route of deps.routes) {
    const pattern = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const entry = known.find((k) => k.pattern.source === pattern.source) ?? known[known.push({ pattern, methods: [] }) - 1];
    entry.methods.push(route.method.toUpperCase());
    const validator = requestValidator(route);
    const chain: RequestHandler[] = [
      (req, _res, next) => {
        contextOf(req).route = route.path;
        next();
      },
    ];
    if (route.crossOrigin) {
      if (route.access !== 'open') throw new Error(`${route.path}: only an open route may answer cross-origin requests`);
      chain.push(crossOrigin);
      app.options(route.path.replace(/\{([^}]+)\}/g, ':$1'), preflight(route));
    }
    if (route.module === 'trust' && route.access !== 'open' && deps.access !== undefined) chain.push(logAccess(route, deps.access));
    if (route.access !== 'open') chain.push(deps.authenticator.middleware, authorize(route, route.access, deps));
    else if (route.identifies) chain.push(deps.authenticator.middleware, identify);
    if (route.method === 'post') chain.push(requireJson, json);
    chain.push(async (req, res) => {
      const input = validator.validate({ params: req.params, query: req.query, body: route.body ? req.body : undefined });
      const context = contextOf(req);
      await route.handle({ ...input, principal: context.principal, requestId: context.id }, res);
    });
    app[route.method](route.path.replace(/\{([^}]+)\}/g, ':$1'), ...chain);
  }

  app.get('/openapi.json', (req, res) => {
    contextOf(req).route = '/openapi.json';
    res.json(deps.openapi);
  });
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(deps.openapi, { customSiteTitle: 'svc API' }));

  app.use((req: Request, _res: Response, next: NextFunction) => {
    const allowed = known.find((k) => k.pattern.test(req.path))?.methods.join(', ');
    if (allowed) return next(new HttpProblem(405, 'method-not-allowed', `${req.method} ${req.path}: this route answers ${allowed}`, { Allow: allowed }));
    next(new HttpProblem(404, 'no-such-route', `${req.method} ${req.path}: no such route; /openapi.json lists the ${deps.routes.length} routes`));
  });
  app.use(problemHandler(deps.logger, deps.problems));
  return app;
}

/** The trust route a request asked for, as the access log names it: `cpo`, `sdr`, `evidence/{sha256}`, … */
function accessDocument(route: RouteSpec): string {
  return route.path.replace(/^\/fedramp\//, '');
}

/** The access log's event of `principal`'s request for `document`. */
function accessEvent(principal: Principal, document: string, status: number): Omit<AccessEvent, 'at'> {
  return {
    principal: principal.name,
    ...(principal.agency === undefined ? {} : { agency: principal.agency }),
    ...(principal.agency === undefined && isFederalIdentity(principal) ? { federal: true as const } : {}),
    document,
    outcome: status === 403 ? 'denied' : 'served',
    status,
  };
}

/**
 * Logs who was served which document (2xx, 304) once the response is sent; a denial (403) is logged by `authorize`
 * the moment it is decided, so a client that resets the connection before the answer still leaves its trace. A
 * request without credentials (401) names nobody and is not logged.
 */
function logAccess(route: RouteSpec, access: NonNullable<AppDependencies['access']>): RequestHandler {
  const document = accessDocument(route);
  return (req, res, next) => {
    res.on('finish', () => {
      const { principal } = contextOf(req);
      if (principal === undefined || res.statusCode >= 400) return;
      access.record(accessEvent(principal, document, res.statusCode));
    });
    next();
  };
}

function authorize(route: RouteSpec, roles: readonly Role[], deps: AppDependencies): RequestHandler {
  const logged = route.module === 'trust' ? deps.access : undefined;
  return (req, res, next) => {
    const principal = res.locals.principal as Principal | undefined;
    contextOf(req).principal = principal;
    if (!principal) {
      const challenges = deps.authenticator.challenges;
      const detail =
        deps.authenticator.methods.length === 0
          ? 'authentication required, and no method is configured; set auth in the API config (docs/api.md)'
          : `authentication required: ${deps.authenticator.methods.join(', ')}`;
      return next(new HttpProblem(401, 'authentication-required', detail, challenges.length ? { 'WWW-Authenticate': challenges.join(', ') } : {}));
    }
    if (!holdsRole(principal, roles, deps.roles)) {
      logged?.record(accessEvent(principal, accessDocument(route), 403));
      const agency = roles.includes('agency')
        ? ", or recognizes the principal's agency by its realm, certificate issuer or domain (fedramp.agencies in svc.config.json)"
        : '';
      return next(
        new HttpProblem(
          403,
          'role-required',
          `${principal.name} does not hold the ${roles.join(' or ')} role; an administrator grants it under roles in the API config${agency}`,
        ),
      );
    }
    next();
  };
}

/** The request headers a cross-origin reader of public JSON may send (besides the CORS-safelisted ones). */
const CORS_REQUEST_HEADERS = 'Accept, Accept-Language, Content-Language, If-None-Match, If-Modified-Since, Cache-Control, Pragma, X-Request-Id';
/** The response headers such a reader may read (besides the CORS-safelisted ones): the validators and the request id. */
const CORS_RESPONSE_HEADERS = 'ETag, Content-Digest, Content-Length, X-Request-Id';

/**
 * FRC-CSO-JSN (rules 2026.10.05.01): public JSON readable by a web application on any origin. `*` and no
 * `Access-Control-Allow-Credentials`: a browser sends no cookie or credential with such a request, and the answer is
 * the same for everyone. helmet's `Cross-Origin-Resource-Policy: same-origin` would keep a page of another origin
 * from embedding it, so the public JSON says `cross-origin`.
 */
const crossOrigin: RequestHandler = (_req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', CORS_RESPONSE_HEADERS);
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  next();
};

/** The CORS preflight of a cross-origin route: 204, the methods and headers it allows, cached for a day. */
function preflight(route: RouteSpec): RequestHandler {
  const methods = route.method === 'get' ? 'GET, HEAD, OPTIONS' : `${route.method.toUpperCase()}, OPTIONS`;
  return (req, res) => {
    contextOf(req).route = route.path;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', methods);
    res.setHeader('Access-Control-Allow-Headers', CORS_REQUEST_HEADERS);
    res.setHeader('Access-Control-Max-Age', '86400');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Allow', methods);
    res.status(204).end();
  };
}

const identify: RequestHandler = (req, res, next) => {
  contextOf(req).principal = res.locals.principal as Principal | undefined;
  next();
};

const requireJson: RequestHandler = (req, _res, next) => {
  const type = req.headers['content-type'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !(type && /^application\/([a-z.+-]+\+)?json\s*(;|$)/i.test(type))) {
    return next(new HttpProblem(415, 'unsupported-media-type', `Content-Type ${type ?? '(none)'}: send the body as application/json`));
  }
  if (!hasBody) req.body = {};
  next();
};

function problemHandler(logger: Logger, problems: DetailPolicy | undefined) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    sendProblem(req, res, bodyParserProblem(error, req) ?? pathProblem(error) ?? error, logger, problems);
  };
}

/** The router's URIError for a path parameter that is not valid percent-encoding (`/auditor/graph/%zz`): a 400, not a 500. */
function pathProblem(error: unknown): HttpProblem | undefined {
  if (!(error instanceof URIError) || (error as { status?: number }).status !== 400) return undefined;
  return new HttpProblem(400, 'invalid-request', 'a path parameter is not valid percent-encoding; write % as %25 and escape each other byte as %XX');
}

/** body-parser's errors carry `type` and `status`; give them problem codes and one-line details. */
function bodyParserProblem(error: unknown, req: Request): HttpProblem | undefined {
  const e = error as { type?: string; status?: number; limit?: number; message?: string; code?: unknown; encoding?: string };
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  // zlib's own error (Z_DATA_ERROR, a brotli ERR__ERROR_FORMAT_…), which body-parser passes on with status 400 and no type.
  if (e?.status === 400 && e.type === undefined && typeof e.code === 'string' && encoding !== 'identity') {
    return new HttpProblem(
      400,
      'invalid-content-encoding',
      `the request body is not valid ${encoding} data, as its Content-Encoding says; send the body compressed with it, or without Content-Encoding`,
    );
  }
  if (e?.type === 'encoding.unsupported' && e.encoding !== undefined) {
    return new HttpProblem(
      415,
      'unsupported-content-encoding',
      `Content-Encoding ${JSON.stringify(e.encoding.slice(0, 64))} is not supported; send the body uncompressed, or with gzip, deflate or br`,
    );
  }
  if (e?.type === 'entity.too.large')
    return new HttpProblem(413, 'body-too-large', `the request body is larger than ${e.limit} bytes (limits.body_bytes); send less`);
  if (e?.type === 'entity.parse.failed')
    return new HttpProblem(400, 'invalid-json', `the request body is not valid JSON (${jsonSyntaxProblem(e.message ?? '')}); send a JSON object`);
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new HttpProblem(415, 'unsupported-encoding', `${e.message}; send UTF-8 JSON`);
  if (e?.type === 'request.aborted') return new HttpProblem(400, 'request-aborted', 'the client closed the connection before the body arrived');
  return undefined;
}
