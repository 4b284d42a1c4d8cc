import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { Principal } from './principal';
import { HttpProblem } from '../responses/problem-details';
import { verifiedAuthorities } from './certificate-chain';
import { certificateName, subjectAltNames } from './certificate-names';
import { principalNameProblem } from '../../../domain/trust/principal-name';

/**
 * The principal a TLS client certificate proves: its SAN otherName UPN, else its SAN e-mail, else its subject CN, held
 * to principalNameProblem (a name not in Unicode NFC is refused, never normalized into another's), with the
 * certificate's issuer and subject (RFC 4514) and the CAs of its verified chain (certificate-chain.ts; `anchors` are
 * the fingerprints of auth.mtls.ca), which agencies and role grants recognize it by. Undefined when the connection is
 * not TLS or no certificate was presented. A presented certificate that did not verify, that names no usable user, or
 * whose chain does not check out link by link up to a CA of auth.mtls.ca, is refused with a 401
 * `client-certificate-refused`.
 */
export function clientCertificatePrincipal(req: IncomingMessage, anchors: ReadonlySet<string>): Principal | undefined {
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
  if (Array.isArray(cn) && names.upn === undefined && names.email === undefined)
    refuse('the client certificate names more than one CN and no UPN or e-mail; have the CA put the user in the SAN');
  const [kind, given] =
    names.upn !== undefined ? ['UPN', names.upn] : names.email !== undefined ? ['e-mail', names.email] : ['CN', typeof cn === 'string' ? cn : undefined];
  if (given === undefined) return refuse('the client certificate names no user (no SAN UPN or e-mail, no subject CN); have the CA put the user in the SAN');
  const name = given;
  const problem = principalNameProblem(name);
  if (problem !== undefined) return refuse(`the ${kind} of the client certificate is not a usable user name (${problem}); have the CA fix it`);
  const authorities = verifiedAuthorities(socket, anchors);
  if (authorities === undefined)
    return refuse(
      'the chain of the client certificate does not lead, link by link, to a CA in auth.mtls.ca; present the certificate with the intermediate CAs its issuer gave',
    );
  const issuer = certificateName(certificate.raw, 'issuer');
  const subject = certificateName(certificate.raw, 'subject');
  return { name, method: 'mtls', ...(issuer === undefined ? {} : { issuer }), ...(subject === undefined ? {} : { subject }), authorities };
}

function refuse(detail: string): never {
  throw new HttpProblem(401, 'client-certificate-refused', detail);
}
