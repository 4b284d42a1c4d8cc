import type { InjectionToken } from 'tsyringe';
import type { GraphCloud } from '../domain/directory/graph-cloud';

/** How the app proves itself to Entra ID: a client secret read from an environment variable, or a certificate. */
export type GraphCredential =
  | { kind: 'secret'; secretEnv: string }
  | {
      kind: 'certificate';
      /** PEM private key file (RSA: Entra signs client assertions with RS256/PS256). */
      privateKey: string;
      /** Hex SHA-1 (40) or SHA-256 (64) thumbprint of the certificate uploaded to the app registration. */
      thumbprint?: string;
      /** PEM certificate file; its SHA-256 thumbprint is used when no thumbprint is given, and it is sent as x5c. */
      certificate?: string;
    };

/** Retry budget for throttled (429) or unavailable (503) Graph answers. */
export interface GraphRetryBudget {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Most time spent waiting across the retries of one request. */
  maxWaitMs: number;
}

export const DEFAULT_GRAPH_RETRY: GraphRetryBudget = { attempts: 4, maxWaitMs: 60_000 };
export const DEFAULT_ORG_PATH_ATTRIBUTE = 'onPremisesExtensionAttributes.extensionAttribute1';

/**
 * The API's `graph` settings (docs/graph.md). With `exportFile` the directory adapters read that Graph export
 * offline and nothing else is needed; otherwise tenantId, clientId and credential are set (the config parser
 * enforces it). Paths are absolute. The secret itself is never here: only the name of the variable holding it.
 */
export interface GraphSettings {
  cloud: GraphCloud;
  tenantId?: string;
  clientId?: string;
  credential?: GraphCredential;
  exportFile?: string;
  /** Overrides of the cloud's sign-in and Graph hosts (`host[:port]`), for tests against local servers. */
  authorityHost?: string;
  graphHost?: string;
  /** Extra trusted CA certificates (PEM file) for the HTTPS calls to the token endpoint and Graph. */
  caFile?: string;
  /** User property holding the organizational path: a top-level property or onPremisesExtensionAttributes.extensionAttributeN. */
  orgPathAttribute: string;
  retry: GraphRetryBudget;
  /** How long one HTTP request may take; default 30 s. */
  timeoutMs?: number;
}

export const GRAPH_SETTINGS: InjectionToken<GraphSettings> = Symbol('GraphSettings');
