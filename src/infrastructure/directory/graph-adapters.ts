import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GRAPH_CLOUDS } from '../../domain/directory/graph-cloud';
import { ConfigError } from '../../domain/errors';
import type { BoundaryProbe } from '../../ports/boundary-probe';
import type { DirectoryService } from '../../ports/directory-service';
import type { GraphCredential, GraphSettings } from '../../ports/graph-settings';
import type { OrgPathDirectory } from '../../ports/org-path-directory';
import { ExportFileDirectoryService } from './export-file-directory-service';
import { ExportFileOrgPathDirectory } from './export-file-org-path-directory';
import { GraphClient, type Sleep } from './graph-client';
import { GraphDirectoryService } from './graph-directory-service';
import { GraphOrgPathDirectory } from './graph-org-path-directory';
import { HttpBoundaryProbe } from './http-boundary-probe';
import { HttpsTransport } from './https-transport';
import { type ClientCredential, MsalTokenSource } from './msal-token-source';
import { OfflineBoundaryProbe } from './offline-boundary-probe';

export interface GraphAdapterOptions {
  /** Where the client secret's variable is looked up; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Tests shorten Retry-After waits with their own sleep. */
  sleep?: Sleep;
}

/** Builds the Graph client of a settings object: HTTPS transport with the configured CA, MSAL token source, retries. */
export function createGraphClient(settings: GraphSettings, options: GraphAdapterOptions = {}): GraphClient {
  const { tenantId, clientId, credential } = settings;
  if (tenantId === undefined || clientId === undefined || credential === undefined) {
    throw new ConfigError(
      'graph-not-configured',
      'graph: tenant_id, client_id and a client secret or certificate are needed to call Microsoft Graph; set them, or set graph.export to work from an export file (docs/graph.md)',
    );
  }
  const hosts = GRAPH_CLOUDS[settings.cloud];
  const transport = new HttpsTransport({ caFile: settings.caFile, timeoutMs: settings.timeoutMs });
  const tokens = new MsalTokenSource({
    tenantId,
    clientId,
    credential: resolveCredential(credential, options.env ?? process.env, clientId),
    authorityHost: settings.authorityHost ?? hosts.authority_host,
    // The scope names the cloud's Graph resource, whatever host the requests are sent to.
    scope: `https://${hosts.graph_host}/.default`,
    transport,
  });
  return new GraphClient({ graphHost: settings.graphHost ?? hosts.graph_host, tokens, transport, retry: settings.retry, clientId, sleep: options.sleep });
}

/** One Graph client (so one MSAL token cache) per settings object, shared by the directory adapters. */
const clients = new WeakMap<GraphSettings, GraphClient>();

function clientFor(settings: GraphSettings, options: GraphAdapterOptions): GraphClient {
  let client = clients.get(settings);
  if (client === undefined) {
    client = createGraphClient(settings, options);
    clients.set(settings, client);
  }
  return client;
}

/** DIRECTORY_SERVICE for the settings: the export file when graph.export is set, else Microsoft Graph. */
export function createDirectoryService(settings: GraphSettings, options: GraphAdapterOptions = {}): DirectoryService {
  if (settings.exportFile !== undefined) return new ExportFileDirectoryService(settings.exportFile);
  const client = clientFor(settings, options);
  return new GraphDirectoryService(client, { tenantId: settings.tenantId as string, cloud: settings.cloud });
}

/** ORG_PATH_DIRECTORY for the settings: read-only over the export file, else read and PATCH through Graph. */
export function createOrgPathDirectory(settings: GraphSettings, options: GraphAdapterOptions = {}): OrgPathDirectory {
  if (settings.exportFile !== undefined) return new ExportFileOrgPathDirectory(settings.exportFile, settings.orgPathAttribute);
  return new GraphOrgPathDirectory(clientFor(settings, options), settings.orgPathAttribute);
}

/** BOUNDARY_PROBE: offline (not probed) in export mode; else HTTPS with the configured CA, no credentials needed. */
export function createBoundaryProbe(settings: GraphSettings | undefined): BoundaryProbe {
  if (settings?.exportFile !== undefined) return new OfflineBoundaryProbe();
  return new HttpBoundaryProbe(new HttpsTransport({ caFile: settings?.caFile }));
}

function resolveCredential(credential: GraphCredential, env: NodeJS.ProcessEnv, clientId: string): ClientCredential {
  if (credential.kind === 'secret') {
    const secret = env[credential.secretEnv];
    if (secret === undefined || secret === '') {
      throw new ConfigError(
        'graph-secret-missing',
        `graph.client_secret_env: the environment variable ${credential.secretEnv} is not set; set it to the client secret of app ${clientId}`,
      );
    }
    return { secret };
  }
  const privateKey = readPem(credential.privateKey, 'graph.certificate.private_key', 'private key');
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(privateKey)) {
    throw new ConfigError(
      'graph-key-unusable',
      `${credential.privateKey}: not an unencrypted PEM private key (graph.certificate.private_key); give the RSA key of the app's certificate in PEM form`,
    );
  }
  if (credential.certificate !== undefined) {
    const pem = readPem(credential.certificate, 'graph.certificate.certificate', 'certificate');
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(pem);
    } catch (error) {
      throw new ConfigError(
        'graph-key-unusable',
        `${credential.certificate}: not a PEM certificate (graph.certificate.certificate); give the certificate uploaded to the app registration`,
        { cause: error },
      );
    }
    const thumbprintSha256 = certificate.fingerprint256.replace(/:/g, '').toLowerCase();
    return { privateKey, thumbprintSha256, x5c: pem };
  }
  const thumbprint = (credential.thumbprint ?? '').replace(/:/g, '').toLowerCase();
  return thumbprint.length === 64 ? { privateKey, thumbprintSha256: thumbprint } : { privateKey, thumbprint };
}

function readPem(file: string, setting: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError('graph-key-unreadable', `${file}: cannot read the ${what} (${setting}); fix the path or its permissions`, { cause: error });
  }
}
