import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { AgencyProvider } from '../../domain/agency/providers';
import { TrustCenterFailure } from '../../domain/agency/trust-center-failure';

/**
 * The part of the optional `kerberos` module (7.x) the initiator uses, declared here so svc builds where the module
 * could not be compiled (it needs the GSS-API headers); it is loaded when a provider authenticates with Negotiate.
 */
export interface KerberosInitiatorModule {
  initializeClient(service: string, options?: { mechOID?: unknown }): Promise<KerberosInitiator>;
  readonly GSS_MECH_OID_SPNEGO: unknown;
}

/** One GSS-API initiator context of the `kerberos` module. */
export interface KerberosInitiator {
  step(challenge: string): Promise<string>;
}

/**
 * How the `kerberos` module is added where npm left it out (the same advice as svc-api's auth.negotiate gives,
 * interfaces/http/config/api-extra.ts, which infrastructure may not import).
 */
const KERBEROS_INSTALL = "apt-get install libkrb5-dev (or your system's GSS-API headers), then npm install 'kerberos@^7.0.0'";

/** What a session proves itself with, read once when it opens: the TLS material, and the Authorization header. */
export interface TrustCenterCredentials {
  /** For the https Agent: the CAs to trust (Node's roots and `provider.ca`), the client certificate and its key. */
  tls: { ca?: string[]; cert?: string; key?: string };
  /**
   * The Authorization header of one request, or undefined for none: the bearer token, or a fresh SPNEGO token each
   * call (the acceptor keeps a replay cache). `url` names the request in a failure ('auth', attempts 0).
   */
  authorization(url: string): Promise<string | undefined>;
}

/** Fails to open: the kind and one line, without a credential; attempts 0 (no request was made). */
function fail(kind: 'tls' | 'auth', message: string): never {
  throw new TrustCenterFailure(kind, message, 0);
}

function readText(path: string, what: string, kind: 'tls' | 'auth'): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fail(kind, `${path}: cannot read the ${what} names; fix the path or its permissions`);
  }
}

/** The first line of an OpenSSL or GSS-API message, without OpenSSL's `error:0A00…:routines::` prefix. */
function reasonOf(error: unknown): string {
  const message = typeof (error as { message?: unknown })?.message === 'string' ? (error as { message: string }).message : String(error);
  return (message.split('\n')[0] ?? '').replace(/^error:[0-9A-Fa-f]+:[^:]*:[^:]*:/, '').trim();
}

/**
 * Reads what `provider` authenticates with: its CA file, its token file or client certificate and key, or the
 * `kerberos` module (`kerberosModule` is the module id to load, for tests of its absence). Throws TrustCenterFailure
 * ('tls' for the CA file, 'auth' for the others) naming the file and never its content.
 */
export function readTrustCenterCredentials(provider: AgencyProvider, kerberosModule = 'kerberos'): TrustCenterCredentials {
  const tls: TrustCenterCredentials['tls'] = {};
  if (provider.ca !== undefined) {
    const pem = readText(provider.ca, 'CA file agency.providers[].ca', 'tls');
    if (!pem.includes('-----BEGIN CERTIFICATE-----'))
      fail('tls', `${provider.ca}: not a PEM file of CA certificates (agency.providers[].ca); give the CA certificates in PEM form`);
    try {
      createSecureContext({ ca: pem });
    } catch (error) {
      fail('tls', `${provider.ca}: the CA certificates in it do not parse (${reasonOf(error)}); give the CA certificates in PEM form`);
    }
    tls.ca = [...rootCertificates, pem];
  }
  const auth = provider.auth;
  switch (auth.kind) {
    case 'none':
      return { tls, authorization: () => Promise.resolve(undefined) };
    case 'token': {
      const token = readText(auth.tokenFile, 'token file agency.providers[].auth.token_file', 'auth').trim();
      if (token === '') fail('auth', `${auth.tokenFile}: the token file agency.providers[].auth.token_file names is empty; write the bearer token into it`);
      if (/[\r\n]/.test(token))
        fail('auth', `${auth.tokenFile}: the token file agency.providers[].auth.token_file names holds more than one line; keep the bearer token alone in it`);
      return { tls, authorization: () => Promise.resolve(`Bearer ${token}`) };
    }
    case 'cert': {
      const cert = readText(auth.cert, 'client certificate file agency.providers[].auth.cert', 'auth');
      const key = readText(auth.key, 'key file agency.providers[].auth.key', 'auth');
      try {
        createSecureContext({ cert, key });
      } catch (error) {
        fail(
          'auth',
          `${auth.cert}, ${auth.key}: not a client certificate and its key in PEM form (${reasonOf(error)}); fix agency.providers[].auth cert and key`,
        );
      }
      return { tls: { ...tls, cert, key }, authorization: () => Promise.resolve(undefined) };
    }
    case 'negotiate': {
      const kerberos = loadKerberos(kerberosModule);
      const spn = auth.spn ?? `HTTP@${new URL(provider.url).hostname}`;
      return {
        tls,
        async authorization(url) {
          try {
            const client = await kerberos.initializeClient(spn, { mechOID: kerberos.GSS_MECH_OID_SPNEGO });
            return `Negotiate ${await client.step('')}`;
          } catch (error) {
            // The GSS-API message names the ticket cache or the principal, never a key or a token.
            return fail(
              'auth',
              `${url}: no Kerberos ticket for ${spn} (${reasonOf(error)}); run kinit as the agency user (or log on to the domain), or check agency.providers[].auth.spn`,
            );
          }
        },
      };
    }
  }
}

/** The `kerberos` module, required lazily: the CLI installs and runs without it until a provider uses Negotiate. */
function loadKerberos(moduleId: string): KerberosInitiatorModule {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional native module, loaded only for Negotiate
    return require(moduleId) as KerberosInitiatorModule;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'MODULE_NOT_FOUND' && message.includes(`'${moduleId}'`))
      return fail('auth', `the kerberos module is not installed, and agency.providers[].auth kind negotiate needs it; ${KERBEROS_INSTALL}`);
    return fail(
      'auth',
      `the kerberos module does not load (${reasonOf(error)}); install the GSS-API library (Debian: libgssapi-krb5-2) or rebuild the module (npm rebuild kerberos)`,
    );
  }
}
