import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Passport } from 'passport';
import type { AuthMethod, Principal } from './principal';
import { HttpProblem } from '../responses/problem-details';
import type { AuthConfig } from './auth-config';
import { clientCertificatePrincipal } from './client-certificate';
import { type NegotiateFailure, NegotiateStrategy, type NegotiateSuccess } from './negotiate-strategy';
import { trustedProxyPrincipal } from './trusted-proxy';
import { readTrustedAuthorities } from './certificate-chain';
import { principalNameProblem } from '../../../domain/trust/principal-name';

export interface Authenticator {
  /**
   * Express middleware: sets res.locals.principal (Principal) when the request proves an identity; leaves it unset
   * when the request carries no credentials; calls next(new HttpProblem(401, code, detail, {'WWW-Authenticate': ...}))
   * when credentials are present but bad.
   */
  readonly middleware: RequestHandler;
  /** The WWW-Authenticate challenges for a 401 to a request without credentials: ['Negotiate'] when negotiate is on, else []. */
  readonly challenges: string[];
  /** Which methods are on, for the startup log and /health/ready. */
  readonly methods: AuthMethod[];
  /**
   * The principal a request proves without a handshake (the trusted-proxy header, else a client certificate), in the
   * middleware's order; undefined when it carries neither. Throws the 401 HttpProblem of a bad one, without logging.
   */
  readonly withoutHandshake: (req: IncomingMessage) => Principal | undefined;
}

/** A refused credential, for the server log: which method, the problem code, and why (never a token). */
export interface AuthRefusal {
  method: AuthMethod;
  code: string;
  reason: string;
}

export interface AuthenticatorOptions {
  /** Called for every refused credential; `reason` may say more than the 401 tells the client (a GSS-API message). */
  onRefused?: (refusal: AuthRefusal) => void;
  /** Completes every proven principal (with its agency, agency-recognition.ts) before anything reads it. */
  recognize?: (principal: Principal) => Principal;
}

/**
 * Authentication for svc-api. A request is judged by the first credential it carries: the trusted-proxy header
 * (a proxy's own client certificate identifies the proxy, not the user, so the header goes first), then a TLS
 * client certificate, then `Authorization: Negotiate`. Other credentials (Basic, Bearer) count as none.
 */
export function createAuthenticator(config: AuthConfig, options: AuthenticatorOptions = {}): Authenticator {
  const methods = (['negotiate', 'mtls', 'proxy'] as const).filter((method) => config[method] !== undefined);
  const challenges = config.negotiate ? ['Negotiate'] : [];
  const challengeHeaders: Record<string, string> = challenges.length > 0 ? { 'WWW-Authenticate': challenges.join(', ') } : {};
  const recognize = options.recognize ?? ((principal: Principal) => principal);
  // The fingerprints of the CAs a client certificate's chain must reach (certificate-chain.ts), read at the first
  // certificate (svc-api's start reads the bundle already, tls-server-options.ts).
  let anchors: Set<string> | undefined;
  const trustAnchors = (): Set<string> => (anchors ??= new Set(config.mtls ? readTrustedAuthorities(config.mtls.ca).map((ca) => ca.fingerprint256) : []));
  const passport = new Passport();
  if (config.negotiate) passport.use(new NegotiateStrategy(config.negotiate));

  const refuse = (method: AuthMethod, code: string, detail: string, reason = detail): HttpProblem => {
    options.onRefused?.({ method, code, reason });
    return new HttpProblem(401, code, detail, challengeHeaders);
  };

  const negotiate = (req: Request, res: Response, next: NextFunction): void => {
    const done = (error: unknown, principal?: Principal | false, info?: NegotiateFailure | NegotiateSuccess): void => {
      if (error) return next(error);
      if (!principal) {
        const failure = info as NegotiateFailure;
        return next(refuse('negotiate', failure.code, failure.detail, failure.reason));
      }
      // The KDC vouches for the name, not for its fitness: it is held to the rule every method's names are.
      const { name } = principal;
      const problem = principalNameProblem(name);
      if (problem !== undefined) {
        return next(
          refuse(
            'negotiate',
            'invalid-principal-name',
            `the Kerberos principal name is not a usable user name (${problem}); ask the Kerberos administrator for a principal svc-api can name`,
          ),
        );
      }
      const mutualToken = (info as NegotiateSuccess | undefined)?.mutualToken;
      if (mutualToken) res.setHeader('WWW-Authenticate', `Negotiate ${mutualToken}`);
      res.locals.principal = recognize({ ...principal, name });
      next();
    };
    passport.authenticate('negotiate', { session: false }, done)(req, res, next);
  };

  const usesProxy = (req: IncomingMessage): boolean => config.proxy !== undefined && req.headers[config.proxy.header] !== undefined;

  const withoutHandshake = (req: IncomingMessage): Principal | undefined => {
    const principal = usesProxy(req) ? trustedProxyPrincipal(req, config.proxy!) : config.mtls ? clientCertificatePrincipal(req, trustAnchors()) : undefined;
    return principal === undefined ? undefined : recognize(principal);
  };

  const middleware: RequestHandler = (req, res, next) => {
    try {
      const principal = withoutHandshake(req);
      if (principal) {
        res.locals.principal = principal;
        return next();
      }
    } catch (error) {
      return next(error instanceof HttpProblem ? refuse(usesProxy(req) ? 'proxy' : 'mtls', error.code, error.detail) : error);
    }
    if (config.negotiate && /^Negotiate(?:\s|$)/i.test(req.headers.authorization ?? '')) return negotiate(req, res, next);
    next();
  };

  return { middleware, withoutHandshake, challenges, methods };
}
