import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import swaggerUi from 'swagger-ui-express';
import type { ApiLimits } from './config/api-config';
import { contextOf } from './requests/request-context';
import type { Authenticator } from './auth/authenticator';
import type { OpenApiDocument } from './routes/openapi';
import type { Principal, Role } from './auth/principal';
import { HttpProblem } from './responses/problem-details';
import { sendProblem } from './responses/problem-response';
import { requestValidator } from './requests/request-validation';
import type { RouteSpec } from './routes/route';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';

export interface AppDependencies {
  routes: readonly RouteSpec[];
  openapi: OpenApiDocument;
  authenticator: Authenticator;
  roles: Record<Role, string[]>;
  limits: ApiLimits;
  logger: Logger;
  /** Logs each request for the trust center's certification data, served or denied (CDS-TRC-ACL). */
  access?: { record(event: { principal: string; agency?: string; document: string; outcome: 'served' | 'denied'; status: number }): void };
}

/**
 * Whether `principal` holds one of `roles`: names compare case-insensitively (Windows and Kerberos realms), `*` is
 * anyone; a principal recognized as an agency's (Principal.agency) holds `agency` without being named (CDS-TRC-USH).
 */
export function holdsRole(principal: Principal, roles: readonly Role[], grants: Record<Role, string[]>): boolean {
  const name = principal.name.toLowerCase();
  return roles.some((role) => (role === 'agency' && principal.agency !== undefined) || grants[role].some((p) => p === '*' || p.toLowerCase() === name));
}

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
    if (route.module === 'trust' && route.access !== 'open' && deps.access !== undefined) chain.push(logAccess(route, deps.access));
    if (route.access !== 'open') chain.push(deps.authenticator.middleware, authorize(route.access, deps));
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
  app.use(problemHandler(deps.logger));
  return app;
}

/**
 * Once the response is sent, logs who asked for which document and whether it was served (2xx, 304) or denied (403);
 * a request without credentials (401) names nobody and is not logged.
 */
function logAccess(route: RouteSpec, access: NonNullable<AppDependencies['access']>): RequestHandler {
  const document = route.path.replace(/^\/fedramp\//, '');
  return (req, res, next) => {
    res.on('finish', () => {
      const { principal } = contextOf(req);
      if (principal === undefined || (res.statusCode >= 400 && res.statusCode !== 403)) return;
      access.record({ principal: principal.name, ...(principal.agency === undefined ? {} : { agency: principal.agency }), document, outcome: res.statusCode === 403 ? 'denied' : 'served', status: res.statusCode });
    });
    next();
  };
}

function authorize(roles: readonly Role[], deps: AppDependencies): RequestHandler {
  return (req, res, next) => {
    const principal = res.locals.principal as Principal | undefined;
    contextOf(req).principal = principal;
    if (!principal) {
      const challenges = deps.authenticator.challenges;
      const detail = deps.authenticator.methods.length === 0 ? 'authentication required, and no method is configured; set auth in the API config (docs/api.md)' : `authentication required: ${deps.authenticator.methods.join(', ')}`;
      return next(new HttpProblem(401, 'authentication-required', detail, challenges.length ? { 'WWW-Authenticate': challenges.join(', ') } : {}));
    }
    if (!holdsRole(principal, roles, deps.roles)) {
      const agency = roles.includes('agency') ? ", or recognizes the principal's agency by its realm, certificate issuer or domain (fedramp.agencies in svc.config.json)" : '';
      return next(new HttpProblem(403, 'role-required', `${principal.name} does not hold the ${roles.join(' or ')} role; an administrator grants it under roles in the API config${agency}`));
    }
    next();
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

function problemHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    sendProblem(req, res, bodyParserProblem(error, req) ?? pathProblem(error) ?? error, logger);
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
    return new HttpProblem(400, 'invalid-content-encoding', `the request body is not valid ${encoding} data, as its Content-Encoding says; send the body compressed with it, or without Content-Encoding`);
  }
  if (e?.type === 'encoding.unsupported' && e.encoding !== undefined) {
    return new HttpProblem(415, 'unsupported-content-encoding', `Content-Encoding ${JSON.stringify(e.encoding.slice(0, 64))} is not supported; send the body uncompressed, or with gzip, deflate or br`);
  }
  if (e?.type === 'entity.too.large') return new HttpProblem(413, 'body-too-large', `the request body is larger than ${e.limit} bytes (limits.body_bytes); send less`);
  if (e?.type === 'entity.parse.failed') return new HttpProblem(400, 'invalid-json', `the request body is not valid JSON (${jsonSyntaxProblem(e.message ?? '')}); send a JSON object`);
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new HttpProblem(415, 'unsupported-encoding', `${e.message}; send UTF-8 JSON`);
  if (e?.type === 'request.aborted') return new HttpProblem(400, 'request-aborted', 'the client closed the connection before the body arrived');
  return undefined;
}
