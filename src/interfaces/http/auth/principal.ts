import type { CertificateAuthority } from '../../../domain/trust/issuer-reference';

/** How a request proved who sent it. */
export type AuthMethod = 'negotiate' | 'mtls' | 'proxy';

/** The authenticated caller of a request: a Kerberos principal, a certificate's UPN/e-mail/CN, or a proxy's user. */
export interface Principal {
  /** `alice@SVC.TEST`, `CONTOSO\alice`, … as the method produced it, held to principalNameProblem (principal-name.ts). */
  name: string;
  method: AuthMethod;
  /**
   * The issuer of the client certificate (method `mtls`), as an RFC 4514 string, most specific RDN first
   * (`CN=Agency Issuing CA,O=Department of Examples,C=US`), for the log and CDS-UTC-AAD: names recognize nothing.
   */
  issuer?: string;
  /** The subject of the client certificate (method `mtls`), as an RFC 4514 string, most specific RDN first. */
  subject?: string;
  /**
   * The CAs of the client certificate's verified chain (method `mtls`), its issuer first (certificate-chain.ts): what
   * agencies (`fedramp.agencies[].issuers`) and role grants (`issuer`) recognize it by, by fingerprint or key.
   */
  authorities?: CertificateAuthority[];
  /**
   * The agency of the offering's profile (`fedramp.agencies[].name`) whose realm, certificate issuer or domain the
   * principal matched: it then holds the `agency` role (CDS-TRC-USH), and later routes show it its agency's data.
   */
  agency?: string;
}

/**
 * The API's three roles (DESIGN §9): `auditor` reads /auditor/* and the trust center, `operator` calls the directory
 * routes, `agency` reads the trust center (/fedramp/*).
 */
export const ROLES = ['auditor', 'operator', 'agency'] as const;
export type Role = (typeof ROLES)[number];
