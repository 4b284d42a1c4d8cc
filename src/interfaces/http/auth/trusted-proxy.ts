import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { Principal } from '../principal';
import { HttpProblem } from '../problem-details';
import { type AuthConfig, isLoopbackAddress, normalizeAddress } from './auth-config';

const USER = "[\\p{L}\\p{N}._$'-]+(?: [\\p{L}\\p{N}._$'-]+)*";
const DOMAIN = '[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?';
/** `DOMAIN\user` (IIS LOGON_USER), `user@REALM` (a UPN or Kerberos principal) or a plain user name. */
const IDENTITY = new RegExp(`^(?:${DOMAIN}\\\\${USER}|${USER}@${DOMAIN}|${USER})$`, 'u');

/**
 * The principal a trusted proxy (IIS) vouches for in the configured header. The header counts only when the peer
 * is one of `addresses` and the connection is from loopback (127.0.0.0/8, ::1) or is mutual TLS with a client
 * certificate that verified; from anywhere else it is refused (401 `untrusted-proxy`), never ignored, so a
 * misrouted deployment shows at once. Undefined when the request carries no such header.
 */
export function trustedProxyPrincipal(req: IncomingMessage, proxy: NonNullable<AuthConfig['proxy']>): Principal | undefined {
  const value = req.headers[proxy.header];
  if (value === undefined) return undefined;
  const peer = normalizeAddress(req.socket.remoteAddress ?? '');
  const verifiedTls = req.socket instanceof TLSSocket && req.socket.authorized;
  if (!proxy.addresses.includes(peer) || !(isLoopbackAddress(peer) || verifiedTls)) {
    throw new HttpProblem(
      401,
      'untrusted-proxy',
      `the ${proxy.header} header is accepted only from the proxy addresses in auth.proxy.addresses, over loopback or mutual TLS, and ${peer} ${proxy.addresses.includes(peer) ? 'connected without a verified client certificate' : 'is not one of them'}; send the request through the proxy`,
    );
  }
  // Node reads header bytes as latin1; a proxy sends a non-ASCII name as UTF-8.
  const name = typeof value === 'string' ? utf8(value) : undefined;
  if (name === undefined || name.length > 256 || !IDENTITY.test(name)) {
    throw new HttpProblem(
      401,
      'invalid-proxy-identity',
      `the ${proxy.header} header is not one user name (DOMAIN\\user, user@REALM or a plain name, 1-256 characters, no control characters); fix what the proxy puts in it`,
    );
  }
  return { name, method: 'proxy' };
}

function utf8(latin1: string): string | undefined {
  if (!/[\x80-\xff]/.test(latin1)) return latin1;
  const text = Buffer.from(latin1, 'latin1').toString('utf8');
  return text.includes('\ufffd') ? undefined : text;
}
