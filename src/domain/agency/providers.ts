import { describe, isPlainObject } from '../encoding/json-values';
import { CR26_CLASSES, type Cr26Class } from '../fedramp/cr26-rules';

/**
 * How svc authenticates to a provider's trust center (DESIGN §14): nothing (the open /fedramp/public only), the agency
 * user's Kerberos ticket through HTTP Negotiate, a client certificate and its key (PIV/CAC-style mutual TLS), or a
 * bearer token read from a file. Only paths are kept: the key, the ticket and the token never enter the configuration,
 * the store, a log or an output.
 */
export type ProviderAuth =
  | { kind: 'none' }
  /** `spn`: the acceptor's GSS service name; default `HTTP@<host of the URL>`. */
  | { kind: 'negotiate'; spn?: string }
  | { kind: 'cert'; cert: string; key: string }
  | { kind: 'token'; tokenFile: string };

export const AUTH_KINDS = ['none', 'negotiate', 'cert', 'token'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

/** One provider's trust center, as `agency.providers[]` of svc.config.json holds it. */
export interface AgencyProvider {
  /** The agency's own short name for it: letters, digits, `.`, `_` and `-` (it names the provider on every command). */
  name: string;
  /** The trust center's base URL (`https://trust.example.com`), without a trailing slash. */
  url: string;
  /** The FedRAMP ID when known (from the marketplace or the CPO); verification checks every document against it. */
  fedrampId?: string;
  /**
   * The certification class the agency knows the offering by (the marketplace's). FedRAMP's schemas carry no class, so
   * without it svc reads a trust center's own statement of it where one is given (svc-api's public information does).
   */
  class?: Cr26Class;
  auth: ProviderAuth;
  /** PEM file of the CA(s) to trust for the trust center's TLS certificate, beside the system's. */
  ca?: string;
}

/** How `svc agency pull` fetches (agency.pull). */
export interface PullSettings {
  /** Providers fetched at once. */
  concurrency: number;
  /** Per request, from connecting to the last byte. */
  timeoutMs: number;
  /** Attempts after the first, on a network error, a 429 or a 5xx. */
  retries: number;
  /** Largest document accepted. */
  maxDocumentBytes: number;
}

export const DEFAULT_PULL_SETTINGS: PullSettings = { concurrency: 8, timeoutMs: 15_000, retries: 2, maxDocumentBytes: 256 * 1024 * 1024 };

/** The agency side of svc.config.json (`agency`). */
export interface AgencySettings {
  /** The agency's name, as the providers' trust centers list it among the agencies an incident affects. */
  name?: string;
  providers: AgencyProvider[];
  pull: PullSettings;
}

export const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A FedRAMP ID as FedRAMP assigns it (`FR2611250001`), or, where none is assigned yet, the name and acronym the CPO schema asks for. */
export const FEDRAMP_ID = /^\S(?:[^\x00-\x1f\x7f]{0,198}\S)?$/;

/** The URL as svc keeps it (no trailing slash), or a problem: only http(s), no credentials, query or fragment. */
export function normalizeTrustCenterUrl(value: string): { url: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { problem: `"${value}" is not a URL; give the trust center's base, such as https://trust.example.com` };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { problem: `${parsed.protocol} is not http or https` };
  if (parsed.username !== '' || parsed.password !== '') return { problem: 'the URL holds credentials; give them with --auth instead' };
  if (parsed.search !== '' || parsed.hash !== '') return { problem: 'the URL holds a query or fragment; give the trust center base only' };
  return { url: `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}` };
}

/**
 * Why `auth` may not be used with `url`, or undefined when it may: svc sends a credential (a Kerberos token, a bearer
 * token; a client certificate needs TLS anyway) only over https, or over http to a trust center on this machine.
 */
export function clearTextProblem(url: string, auth: ProviderAuth): string | undefined {
  if (auth.kind === 'none') return undefined;
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return undefined;
  if (['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname) && auth.kind !== 'cert') return undefined;
  return auth.kind === 'cert'
    ? `${url} is http: a client certificate needs https`
    : `${url} is http: svc would send the ${auth.kind === 'negotiate' ? 'Kerberos' : 'bearer'} token in clear text; use the trust center's https URL (http only to one on this machine)`;
}

type Fail = (path: string, problem: string) => never;

/** Reads `agency` of svc.config.json; `resolvePath` resolves file paths against the config file's directory. */
export function readAgencySettings(value: unknown, fail: Fail, resolvePath: (path: string) => string): AgencySettings {
  if (!isPlainObject(value)) return fail('agency', `expected an object, got ${describe(value)}`);
  for (const key of Object.keys(value))
    if (!['name', 'providers', 'pull'].includes(key)) fail(`agency.${key}`, 'unknown setting (known: name, providers, pull)');
  const name = value.name;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) fail('agency.name', `expected the agency's name, got ${describe(name)}`);
  const list = value.providers ?? [];
  if (!Array.isArray(list)) return fail('agency.providers', `expected an array of providers, got ${describe(list)}`);
  const providers = list.map((p, i) => readProvider(p, `agency.providers[${i}]`, fail, resolvePath));
  const seen = new Set<string>();
  providers.forEach((p, i) => {
    if (seen.has(p.name)) fail(`agency.providers[${i}].name`, `"${p.name}" is named twice; give each provider its own name`);
    seen.add(p.name);
  });
  return { ...(typeof name === 'string' ? { name } : {}), providers, pull: readPull(value.pull, fail) };
}

function readProvider(value: unknown, at: string, fail: Fail, resolvePath: (path: string) => string): AgencyProvider {
  if (!isPlainObject(value)) return fail(at, `expected an object, got ${describe(value)}`);
  for (const key of Object.keys(value))
    if (!['name', 'url', 'fedramp_id', 'class', 'auth', 'ca'].includes(key))
      fail(`${at}.${key}`, 'unknown setting (known: name, url, fedramp_id, class, auth, ca)');
  const name = value.name;
  if (typeof name !== 'string' || !PROVIDER_NAME.test(name))
    fail(`${at}.name`, `expected a name of letters, digits, ".", "_" and "-" (at most 64), got ${describe(name)}`);
  if (typeof value.url !== 'string') return fail(`${at}.url`, `expected the trust center's base URL, got ${describe(value.url)}`);
  const url = normalizeTrustCenterUrl(value.url);
  if ('problem' in url) return fail(`${at}.url`, url.problem);
  const auth = readAuth(value.auth, `${at}.auth`, fail, resolvePath);
  const clear = clearTextProblem(url.url, auth);
  if (clear !== undefined) fail(`${at}.url`, clear);
  const id = value.fedramp_id;
  if (id !== undefined && (typeof id !== 'string' || !FEDRAMP_ID.test(id)))
    fail(`${at}.fedramp_id`, `expected a FedRAMP ID such as FR2611250001, got ${describe(id)}`);
  const cls = value.class;
  if (cls !== undefined && !CR26_CLASSES.includes(cls as Cr26Class)) fail(`${at}.class`, `expected one of ${CR26_CLASSES.join(', ')}, got ${describe(cls)}`);
  const ca = value.ca;
  if (ca !== undefined && (typeof ca !== 'string' || ca.trim() === ''))
    fail(`${at}.ca`, `expected the path of a PEM file of CA certificates, got ${describe(ca)}`);
  return {
    name: name as string,
    url: url.url,
    ...(typeof id === 'string' ? { fedrampId: id } : {}),
    ...(cls === undefined ? {} : { class: cls as Cr26Class }),
    auth,
    ...(typeof ca === 'string' ? { ca: resolvePath(ca) } : {}),
  };
}

function readAuth(value: unknown, at: string, fail: Fail, resolvePath: (path: string) => string): ProviderAuth {
  if (value === undefined) return { kind: 'none' };
  if (!isPlainObject(value)) return fail(at, `expected an object such as {"kind": "negotiate"}, got ${describe(value)}`);
  const path = (key: string): string => {
    const v = value[key];
    if (typeof v !== 'string' || v.trim() === '') return fail(`${at}.${key}`, `expected a file path, got ${describe(v)}`);
    return resolvePath(v);
  };
  const only = (keys: string[]) => {
    for (const key of Object.keys(value))
      if (!['kind', ...keys].includes(key)) fail(`${at}.${key}`, `not a setting of "${String(value.kind)}" (known: ${['kind', ...keys].join(', ')})`);
  };
  switch (value.kind) {
    case 'none':
      only([]);
      return { kind: 'none' };
    case 'negotiate': {
      only(['spn']);
      const spn = value.spn;
      if (spn !== undefined && (typeof spn !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(spn)))
        fail(`${at}.spn`, `expected a GSS service name such as HTTP@trust.example.com, got ${describe(spn)}`);
      return { kind: 'negotiate', ...(typeof spn === 'string' ? { spn } : {}) };
    }
    case 'cert':
      only(['cert', 'key']);
      return { kind: 'cert', cert: path('cert'), key: path('key') };
    case 'token':
      only(['token_file']);
      return { kind: 'token', tokenFile: path('token_file') };
    default:
      return fail(`${at}.kind`, `expected one of ${AUTH_KINDS.join(', ')}, got ${describe(value.kind)}`);
  }
}

function readPull(value: unknown, fail: Fail): PullSettings {
  if (value === undefined) return DEFAULT_PULL_SETTINGS;
  if (!isPlainObject(value)) return fail('agency.pull', `expected an object, got ${describe(value)}`);
  const keys = { concurrency: 'concurrency', timeout_ms: 'timeoutMs', retries: 'retries', max_document_bytes: 'maxDocumentBytes' } as const;
  const settings: PullSettings = { ...DEFAULT_PULL_SETTINGS };
  for (const [key, v] of Object.entries(value)) {
    if (!(key in keys)) fail(`agency.pull.${key}`, `unknown setting (known: ${Object.keys(keys).join(', ')})`);
    const least = key === 'retries' ? 0 : 1;
    if (!Number.isInteger(v) || (v as number) < least) fail(`agency.pull.${key}`, `expected a whole number of at least ${least}, got ${describe(v)}`);
    settings[keys[key as keyof typeof keys]] = v as number;
  }
  return settings;
}

/** The provider as svc.config.json writes it (snake_case, paths as given). */
export function providerConfigEntry(p: AgencyProvider): Record<string, unknown> {
  const auth =
    p.auth.kind === 'cert'
      ? { kind: 'cert', cert: p.auth.cert, key: p.auth.key }
      : p.auth.kind === 'token'
        ? { kind: 'token', token_file: p.auth.tokenFile }
        : p.auth.kind === 'negotiate' && p.auth.spn !== undefined
          ? { kind: 'negotiate', spn: p.auth.spn }
          : { kind: p.auth.kind };
  return {
    name: p.name,
    url: p.url,
    ...(p.fedrampId === undefined ? {} : { fedramp_id: p.fedrampId }),
    ...(p.class === undefined ? {} : { class: p.class }),
    auth,
    ...(p.ca === undefined ? {} : { ca: p.ca }),
  };
}
