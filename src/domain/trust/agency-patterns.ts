import { InvalidInputError } from '../errors';
import { describe } from '../encoding/json-values';
import type { FedrampAgency } from '../fedramp/profile';
import { isAuthority, ISSUER_FORMS, issuerKey, parseIssuerReference, resolveIssuer, type CertificateAuthority, type IssuerReference } from './issuer-reference';
import { asciiLower } from './principal-name';

/** What the trust center knows of an authenticated caller when it looks for the caller's agency. */
export interface CallerIdentity {
  /** How the caller proved who it is: Kerberos (Negotiate), a client certificate, or a trusted proxy's header. */
  method: 'negotiate' | 'mtls' | 'proxy';
  /** `user@REALM` (Kerberos), the certificate's UPN, e-mail or CN, or the proxy's `DOMAIN\user` / `user@domain`. */
  name: string;
  /** The CAs of the client certificate's verified chain (method `mtls`), its issuer first. */
  authorities?: readonly CertificateAuthority[];
}

/**
 * The agencies of the offering's profile (`fedramp.agencies`) as patterns that recognize their users, so an agency's
 * users get the `agency` role the moment they authenticate, with no approval per user (CDS-TRC-USH).
 */
export interface AgencyPatterns {
  /** The name of the agency the caller belongs to, or undefined when no agency's pattern matches. */
  agencyOf(caller: CallerIdentity): string | undefined;
  /** How many patterns there are (0: nobody is recognized). */
  readonly size: number;
}

/** The CAs the API trusts for client certificates (auth.mtls.ca), which an issuer given by name is looked up in. */
export interface TrustedAuthorities {
  /** The bundle's file, for messages. */
  file: string;
  authorities: readonly CertificateAuthority[];
}

const REALM = /^[^\s@\\/\u0000-\u001f\u007f]{1,255}$/u;
const DOMAIN = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,253}[A-Za-z0-9])?$/;

/**
 * Checks and compiles the agencies' patterns. Each method has its own: a Kerberos principal's realm (`alice@AGENCY.GOV`)
 * is looked up in `realms`, a trusted proxy's user's domain (`AGENCY\alice` or `alice@agency.gov`) in `domains`, both
 * compared with ASCII-only case folding (so `ſvc.teſt` is not `svc.test`); a client certificate is recognized by the
 * CAs of its verified chain, each looked up in `issuers` by certificate fingerprint or key (issuer-reference.ts), the
 * CA nearest the certificate first: the agency whose CA issued it, directly or through a sub-CA, and never an agency
 * whose CA's name a sub-CA copies. An issuer given by name stands for the CA certificates of `trusted` with exactly
 * that subject; with no `trusted` (no mutual TLS) issuers recognize nobody. A pattern that is not one, that two
 * agencies share, or a name no trusted CA has, is an InvalidInputError `invalid-config` naming `file` and the key
 * (`fedramp.agencies[1].issuers[0]`) and the fix.
 */
export function agencyPatterns(agencies: readonly FedrampAgency[], file: string, trusted?: TrustedAuthorities): AgencyPatterns {
  const realms = new Map<string, { agency: string; at: string }>();
  const domains = new Map<string, { agency: string; at: string }>();
  const issuers = new Map<string, { agency: string; at: string }>();
  const references: { reference: IssuerReference; agency: string }[] = [];
  const fail = (at: string, problem: string): never => {
    throw new InvalidInputError('invalid-config', `${file}: ${at}: ${problem}; see docs/api.md (agency access)`);
  };
  const claim = (table: Map<string, { agency: string; at: string }>, key: string, agency: string, at: string, value: string) => {
    const earlier = table.get(key);
    if (earlier !== undefined && earlier.agency !== agency)
      fail(at, `${JSON.stringify(value)} is also ${earlier.at}; a realm, issuer or domain recognizes one agency: keep it under one`);
    table.set(key, { agency, at });
  };
  agencies.forEach((agency, i) => {
    const base = `fedramp.agencies[${i}]`;
    agency.realms.forEach((realm, j) => {
      const at = `${base}.realms[${j}]`;
      if (!REALM.test(realm))
        fail(at, `${describe(realm)} is not a Kerberos realm; write the realm as the agency's principals end, e.g. "AGENCY.GOV" for alice@AGENCY.GOV`);
      claim(realms, asciiLower(realm.normalize('NFC')), agency.name, at, realm);
    });
    agency.domains.forEach((domain, j) => {
      const at = `${base}.domains[${j}]`;
      if (!DOMAIN.test(domain))
        fail(
          at,
          `${describe(domain)} is not a domain; write the DNS domain of user@agency.gov or the NetBIOS domain of AGENCY\\user, e.g. "agency.gov" or "AGENCY"`,
        );
      claim(domains, asciiLower(domain), agency.name, at, domain);
    });
    agency.issuers.forEach((issuer, j) => {
      const at = `${base}.issuers[${j}]`;
      let reference: IssuerReference;
      try {
        reference = parseIssuerReference(issuer);
      } catch (error) {
        return fail(at, `${describe(issuer)} is not an issuer (${(error as Error).message}); write ${ISSUER_FORMS}`);
      }
      claim(issuers, issuerKey(reference), agency.name, at, issuer);
      const resolved = trusted === undefined ? [] : resolveIssuer(reference, trusted.authorities);
      if (trusted !== undefined && resolved.length === 0) {
        fail(
          at,
          `${JSON.stringify(issuer)} is the subject of no CA certificate in ${trusted.file} (auth.mtls.ca), and a name recognizes only a CA the API trusts, written exactly as its certificate has it; add the agency's CA certificate to that bundle, or name the CA by ${ISSUER_FORMS.split(', or its exact subject')[0]}`,
        );
      }
      for (const r of resolved) {
        claim(issuers, issuerKey(r), agency.name, at, issuer);
        references.push({ reference: r, agency: agency.name });
      }
    });
  });
  return {
    size: realms.size + domains.size + agencies.reduce((n, a) => n + a.issuers.length, 0),
    agencyOf(caller) {
      if (caller.method === 'negotiate') {
        const at = caller.name.lastIndexOf('@');
        return at < 0 ? undefined : realms.get(asciiLower(caller.name.slice(at + 1)))?.agency;
      }
      if (caller.method === 'proxy') {
        const slash = caller.name.indexOf('\\');
        const at = caller.name.lastIndexOf('@');
        const domain = slash > 0 ? caller.name.slice(0, slash) : at > 0 ? caller.name.slice(at + 1) : undefined;
        return domain === undefined ? undefined : domains.get(asciiLower(domain))?.agency;
      }
      for (const authority of caller.authorities ?? []) {
        const found = references.find((r) => isAuthority(r.reference, authority));
        if (found !== undefined) return found.agency;
      }
      return undefined;
    },
  };
}
