/**
 * Why a request got no usable response: `unreachable` (refused, DNS, reset), `timeout`, `too-large` (over the size
 * limit), `tls` (the certificate is not trusted), `auth` (no credential could be made: no Kerberos ticket, an
 * unreadable key or token file).
 */
export type TrustCenterFailureKind = 'unreachable' | 'timeout' | 'too-large' | 'tls' | 'auth';

export class TrustCenterFailure extends Error {
  constructor(
    readonly kind: TrustCenterFailureKind,
    message: string,
    readonly attempts: number,
  ) {
    super(message);
  }
}
