import { isAbsolute, resolve } from 'node:path';
import { BOUNDARY_ENVIRONMENTS, type BoundaryEnvironment, isBoundaryEnvironment } from '../../../domain/directory/boundary-capabilities';
import { GRAPH_CLOUD_NAMES, type GraphCloud, isGraphCloud } from '../../../domain/directory/graph-cloud';
import { type OrgPathRule, readOrgPathRules } from '../../../domain/directory/org-path';
import { InvalidInputError } from '../../../domain/errors';
import { describe, isPlainObject } from '../../../domain/encoding/json-values';
import { DEFAULT_GRAPH_RETRY, DEFAULT_ORG_PATH_ATTRIBUTE, type GraphCredential, type GraphSettings } from '../../../ports/graph-settings';

type Fail = (path: string, problem: string) => never;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const THUMBPRINT = /^([0-9a-f]{40}|[0-9a-f]{64})$/i;
/** A top-level user property, or one of the 15 onPremisesExtensionAttributes. */
const ORG_PATH_ATTRIBUTE = /^(onPremisesExtensionAttributes\.extensionAttribute([1-9]|1[0-5])|[A-Za-z][A-Za-z0-9_]*)$/;

const GRAPH_KEYS = [
  'cloud',
  'tenant_id',
  'client_id',
  'client_secret_env',
  'certificate',
  'export',
  'authority_host',
  'graph_host',
  'ca_file',
  'orgpath_attribute',
  'retry',
  'timeout_seconds',
];

function failer(file: string, section: string): Fail {
  return (path, problem) => {
    throw new InvalidInputError('invalid-api-config', `${file}: ${path}: ${problem}; fix the "${section}" section (docs/graph.md)`);
  };
}

/**
 * The API config file's `graph` section → GraphSettings (undefined when absent). Strict: unknown keys, wrong types
 * and a secret written into the file are refused with InvalidInputError code invalid-api-config, e.g.
 * `<file>: graph.cloud: expected one of Public, USGov, USGovDoD, got "Mars"; fix the "graph" section (docs/graph.md)`.
 * Relative paths are resolved against `baseDir` (the config file's directory). With `export` the other
 * connection settings may be left out.
 */
export function parseGraphConfig(value: unknown, file: string, baseDir: string): GraphSettings | undefined {
  if (value === undefined) return undefined;
  const fail = failer(file, 'graph');
  if (!isPlainObject(value)) return fail('graph', `expected an object, got ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (key === 'client_secret')
      fail(
        'graph.client_secret',
        'a secret may not be written in the config file; put it in an environment variable and name that variable in graph.client_secret_env',
      );
    if (!GRAPH_KEYS.includes(key)) fail(`graph.${key}`, `unknown setting (known: ${GRAPH_KEYS.join(', ')})`);
  }
  const path = (raw: unknown, at: string): string | undefined => {
    if (raw === undefined) return undefined;
    if (typeof raw !== 'string' || raw.trim() === '') return fail(at, `expected a file path, got ${describe(raw)}`);
    return isAbsolute(raw) ? raw : resolve(baseDir, raw);
  };
  const exportFile = path(value.export, 'graph.export');
  const offline = exportFile !== undefined;

  let cloud: GraphCloud = 'Public';
  if (value.cloud !== undefined || !offline) {
    if (!isGraphCloud(value.cloud)) fail('graph.cloud', `expected one of ${GRAPH_CLOUD_NAMES.join(', ')}, got ${describe(value.cloud)}`);
    cloud = value.cloud as GraphCloud;
  }
  const settings: GraphSettings = { cloud, orgPathAttribute: DEFAULT_ORG_PATH_ATTRIBUTE, retry: { ...DEFAULT_GRAPH_RETRY } };
  if (exportFile !== undefined) settings.exportFile = exportFile;

  if (value.tenant_id !== undefined || !offline) {
    const tenant = value.tenant_id;
    if (typeof tenant !== 'string' || !(GUID.test(tenant) || DOMAIN.test(tenant)))
      fail('graph.tenant_id', `expected the directory (tenant) id as a GUID or a domain such as contoso.onmicrosoft.com, got ${describe(tenant)}`);
    settings.tenantId = tenant as string;
  }
  if (value.client_id !== undefined || !offline) {
    const client = value.client_id;
    if (typeof client !== 'string' || !GUID.test(client)) fail('graph.client_id', `expected the application (client) id as a GUID, got ${describe(client)}`);
    settings.clientId = client as string;
  }
  const credential = readCredential(value, fail, path);
  if (credential !== undefined) settings.credential = credential;
  else if (!offline)
    fail(
      'graph',
      'no credential; set client_secret_env (the name of the variable holding the client secret) or certificate {private_key, thumbprint or certificate}',
    );

  for (const key of ['authority_host', 'graph_host'] as const) {
    const host = value[key];
    if (host === undefined) continue;
    if (typeof host !== 'string' || !HOST.test(host))
      fail(`graph.${key}`, `expected a host name with an optional port, such as login.microsoftonline.us or 127.0.0.1:8443, got ${describe(host)}`);
    if (key === 'authority_host') settings.authorityHost = host as string;
    else settings.graphHost = host as string;
  }
  const ca = path(value.ca_file, 'graph.ca_file');
  if (ca !== undefined) settings.caFile = ca;
  if (value.orgpath_attribute !== undefined) {
    const attribute = value.orgpath_attribute;
    if (typeof attribute !== 'string' || !ORG_PATH_ATTRIBUTE.test(attribute))
      fail(
        'graph.orgpath_attribute',
        `expected a user property name or onPremisesExtensionAttributes.extensionAttribute1 to 15, got ${typeof attribute === 'string' ? JSON.stringify(attribute) : describe(attribute)}`,
      );
    settings.orgPathAttribute = attribute as string;
  }
  if (value.retry !== undefined) {
    const retry = value.retry;
    if (!isPlainObject(retry)) return fail('graph.retry', `expected an object {"attempts": 4, "max_wait_seconds": 60}, got ${describe(retry)}`);
    for (const [key, v] of Object.entries(retry)) {
      if (key === 'attempts') {
        if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 10)
          fail('graph.retry.attempts', `expected a whole number from 1 to 10, got ${describe(v)}`);
        settings.retry.attempts = v as number;
      } else if (key === 'max_wait_seconds') {
        if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 600)
          fail('graph.retry.max_wait_seconds', `expected a whole number of seconds from 0 to 600, got ${describe(v)}`);
        settings.retry.maxWaitMs = (v as number) * 1000;
      } else {
        fail(`graph.retry.${key}`, 'unknown setting (known: attempts, max_wait_seconds)');
      }
    }
  }
  if (value.timeout_seconds !== undefined) {
    const t = value.timeout_seconds;
    if (!Number.isInteger(t) || (t as number) < 1 || (t as number) > 300)
      fail('graph.timeout_seconds', `expected a whole number of seconds from 1 to 300, got ${describe(t)}`);
    settings.timeoutMs = (t as number) * 1000;
  }
  return settings;
}

function readCredential(value: Record<string, unknown>, fail: Fail, path: (raw: unknown, at: string) => string | undefined): GraphCredential | undefined {
  const secretEnv = value.client_secret_env;
  const certificate = value.certificate;
  if (secretEnv !== undefined && certificate !== undefined) fail('graph', 'both client_secret_env and certificate are set; keep one credential');
  if (secretEnv !== undefined) {
    if (typeof secretEnv !== 'string' || !ENV_NAME.test(secretEnv))
      fail('graph.client_secret_env', `expected the name of an environment variable such as "SVC_GRAPH_SECRET", got ${describe(secretEnv)}`);
    return { kind: 'secret', secretEnv: secretEnv as string };
  }
  if (certificate === undefined) return undefined;
  if (!isPlainObject(certificate))
    return fail('graph.certificate', `expected an object {"private_key": ..., "thumbprint" or "certificate": ...}, got ${describe(certificate)}`);
  for (const key of Object.keys(certificate))
    if (!['private_key', 'thumbprint', 'certificate'].includes(key))
      fail(`graph.certificate.${key}`, 'unknown setting (known: private_key, thumbprint, certificate)');
  const privateKey = path(certificate.private_key, 'graph.certificate.private_key');
  if (privateKey === undefined) return fail('graph.certificate.private_key', "missing; name the PEM file of the certificate's private key");
  const out: GraphCredential = { kind: 'certificate', privateKey };
  if (certificate.thumbprint !== undefined) {
    const t = certificate.thumbprint;
    if (typeof t !== 'string' || !THUMBPRINT.test(t.replace(/:/g, '')))
      fail('graph.certificate.thumbprint', `expected the certificate's SHA-1 (40 hex digits) or SHA-256 (64 hex digits) thumbprint, got ${describe(t)}`);
    out.thumbprint = t as string;
  }
  const cert = path(certificate.certificate, 'graph.certificate.certificate');
  if (cert !== undefined) out.certificate = cert;
  if (out.thumbprint === undefined && out.certificate === undefined)
    fail('graph.certificate', 'needs thumbprint or certificate (the PEM certificate uploaded to the app registration)');
  return out;
}

/** The `orgpath` section: `{"rules": [{"match": {...}, "path": "/Org/Unit"}]}`; no rules when absent. */
export function parseOrgPathConfig(value: unknown, file: string): { rules: OrgPathRule[] } {
  if (value === undefined) return { rules: [] };
  const fail = failer(file, 'orgpath');
  if (!isPlainObject(value)) return fail('orgpath', `expected an object {"rules": [...]}, got ${describe(value)}`);
  for (const key of Object.keys(value)) if (key !== 'rules') fail(`orgpath.${key}`, 'unknown setting (known: rules)');
  return { rules: value.rules === undefined ? [] : readOrgPathRules(value.rules, 'orgpath.rules', fail) };
}

/** The `boundary` section: `{"environment": "GCCHigh", "required": ["conditional-access", ...]}`; undefined when absent. */
export function parseBoundaryConfig(value: unknown, file: string): { environment: BoundaryEnvironment; required: string[] } | undefined {
  if (value === undefined) return undefined;
  const fail = failer(file, 'boundary');
  if (!isPlainObject(value)) return fail('boundary', `expected an object {"environment": ..., "required": [...]}, got ${describe(value)}`);
  for (const key of Object.keys(value))
    if (key !== 'environment' && key !== 'required') fail(`boundary.${key}`, 'unknown setting (known: environment, required)');
  if (!isBoundaryEnvironment(value.environment))
    fail('boundary.environment', `expected one of ${BOUNDARY_ENVIRONMENTS.join(', ')}, got ${describe(value.environment)}`);
  const required = value.required ?? [];
  if (!Array.isArray(required)) return fail('boundary.required', `expected an array of feature ids, got ${describe(required)}`);
  required.forEach((id, i) => {
    if (typeof id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(id))
      fail(`boundary.required[${i}]`, `expected a feature id in kebab case such as "conditional-access", got ${describe(id)}`);
  });
  return { environment: value.environment as BoundaryEnvironment, required: required as string[] };
}
