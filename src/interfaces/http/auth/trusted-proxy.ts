import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { Principal } from './principal';
import { HttpProblem } from '../responses/problem-details';
import { type AuthConfig, isLoopbackAddress, normalizeAddress } from './auth-config';
import { principalNameProblem } from '../../../domain/trust/principal-name';

const USER = "[\\p{L}\\p{N}._$'-]+(?: [\\p{L}\\p{N}._$'-]+)*";
const DOMAIN = '[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?';
/** `DOMAIN\user` (IIS LOGON_USER), `user@REALM` (a UPN or Kerberos principal) or a plain user name. */
const IDENTITY = new RegExp(`^(?:${DOMAIN}\\\\${USER}|${USER}@${DOMAIN}|${USER})$`, 'u');

/**
 * The principal a trusted proxy (IIS) vouches for in the configured header. The header counts only when the peer
 * is one of `addresses` and either presents a client certificate that verified and whose SHA-256 fingerprint is one of
 * `certificates` (never its subject, which any CA the API trusts could write), or
 * presents none and connects from loopback (127.0.0.0/8, ::1). A client certificate that is not the proxy's (a
 * user's own, from the proxy's address) makes the connection that user's, not the proxy's: the header is refused.
 * From anywhere else it is refused too (401 `untrusted-proxy`), never ignored, so a misrouted deployment shows at
 * once. Undefined when the request carries no such header.
 */
export function trustedProxyPrincipal(req: IncomingMessage, proxy: NonNullable<AuthConfig['proxy']>): Principal | undefined {
  const value = req.headers[proxy.header];
  if (value === undefined) return undefined;
  const peer = normalizeAddress(req.socket.remoteAddress ?? '');
  const untrusted = (why: string): never => {
    throw new HttpProblem(
      401,
      'untrusted-proxy',
      `the ${proxy.header} header is accepted only from the proxy addresses in auth.proxy.addresses, over loopback or with a client certificate listed in auth.proxy.certificates, and ${peer} ${why}; send the request through the proxy`,
    );
  };
  if (!proxy.addresses.includes(peer)) untrusted('is not one of them');
  const certificate = req.socket instanceof TLSSocket ? req.socket.getPeerCertificate() : undefined;
  if (certificate?.raw) {
    if (!(req.socket as TLSSocket).authorized) untrusted('presented a client certificate that did not verify');
    if (!proxy.certificates.some((c) => certificate.fingerprint256?.toUpperCase() === c.fingerprint256))
      untrusted('presented a client certificate that is not one of auth.proxy.certificates');
  } else if (!isLoopbackAddress(peer)) {
    untrusted('connected without a client certificate');
  }
  // Node reads header bytes as latin1; a proxy sends a non-ASCII name as UTF-8.
  const name = typeof value === 'string' ? utf8(value) : undefined;
  if (name === undefined || principalNameProblem(name) !== undefined || !IDENTITY.test(name)) {
    throw new HttpProblem(
      401,
      'invalid-proxy-identity',
      `the ${proxy.header} header is not one user name (DOMAIN\\user, user@REALM or a plain name, 1-256 characters, no control, format or line-separator characters); fix what the proxy puts in it`,
    );
  }
  return { name, method: 'proxy' };
}

function utf8(latin1: string): string | undefined {
  if (!/[\x80-\xff]/.test(latin1)) return latin1;
  const text = Buffer.from(latin1, 'latin1').toString('utf8');
  return text.includes('\ufffd') ? undefined : text;
}
