/* eslint-disable @typescript-eslint/no-require-imports -- @azure/msal-node is an optional peer: loaded on first use */
import { ConfigError, UnavailableError } from '../../domain/errors';
import type { HttpsTransport } from './https-transport';
import { networkReason } from './https-transport';
import { MsalNetworkClient } from './msal-network-client';

/** The credential MSAL is given: a secret value, or a PEM key with the certificate's thumbprint. */
export type ClientCredential = { secret: string } | { privateKey: string; thumbprintSha256?: string; thumbprint?: string; x5c?: string };

export interface MsalTokenSourceOptions {
  tenantId: string;
  clientId: string;
  credential: ClientCredential;
  /** `host[:port]` of the sign-in service, e.g. login.microsoftonline.us. */
  authorityHost: string;
  /** `https://<graph host of the cloud>/.default`. */
  scope: string;
  transport: HttpsTransport;
}

interface MsalApp {
  acquireTokenByClientCredential(request: { scopes: string[] }): Promise<{ accessToken: string } | null>;
}

/** Access tokens for Graph: client credentials through MSAL, which caches them until shortly before they expire. */
export interface TokenSource {
  getToken(): Promise<string>;
}

/**
 * MSAL ConfidentialClientApplication for one tenant. The authority's metadata and the cloud discovery document
 * are given to MSAL, and the host is a known authority, so MSAL never calls instance discovery: the token endpoint
 * is the only request it makes. Errors are worded without the secret, the assertion or any token.
 */
export class MsalTokenSource implements TokenSource {
  readonly tokenEndpoint: string;
  private readonly app: MsalApp;
  private readonly network: MsalNetworkClient;

  constructor(private readonly options: MsalTokenSourceOptions) {
    const msal = loadMsal();
    const { tenantId, clientId, credential, authorityHost } = options;
    const authority = `https://${authorityHost}/${tenantId}`;
    this.tokenEndpoint = `${authority}/oauth2/v2.0/token`;
    this.network = new MsalNetworkClient(options.transport);
    const authorityMetadata = JSON.stringify({
      token_endpoint: this.tokenEndpoint,
      issuer: `${authority}/v2.0`,
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
      jwks_uri: `https://${authorityHost}/${tenantId}/discovery/v2.0/keys`,
    });
    const cloudDiscoveryMetadata = JSON.stringify({
      tenant_discovery_endpoint: `${authority}/v2.0/.well-known/openid-configuration`,
      'api-version': '1.1',
      metadata: [{ preferred_network: authorityHost, preferred_cache: authorityHost, aliases: [authorityHost] }],
    });
    const auth = {
      clientId,
      authority,
      knownAuthorities: [authorityHost],
      authorityMetadata,
      cloudDiscoveryMetadata,
      ...('secret' in credential ? { clientSecret: credential.secret } : { clientCertificate: credential }),
    };
    this.app = new msal.ConfidentialClientApplication({ auth, system: { networkClient: this.network } });
  }

  async getToken(): Promise<string> {
    let result: { accessToken: string } | null;
    try {
      result = await this.app.acquireTokenByClientCredential({ scopes: [this.options.scope] });
    } catch (error) {
      throw this.translate(error);
    }
    // MSAL resolves with an empty token when the endpoint answers 404 {} (shared/recipes/NOTES.md).
    if (!result || typeof result.accessToken !== 'string' || result.accessToken === '') {
      const status = this.network.lastStatus === undefined ? '' : ` (HTTP ${this.network.lastStatus})`;
      throw new ConfigError(
        'graph-token-empty',
        `${this.tokenEndpoint}: answered without an access token${status}; check graph.tenant_id and graph.cloud (or graph.authority_host)`,
      );
    }
    return result.accessToken;
  }

  private translate(error: unknown): Error {
    const { lastFailure, lastStatus } = this.network;
    if (lastFailure !== undefined) {
      return new UnavailableError(
        'graph-token-unreachable',
        `${this.tokenEndpoint}: ${networkReason(lastFailure)}; check graph.cloud (or graph.authority_host), the network and graph.ca_file`,
        { cause: error },
      );
    }
    if (lastStatus !== undefined && (lastStatus === 429 || lastStatus >= 500)) {
      return new UnavailableError('graph-token-unavailable', `${this.tokenEndpoint}: the token endpoint answered HTTP ${lastStatus}; try again later`, {
        cause: error,
      });
    }
    const code =
      typeof error === 'object' && error !== null && typeof (error as { errorCode?: unknown }).errorCode === 'string'
        ? (error as { errorCode: string }).errorCode
        : 'unknown_error';
    return new ConfigError(
      'graph-credentials-rejected',
      `${this.tokenEndpoint}: the token endpoint refused the client credentials of app ${this.options.clientId} (${code}); check graph.tenant_id, graph.client_id and the client secret or certificate`,
      { cause: error },
    );
  }
}

function loadMsal(): { ConfidentialClientApplication: new (config: unknown) => MsalApp } {
  try {
    return require('@azure/msal-node') as { ConfidentialClientApplication: new (config: unknown) => MsalApp };
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new ConfigError(
      'api-extra-missing',
      '@azure/msal-node is not installed, and the directory routes need it to sign in to Microsoft Graph; install it with: npm install @azure/msal-node',
      { cause: error },
    );
  }
}
