import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { RUN_SETTINGS } from '../../ports/run-settings';
import { SIGNER } from '../../ports/signer';
import { isLoopbackAddress, normalizeAddress } from './auth/auth-config';
import { ConfigError } from '../../domain/errors';
import { requireKerberos } from './auth/negotiate-strategy';
import { RUN_STORE } from '../../ports/run-store';
import type { ApiConfig } from './config/api-config';
import { CurrentRun } from '../../application/auditor/current-run';
import { createApp, holdsRole } from './app';
import { createFrontDoor } from './requests/front-door';
import { ReplayCache } from './responses/response-cache';
import { createAuthenticator } from './auth/authenticator';
import { tlsServerOptions } from './auth/tls-server-options';
import { buildApiContainer, type ContainerOverrides } from './container';
import { buildOpenApi } from './routes/openapi';
import type { RouteSpec } from './routes/route';
import { auditorRoutes } from './routes/auditor';
import { boundaryRoutes } from './routes/boundary';
import { healthRoutes } from './routes/health';
import { orgpathRoutes } from './routes/orgpath';
import { surveyRoutes } from './routes/survey';
import { trustRoutes } from './routes/trust';
import { trustAccessRoutes } from './routes/trust-access';
import { trustEvidenceRoutes } from './routes/trust-evidence';
import { agencyRecognition } from './auth/agency-recognition';
import { readTrustedAuthorities } from './auth/certificate-chain';
import { ServerPaths, type DetailPolicy } from './responses/server-paths';
import { contextOf } from './requests/request-context';
import { dirname } from 'node:path';
import { FEDRAMP_PROFILE } from '../../ports/fedramp-profile';
import { AccessRecorder } from '../../application/trust/access-recorder';

export interface ApiOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Test seam: replaces adapters after the production ones are registered. */
  overrides?: ContainerOverrides;
  /** Default: pino to config.log.file, else to stdout. */
  logger?: Logger;
}

export interface RunningApi {
  server: Server;
  /** `http://127.0.0.1:8000` or `https://…` when auth.mtls is set. */
  url: string;
  routes: readonly RouteSpec[];
  /** Said once at start (the development signing key). */
  warnings: string[];
  close(): Promise<void>;
}

/** The route handlers of DESIGN §9, module by module: SPEC's and the trust center's (/openapi.json lists them). */
export function apiRoutes(container: DependencyContainer, config: ApiConfig, version: string, replay: ReplayCache, logger: Logger): RouteSpec[] {
  const routes: RouteSpec[] = [
    ...healthRoutes(container, config, version, logger),
    ...auditorRoutes(container, replay, logger),
    ...trustRoutes(container, config, logger, () => routes),
    ...trustAccessRoutes(container, config, logger),
    ...trustEvidenceRoutes(container, config, logger),
    ...surveyRoutes(container),
    ...orgpathRoutes(container, config),
    ...boundaryRoutes(container, config),
  ];
  return routes;
}

export function apiLogger(config: ApiConfig): Logger {
  const destination = pino.destination({ dest: config.log.file ?? 1, mkdir: true, sync: false });
  return pino({ level: config.log.level, base: { service: 'svc-api' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** Builds the app from the config (nothing listens yet). */
export function buildApi(config: ApiConfig, options: ApiOptions = {}) {
  const container = buildApiContainer(config, options, options.overrides);
  const version = container.resolve(RUN_SETTINGS).tool.version;
  const logger = options.logger ?? apiLogger(config);
  const current = container.resolve(CurrentRun);
  const replay = new ReplayCache(async () => (await current.summary()).id);
  const routes = apiRoutes(container, config, version, replay, logger);
  const authenticator = createAuthenticator(config.auth, {
    onRefused: (r) => logger.warn({ auth: r.method, code: r.code, reason: r.reason }, 'credential refused'),
    recognize: agencyRecognition(
      container.resolve(FEDRAMP_PROFILE),
      config.auth.mtls && { file: config.auth.mtls.ca, authorities: readTrustedAuthorities(config.auth.mtls.ca) },
    ),
  });
  const openapi = buildOpenApi(routes, version);
  const access = container.resolve(AccessRecorder);
  access.onError = (error, events) => logger.error({ err: error, events }, events > 0 ? 'access log write failed' : 'access log upkeep failed');
  access.onRefused = (refusal) => logger.warn(refusal, 'access event refused');
  access.onUpkeep = (done) => Object.values(done).some((n) => n > 0) && logger.info({ access_upkeep: done }, 'access log upkeep');
  access.retention = { log_days: config.limits.access_log_days, summary_days: config.limits.access_summary_days };
  const problems = detailPolicy(container, config, options);
  const app = createApp({ routes, openapi, authenticator, roles: config.roles, limits: config.limits, logger, access, problems });
  const handler = createFrontDoor({
    app,
    logger,
    limits: config.limits,
    replay,
    quickPrincipal: authenticator.withoutHandshake,
    holdsRole: (principal, roles) => holdsRole(principal, roles, config.roles),
    problems,
  });
  return { handler, app, container, routes, openapi, logger, authenticator, access };
}

/**
 * Who reads server paths in problem details (an operator) and which they are: the run store, the API config's and
 * the offering profile's directories, the log file, the signing key, the svc home and the working directory.
 */
function detailPolicy(container: DependencyContainer, config: ApiConfig, options: ApiOptions): DetailPolicy {
  const env = options.env ?? process.env;
  const paths = new ServerPaths(container.resolve(RUN_STORE).location, [
    config.file && dirname(config.file),
    dirname(container.resolve(FEDRAMP_PROFILE).file),
    config.log.file,
    config.signing_key,
    env.SVC_HOME,
    env.SVC_CONFIG && dirname(env.SVC_CONFIG),
    options.cwd ?? process.cwd(),
  ]);
  const reveals = (req: IncomingMessage): boolean => {
    const { principal } = contextOf(req);
    return principal !== undefined && holdsRole(principal, ['operator'], config.roles);
  };
  return { paths, reveals };
}

/**
 * Without an authentication method every protected route answers 401, but the open ones (readiness, the OpenAPI
 * document) still describe the deployment: such a server may listen on loopback only.
 */
export function refuseOpenBind(config: Pick<ApiConfig, 'host' | 'auth'>): void {
  const { negotiate, mtls, proxy } = config.auth;
  if (negotiate || mtls || proxy || config.host === 'localhost' || isLoopbackAddress(normalizeAddress(config.host))) return;
  throw new ConfigError(
    'unauthenticated-bind',
    `${config.host} is not a loopback address, and no authentication is configured; configure auth.negotiate, auth.mtls or auth.proxy in the API config (docs/api.md), or bind to 127.0.0.1 (--host 127.0.0.1)`,
  );
}

/** Builds the app and listens on config.host:config.port: HTTPS with client certificates when auth.mtls is set. */
export async function startApi(config: ApiConfig, options: ApiOptions = {}): Promise<RunningApi> {
  refuseOpenBind(config);
  const { handler, container, routes, logger, access } = buildApi(config, options);
  if (config.auth.negotiate) requireKerberos(); // a missing or broken module stops the start, not the first handshake
  await container.resolve(SIGNER).load(config.signing_key);
  // A slow or stalled client cannot hold a connection: headers within 10 s, the whole request within 30 s, checked every second.
  const limits = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 };
  const server = config.auth.mtls ? createHttpsServer({ ...tlsServerOptions(config.auth.mtls), ...limits }, handler) : createHttpServer(limits, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // The SAR and its envelope are signed when a run is recorded (svc conmon process --key), and served as stored: the
  // key is loaded here only so that an unusable one stops the start and readiness can report it.
  const warnings: string[] = [];
  return {
    server,
    warnings,
    url: `${config.auth.mtls ? 'https' : 'http'}://${host}:${port}`,
    routes,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await access.flush();
      await container.resolve(RUN_STORE).close();
      logger.flush();
    },
  };
}
