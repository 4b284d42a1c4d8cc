import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { ConfigError } from '../../../domain/errors';
import type { CertificateAuthority } from '../../../domain/trust/issuer-reference';
import { certificateName } from './certificate-names';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** The longest chain read above a client certificate: a CA hierarchy deeper than this is not one a client needs. */
const MAX_DEPTH = 8;

/** A CA certificate as the configuration names it: subject (RFC 4514), certificate fingerprint and key (SPKI) hash. */
export function certificateAuthority(certificate: X509Certificate): CertificateAuthority {
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  return {
    subject: certificateName(certificate.raw, 'subject') ?? certificate.subject.split('\n').reverse().join(','),
    fingerprint256: certificate.fingerprint256,
    spki256: createHash('sha256').update(spki).digest('base64'),
  };
}

/**
 * The CA certificates of a PEM bundle (auth.mtls.ca), each as a CertificateAuthority: what `fedramp.agencies[].issuers`
 * and role grants given by name resolve against, and the anchors a client certificate's chain must end at. A file that
 * cannot be read or holds a certificate that does not parse is a ConfigError naming it (tls-server-options.ts checks
 * the same file at start).
 */
export function readTrustedAuthorities(file: string): CertificateAuthority[] {
  let read = bundles.get(file);
  if (read === undefined) {
    read = readBundle(file);
    bundles.set(file, read);
  }
  return read;
}

/** The bundles read, by file: each is read once per process (svc-api reads its CA bundle at start only). */
const bundles = new Map<string, CertificateAuthority[]>();

function readBundle(file: string): CertificateAuthority[] {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (error) {
    throw new ConfigError(
      'api-tls-unreadable',
      `${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}); fix auth.mtls.ca in the API config or the file's permissions`,
      { cause: error },
    );
  }
  return (text.match(PEM_CERTIFICATE) ?? []).map((pem, i) => {
    try {
      return certificateAuthority(new X509Certificate(pem));
    } catch {
      throw new ConfigError('api-tls-invalid', `${file}: certificate ${i + 1} of the bundle does not parse; fix the file or auth.mtls.ca in the API config`);
    }
  });
}

/**
 * The CAs above the client certificate of a TLS connection that verified, its issuer first, each link checked here
 * again: the child names the parent as issuer and the parent's key verifies the child's signature, and the chain ends
 * at a certificate of `anchors` (fingerprints of auth.mtls.ca). Node builds the chain from what the client sent and
 * from the server's CA store; checking each link keeps a certificate the client merely appended from ever counting as
 * an authority. Undefined when the connection did not verify, or the chain breaks or ends elsewhere.
 */
export function verifiedAuthorities(socket: TLSSocket, anchors: ReadonlySet<string>): CertificateAuthority[] | undefined {
  if (!socket.authorized) return undefined;
  const leaf = socket.getPeerCertificate(true) as DetailedPeerCertificate | undefined;
  if (!leaf?.raw) return undefined;
  const authorities: CertificateAuthority[] = [];
  let anchored = false;
  let child = new X509Certificate(leaf.raw);
  let next: DetailedPeerCertificate | undefined = leaf.issuerCertificate;
  while (next?.raw !== undefined && authorities.length < MAX_DEPTH) {
    const parent = new X509Certificate(next.raw);
    if (parent.fingerprint256 === child.fingerprint256) break; // a self-signed root is its own issuer
    if (!parent.ca || !child.checkIssued(parent) || !child.verify(parent.publicKey)) return undefined;
    authorities.push(certificateAuthority(parent));
    anchored ||= anchors.has(parent.fingerprint256);
    child = parent;
    next = next.issuerCertificate;
  }
  return anchored ? authorities : undefined;
}
