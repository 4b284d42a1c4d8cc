import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { Principal } from './principal';
import { HttpProblem } from '../responses/problem-details';

const SUBJECT_ALT_NAME = Buffer.from([0x55, 0x1d, 0x11]); // 2.5.29.17
const UPN = Buffer.from([0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x14, 0x02, 0x03]); // 1.3.6.1.4.1.311.20.2.3 (Microsoft UPN)
const NAME = /^[^\p{Cc}]{1,256}$/u;

/**
 * The principal a TLS client certificate proves: its SAN otherName UPN, else its SAN e-mail, else its subject CN.
 * Undefined when the connection is not TLS or no certificate was presented. A presented certificate that did not
 * verify, or that names no usable user, is refused with a 401 `client-certificate-refused`.
 */
export function clientCertificatePrincipal(req: IncomingMessage): Principal | undefined {
  const socket = req.socket;
  if (!(socket instanceof TLSSocket)) return undefined;
  const certificate = socket.getPeerCertificate();
  if (!certificate?.raw) return undefined;
  if (!socket.authorized) {
    refuse(`the client certificate did not verify (${String(socket.authorizationError)}); present a certificate issued by a CA the API trusts`);
  }
  let names: { upn?: string; email?: string };
  try {
    names = subjectAltNames(certificate.raw);
  } catch {
    return refuse('the subject alternative names of the client certificate do not parse; have the CA issue a well-formed certificate');
  }
  const cn = certificate.subject?.CN as string | string[] | undefined;
  if (Array.isArray(cn) && names.upn === undefined && names.email === undefined) refuse('the client certificate names more than one CN and no UPN or e-mail; have the CA put the user in the SAN');
  const [kind, name] =
    names.upn !== undefined ? ['UPN', names.upn] : names.email !== undefined ? ['e-mail', names.email] : ['CN', typeof cn === 'string' ? cn : undefined];
  if (name === undefined) return refuse('the client certificate names no user (no SAN UPN or e-mail, no subject CN); have the CA put the user in the SAN');
  if (!NAME.test(name)) return refuse(`the ${kind} of the client certificate is not a usable user name (1-256 characters, no control characters); have the CA fix it`);
  return { name, method: 'mtls' };
}

function refuse(detail: string): never {
  throw new HttpProblem(401, 'client-certificate-refused', detail);
}

/**
 * The first UPN and e-mail of the certificate's subjectAltName, read from the DER rather than from Node's
 * `subjectaltname` string, which quotes and escapes some values (`othername:"UPN:eve\u002c ..."`).
 */
function subjectAltNames(der: Buffer): { upn?: string; email?: string } {
  const tbs = children(der, element(der, 0))[0];
  const extensions = children(der, tbs).find((e) => e.tag === 0xa3);
  if (!extensions) return {};
  for (const extension of children(der, children(der, extensions)[0])) {
    const parts = children(der, extension);
    if (!der.subarray(parts[0].start, parts[0].end).equals(SUBJECT_ALT_NAME)) continue;
    const value = parts[parts.length - 1];
    const found: { upn?: string; email?: string } = {};
    for (const name of children(der, element(der, value.start, value.end))) {
      if (name.tag === 0x81 && found.email === undefined) found.email = der.toString('latin1', name.start, name.end);
      if (name.tag !== 0xa0 || found.upn !== undefined) continue;
      const [type, wrapped] = children(der, name);
      if (!der.subarray(type.start, type.end).equals(UPN) || wrapped?.tag !== 0xa0) continue;
      const text = children(der, wrapped)[0];
      if (text?.tag === 0x0c) found.upn = der.toString('utf8', text.start, text.end);
    }
    return found;
  }
  return {};
}

interface Element {
  tag: number;
  start: number;
  end: number;
}

/** One DER tag-length-value at `at`: the tag and where its content starts and ends. */
function element(der: Buffer, at: number, limit = der.length): Element {
  if (at + 2 > limit) throw new Error('truncated DER');
  const tag = der[at];
  let length = der[at + 1];
  let start = at + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets < 1 || octets > 3 || start + octets > limit) throw new Error('bad DER length');
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[start++];
  }
  if (start + length > limit) throw new Error('truncated DER');
  return { tag, start, end: start + length };
}

function children(der: Buffer, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end; at = out[out.length - 1].end) out.push(element(der, at, parent.end));
  return out;
}
