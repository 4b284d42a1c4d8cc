import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** PEM files of one certificate and its key. */
export interface Issued {
  cert: string;
  key: string;
  certPem: string;
  keyPem: string;
}

export interface TestPki {
  dir: string;
  ca: Issued;
  /** Server certificate for `localhost` and 127.0.0.1 (EKU serverAuth). */
  server: Issued;
  /** Client certificate of a user: SAN otherName UPN and e-mail (EKU clientAuth). */
  client(name: string, options?: { upn?: string; email?: string; ca?: Issued }): Issued;
  /** A second, unrelated CA: its clients must be refused. */
  foreignCa: Issued;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function issued(dir: string, name: string): Issued {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  return { cert, key, certPem: readFileSync(cert, 'utf8'), keyPem: readFileSync(key, 'utf8') };
}

function sign(dir: string, ca: Issued, name: string, cn: string, extensions: string): Issued {
  return signCertificate(dir, ca, name, `/CN=${cn}`, extensions);
}

/** The extensions of a TLS server certificate for localhost and 127.0.0.1. */
export const SERVER_EXTENSIONS =
  'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n';

/** A new EC P-256 key and a certificate for it with the openssl `-subj` given (`/CN=localhost`), signed by `ca`, valid 2 days. */
export function signCertificate(dir: string, ca: Issued, name: string, subj: string, extensions: string): Issued {
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
  openssl(['req', '-new', '-key', `${name}.key`, '-subj', subj, '-out', `${name}.csr`], dir);
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      ca.cert,
      '-CAkey',
      ca.key,
      '-CAcreateserial',
      '-days',
      '2',
      '-sha256',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.crt`,
    ],
    dir,
  );
  return issued(dir, name);
}

/**
 * A CA certificate with the openssl `-subj` given (`/C=US/O=…/CN=…`), self-signed, or signed by `parent` (a sub-CA):
 * what an agency's PKI, or one minting a look-alike, issues.
 */
export function issueCa(dir: string, name: string, subj: string, parent?: Issued): Issued {
  if (parent !== undefined) return signCertificate(dir, parent, name, subj, 'basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n');
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
  openssl(
    [
      'req',
      '-x509',
      '-new',
      '-key',
      `${name}.key`,
      '-sha256',
      '-days',
      '2',
      '-subj',
      subj,
      '-addext',
      'basicConstraints=critical,CA:true',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-out',
      `${name}.crt`,
    ],
    dir,
  );
  return issued(dir, name);
}

/** A throwaway EC P-256 PKI generated with the openssl CLI (about 0.2 s): CA, server and client certificates. */
export function createTestPki(dir: string): TestPki {
  mkdirSync(dir, { recursive: true });
  const ca = issueCa(dir, 'ca', '/CN=svc test CA');
  const foreignCa = issueCa(dir, 'foreign-ca', '/CN=svc foreign CA');
  const server = sign(dir, ca, 'server', 'localhost', SERVER_EXTENSIONS);
  return {
    dir,
    ca,
    foreignCa,
    server,
    client(name, options = {}) {
      // A section keeps a comma inside a value from splitting it into two names.
      const san = [options.email ? `email.1 = ${options.email}\n` : '', options.upn ? `otherName.1 = 1.3.6.1.4.1.311.20.2.3;UTF8:${options.upn}\n` : ''].join(
        '',
      );
      return sign(
        dir,
        options.ca ?? ca,
        `client-${name}`,
        name,
        `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n${san ? `subjectAltName=@alt\n[alt]\n${san}` : ''}`,
      );
    },
  };
}

/** The SHA-256 fingerprint of an issued certificate (`AB:CD:…`), as role grants and agency issuers name a CA. */
export function fingerprintOf(issued: Issued): string {
  return new X509Certificate(issued.certPem).fingerprint256;
}

/** A grant of a role to the holder of a certificate named `name` from `ca` (a role grant's object form). */
export function certificateGrant(name: string, ca: Issued): { name: string; method: 'mtls'; issuer: string } {
  return { name, method: 'mtls', issuer: fingerprintOf(ca) };
}
