import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import { ConfigError } from '../../../domain/errors';
import { KERBEROS_INSTALL_COMMAND } from '../config/api-extra';
import type { Principal } from './principal';

/** What the strategy passes to `fail()`: the problem code and detail for the 401, and why, for the server log. */
export interface NegotiateFailure {
  code: 'negotiate-required' | 'negotiate-malformed' | 'negotiate-ntlm-refused' | 'negotiate-failed';
  detail: string;
  /** The GSS-API message when the token was refused; never holds the token. */
  reason?: string;
}

/** What the strategy passes to `success()` besides the principal: the server's token for mutual authentication. */
export interface NegotiateSuccess {
  mutualToken?: string;
}

/**
 * The part of the optional `kerberos` module (7.x) the acceptor uses, declared here so svc builds where the module
 * could not be compiled (it needs the GSS-API headers); `requireKerberos` loads the real one when Negotiate is used.
 */
export interface KerberosAcceptorModule {
  initializeServer(service: string): Promise<KerberosAcceptor>;
}

/** One GSS-API acceptor context of the `kerberos` module. */
export interface KerberosAcceptor {
  step(token: string): Promise<string>;
  readonly contextComplete: boolean;
  readonly username?: string;
  readonly response?: string;
}

const NEGOTIATE = /^Negotiate(?:\s|$)/i;
const TOKEN = /^Negotiate +([A-Za-z0-9+/]+={0,2}) *$/i;
const NTLM = 'TlRMTVNT'; // base64 of "NTLMSSP": a raw NTLM message, which RFC 4559 allows and svc-api refuses

/**
 * The SPNEGO handshake of RFC 4559 as a passport strategy (name `negotiate`), over the `kerberos` package's
 * acceptor. Kerberos completes in one round trip, so each request is one `step`; a handshake that needs a
 * second round (NTLM) is refused. The acceptor's key comes from the keytab KRB5_KTNAME names (MIT GSS-API).
 */
export class NegotiateStrategy extends Strategy {
  readonly name = 'negotiate';
  private kerberos: KerberosAcceptorModule | undefined;

  constructor(
    private readonly options: { spn: string; keytab?: string },
    platform: NodeJS.Platform = process.platform,
  ) {
    super();
    // kerberos 7 implements only the client side over SSPI: initializeServer throws "not implemented yet for windows".
    if (platform === 'win32') {
      throw new ConfigError(
        'negotiate-unsupported',
        'auth.negotiate is not available on Windows: the kerberos module has no server side there; let IIS do Windows authentication and trust it with auth.proxy (docs/iis.md), or run svc-api on Linux with a keytab',
      );
    }
    // MIT krb5 reads KRB5_KTNAME each time an acceptor needs its key.
    if (options.keytab) process.env.KRB5_KTNAME = `FILE:${options.keytab}`;
  }

  authenticate(req: Request): void {
    const header = req.headers.authorization ?? '';
    const fail = (failure: NegotiateFailure): void => this.fail(failure, 401);
    if (!NEGOTIATE.test(header)) return fail({ code: 'negotiate-required', detail: 'this request needs Kerberos; send Authorization: Negotiate <token>' });
    const token = TOKEN.exec(header)?.[1];
    if (!token)
      return fail({
        code: 'negotiate-malformed',
        detail: 'the Authorization header is not "Negotiate <base64 token>" (RFC 4559); let the HTTP client build it',
      });
    if (token.startsWith(NTLM)) {
      return fail({
        code: 'negotiate-ntlm-refused',
        detail:
          'the Negotiate token is NTLM, which svc-api does not accept; use Kerberos: get a ticket (kinit, or a domain logon) and use the host name of the service principal in the URL',
      });
    }
    this.accept(token).then(
      (outcome) => ('principal' in outcome ? this.success(outcome.principal, outcome.info) : fail(outcome)),
      (error: unknown) => this.error(error as Error),
    );
  }

  private async accept(token: string): Promise<{ principal: Principal; info: NegotiateSuccess } | NegotiateFailure> {
    let server: KerberosAcceptor;
    try {
      // Loaded at the first handshake (svc-api checks it loads at start): the module's JS wrapper patches its native
      // classes, so a process must load it once, and building a strategy should not load it.
      this.kerberos ??= requireKerberos();
      server = await this.kerberos.initializeServer(this.options.spn);
    } catch (error) {
      // The GSS-API message names the keytab path: it goes to the log as the cause, not into the response.
      throw new ConfigError(
        'negotiate-unavailable',
        `cannot create the Kerberos acceptor for ${this.options.spn}; check that auth.negotiate.keytab (or KRB5_KTNAME) holds a key of its service principal`,
        { cause: error },
      );
    }
    try {
      await server.step(token);
    } catch (error) {
      return {
        code: 'negotiate-failed',
        detail: 'the Kerberos token was not accepted; get a fresh ticket for the service and retry',
        reason: (error as Error).message,
      };
    }
    if (!server.contextComplete || !server.username) {
      return {
        code: 'negotiate-failed',
        detail: 'the Negotiate exchange needs another round trip, which svc-api does not support; use Kerberos, which completes in one',
        reason: 'GSS context not complete after one step',
      };
    }
    return { principal: { name: server.username, method: 'negotiate' }, info: server.response ? { mutualToken: server.response } : {} };
  }
}

/** Loads the optional native `kerberos` module; only a configured `auth.negotiate` needs it. */
export function requireKerberos(moduleId = 'kerberos'): KerberosAcceptorModule {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(moduleId) as KerberosAcceptorModule;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'MODULE_NOT_FOUND' && message.includes(`'${moduleId}'`)) {
      throw new ConfigError('api-extra-missing', `the kerberos module is not installed, and auth.negotiate needs it; ${KERBEROS_INSTALL_COMMAND}`, {
        cause: error,
      });
    }
    throw new ConfigError(
      'kerberos-unloadable',
      `the kerberos module does not load (${message.split('\n')[0]}); install the GSS-API library (Debian: libgssapi-krb5-2) or rebuild the module (npm rebuild kerberos)`,
      { cause: error },
    );
  }
}
