import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerOptions } from 'node:https';
import { ConfigError } from '../../../domain/errors';
import type { AuthConfig } from './auth-config';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/**
 * HTTPS options for mutual TLS. A client certificate is asked for but not required at the handshake
 * (`rejectUnauthorized: false`), so /health stays reachable without one; the authenticator refuses a certificate
 * that did not verify. The files are checked here so a bad one stops the start, not the first handshake.
 */
export function tlsServerOptions(mtls: NonNullable<AuthConfig['mtls']>): ServerOptions {
  const key = read(mtls.key, 'auth.mtls.key');
  const cert = read(mtls.cert, 'auth.mtls.cert');
  const ca = read(mtls.ca, 'auth.mtls.ca');
  const invalid = (file: string, setting: string, problem: string): ConfigError =>
    new ConfigError('api-tls-invalid', `${file}: ${problem}; fix the file or ${setting} in the API config`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw invalid(mtls.key, 'auth.mtls.key', 'not an unencrypted PEM private key');
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw invalid(mtls.cert, 'auth.mtls.cert', 'not a PEM certificate');
  }
  if (!certificate.checkPrivateKey(privateKey)) throw invalid(mtls.key, 'auth.mtls.key', `not the private key of the certificate in ${mtls.cert}`);
  const authorities = ca.toString('latin1').match(PEM_CERTIFICATE) ?? [];
  if (authorities.length === 0) throw invalid(mtls.ca, 'auth.mtls.ca', 'holds no PEM certificate');
  authorities.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw invalid(mtls.ca, 'auth.mtls.ca', `certificate ${i + 1} of the bundle does not parse`);
    }
  });
  return { key, cert, ca, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' };
}

function read(file: string, setting: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new ConfigError('api-tls-unreadable', `${file}: cannot read the file (${code}); fix ${setting} in the API config or the file's permissions`, {
      cause: error,
    });
  }
}
