/** How a request proved who sent it. */
export type AuthMethod = 'negotiate' | 'mtls' | 'proxy';

/** The authenticated caller of a request: a Kerberos principal, a certificate's UPN/e-mail/CN, or a proxy's user. */
export interface Principal {
  /** `alice@SVC.TEST`, `CONTOSO\alice`, … exactly as the method produced it. */
  name: string;
  method: AuthMethod;
}

/** The API's two roles (DESIGN §9): `auditor` reads /auditor/*, `operator` calls the directory routes. */
export const ROLES = ['auditor', 'operator'] as const;
export type Role = (typeof ROLES)[number];
