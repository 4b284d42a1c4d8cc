import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { InvalidInputError } from '../../../domain/errors';
import { describe, isPlainObject } from '../../../domain/encoding/json-values';
import type { BoundaryEnvironment } from '../../../domain/directory/boundary-capabilities';
import type { OrgPathRule } from '../../../domain/directory/org-path';
import type { GraphSettings } from '../../../ports/graph-settings';
import { parseAuthConfig, type AuthConfig } from '../auth/auth-config';
import { parseBoundaryConfig, parseGraphConfig, parseOrgPathConfig } from './directory-config';
import type { Role } from '../auth/principal';
import { readRoleGrants, type RoleGrant } from '../auth/role-grants';
import { jsonSyntaxProblem } from '../../../domain/encoding/json-syntax-problem';
import { DEFAULT_ACCESS_LOG_DAYS, DEFAULT_ACCESS_SUMMARY_DAYS, MIN_ACCESS_SUMMARY_DAYS } from '../../../domain/trust/access-log';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8000;

export interface ApiLimits {
  /** Largest JSON request body accepted, in bytes (413 beyond). */
  body_bytes: number;
  /** Requests per minute per client address before 429. */
  requests_per_minute: number;
  /** Days the access log keeps raw events (today included); DEFAULT_ACCESS_LOG_DAYS. */
  access_log_days: number;
  /** Days the access log keeps its summaries (today included), at least MIN_ACCESS_SUMMARY_DAYS (CDS-TRC-ACL). */
  access_summary_days: number;
}

/** The API config file (`--config`, SVC_API_CONFIG, or ./svc-api.json). Every key is optional; docs/api.md lists them. */
export interface ApiConfig {
  file?: string;
  host: string;
  port: number;
  /** Run store: a directory, or postgres://… (as SVC_STORE); default SVC_STORE, else the svc home's store. */
  store?: string;
  auth: AuthConfig;
  /**
   * Grants per role, each bound to how the principal authenticated (role-grants.ts): a string for a Kerberos or proxy
   * name (`*` for every such principal), an object for a certificate's holder and its CA. `agency` is also held by
   * every principal the offering's profile recognizes as an agency's (fedramp.agencies: realms, issuers, domains), who
   * then holds no other role.
   */
  roles: Record<Role, RoleGrant[]>;
  limits: ApiLimits;
  /** PEM key that signs the SAR the API serves; default SVC_SIGNING_KEY, else the development key. */
  signing_key?: string;
  log: { level: 'debug' | 'info' | 'warn' | 'error' | 'silent'; file?: string };
  /** Microsoft Graph (docs/graph.md); absent: the survey and orgpath routes answer that Graph is not configured. */
  graph?: GraphSettings;
  /** Organizational path rules POST /orgpath/assign applies when the request brings none. */
  orgpath: { rules: OrgPathRule[] };
  /** The environment and required features the boundary routes use when the request names none. */
  boundary?: { environment: BoundaryEnvironment; required: string[] };
}

const KEYS = ['$schema', 'host', 'port', 'store', 'auth', 'roles', 'limits', 'signing_key', 'log', 'graph', 'orgpath', 'boundary'];
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
const DEFAULT_LIMITS: ApiLimits = {
  body_bytes: 1024 * 1024,
  requests_per_minute: 6000,
  access_log_days: DEFAULT_ACCESS_LOG_DAYS,
  access_summary_days: DEFAULT_ACCESS_SUMMARY_DAYS,
};

/**
 * The config file named by `--config`, else SVC_API_CONFIG, else ./svc-api.json when it exists, else the defaults;
 * `overrides` (the --host and --port flags) replace the file's values and are checked by the same rules.
 */
export function loadApiConfig(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  overrides: Record<string, unknown> = {},
): ApiConfig {
  const named = explicit ?? env.SVC_API_CONFIG;
  const file = resolve(cwd, named ?? 'svc-api.json');
  if (named === undefined && !existsSync(file)) return readApiConfig(overrides, undefined, cwd);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch {
    throw new InvalidInputError('api-config-unreadable', `${file}: cannot read the API config file; fix the path given to --config or SVC_API_CONFIG`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(
      'invalid-api-config',
      `${file}: not valid JSON (${jsonSyntaxProblem((error as Error).message)}); fix the file (docs/api.md shows one)`,
    );
  }
  return readApiConfig(isPlainObject(document) ? { ...document, ...overrides } : document, file, dirname(file));
}

/** Checks a parsed config document; relative paths are resolved against `baseDir`. */
export function readApiConfig(document: unknown, file: string | undefined, baseDir: string): ApiConfig {
  const where = file ?? 'API config';
  const fail = (path: string, problem: string, fix: string): never => {
    throw new InvalidInputError('invalid-api-config', `${where}: ${path}: ${problem}; ${fix}`);
  };
  if (!isPlainObject(document)) return fail('$', `expected an object, got ${describe(document)}`, 'write { "port": 8000, "auth": { … } } (docs/api.md)');
  for (const key of Object.keys(document)) if (!KEYS.includes(key)) fail(key, 'unknown setting', `use one of ${KEYS.slice(1).join(', ')}`);
  const { host = DEFAULT_HOST, port = DEFAULT_PORT, store, roles = {}, limits = {}, signing_key, log = {} } = document;
  if (typeof host !== 'string' || isIP(host) === 0)
    fail('host', `expected an IP address to bind, got ${describe(host)}`, 'write e.g. "127.0.0.1" (or "0.0.0.0" behind a proxy)');
  const checkPort = portCheck(fail);
  checkPort('port', port);
  if (store !== undefined && (typeof store !== 'string' || store.trim() === ''))
    fail('store', `expected a directory or a postgres:// URL, got ${describe(store)}`, 'write e.g. ".svc/store"');
  if (signing_key !== undefined && (typeof signing_key !== 'string' || signing_key.trim() === ''))
    fail('signing_key', `expected a PEM file path, got ${describe(signing_key)}`, 'write e.g. "keys/sar-signing.pem"');
  const auth = parseAuthConfig(document.auth, where, baseDir);
  return {
    ...(file !== undefined ? { file } : {}),
    host: host as string,
    port: port as number,
    ...(store !== undefined ? { store: /^postgres(ql)?:\/\//i.test(store as string) ? (store as string) : resolve(baseDir, store as string) } : {}),
    auth,
    roles: readRoleGrants(roles, auth, fail),
    limits: readLimits(limits, fail),
    ...(signing_key !== undefined ? { signing_key: resolve(baseDir, signing_key as string) } : {}),
    log: readLog(log, baseDir, fail),
    ...optional('graph', parseGraphConfig(document.graph, where, baseDir)),
    orgpath: parseOrgPathConfig(document.orgpath, where),
    ...optional('boundary', parseBoundaryConfig(document.boundary, where)),
  };
}

type Fail = (path: string, problem: string, fix: string) => never;

function optional<K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [k in K]?: V };
}

function portCheck(fail: Fail) {
  return (path: string, value: unknown) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65535)
      fail(path, `expected a TCP port 0–65535, got ${describe(value)}`, 'write e.g. 8000');
  };
}

function readLimits(value: unknown, fail: Fail): ApiLimits {
  if (!isPlainObject(value))
    return fail('limits', `expected an object, got ${describe(value)}`, 'write { "body_bytes": 1048576, "requests_per_minute": 6000 }');
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, v] of Object.entries(value)) {
    if (!(key in DEFAULT_LIMITS)) fail(`limits.${key}`, 'unknown setting', 'use body_bytes, requests_per_minute, access_log_days or access_summary_days');
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
      fail(`limits.${key}`, `expected a positive integer, got ${describe(v)}`, `write e.g. ${DEFAULT_LIMITS[key as keyof ApiLimits]}`);
    limits[key as keyof ApiLimits] = v as number;
  }
  // The access log: summaries at least the six months CDS-TRC-ACL asks (the default range of /fedramp/access), raw
  // events at least today and yesterday (still written to) and never longer than their summaries.
  if (limits.access_summary_days < MIN_ACCESS_SUMMARY_DAYS) {
    fail(
      'limits.access_summary_days',
      `expected at least ${MIN_ACCESS_SUMMARY_DAYS} days (the six months CDS-TRC-ACL asks summaries of access be kept), got ${limits.access_summary_days}`,
      `write e.g. ${DEFAULT_ACCESS_SUMMARY_DAYS}`,
    );
  }
  if (limits.access_log_days < 2 || limits.access_log_days > limits.access_summary_days) {
    fail(
      'limits.access_log_days',
      `expected 2 days (today and yesterday, still written to) to limits.access_summary_days (${limits.access_summary_days}), got ${limits.access_log_days}`,
      `write e.g. ${DEFAULT_ACCESS_LOG_DAYS}`,
    );
  }
  return limits;
}

function readLog(value: unknown, baseDir: string, fail: Fail): ApiConfig['log'] {
  if (!isPlainObject(value)) return fail('log', `expected an object, got ${describe(value)}`, 'write { "level": "info", "file": "svc-api.log" }');
  for (const key of Object.keys(value)) if (key !== 'level' && key !== 'file') fail(`log.${key}`, 'unknown setting', 'use level or file');
  const { level = 'info', file } = value;
  if (!(LOG_LEVELS as readonly unknown[]).includes(level))
    fail('log.level', `expected one of ${LOG_LEVELS.join(', ')}, got ${describe(level)}`, 'write e.g. "info"');
  if (file !== undefined && (typeof file !== 'string' || file.trim() === ''))
    fail('log.file', `expected a file path, got ${describe(file)}`, 'write e.g. "svc-api.log", or leave it out to log to stdout');
  return { level: level as ApiConfig['log']['level'], ...(file !== undefined ? { file: resolve(baseDir, file as string) } : {}) };
}
