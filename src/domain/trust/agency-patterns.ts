import { InvalidInputError } from '../errors';
import { describe } from '../ksi/ksi-result';
import type { FedrampAgency } from '../fedramp/profile';
import { parseName, sameName, type DistinguishedName } from './distinguished-name';

/** What the trust center knows of an authenticated caller when it looks for the caller's agency. */
export interface CallerIdentity {
  /** How the caller proved who it is: Kerberos (Negotiate), a client certificate, or a trusted proxy's header. */
  method: 'negotiate' | 'mtls' | 'proxy';
  /** `user@REALM` (Kerberos), the certificate's UPN, e-mail or CN, or the proxy's `DOMAIN\user` / `user@domain`. */
  name: string;
  /** The RFC 4514 issuer DN of the client certificate (method `mtls`). */
  issuer?: string;
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

const REALM = /^[^\s@\\/\u0000-\u001f\u007f]{1,255}$/u;
const DOMAIN = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,253}[A-Za-z0-9])?$/;

/**
 * Checks and compiles the agencies' patterns. Each method has its own: a Kerberos principal's realm (`alice@AGENCY.GOV`)
 * is looked up in `realms`, a client certificate's issuer in `issuers` (RFC 4514, see distinguished-name.ts), a
 * trusted proxy's user's domain (`AGENCY\alice` or `alice@agency.gov`) in `domains`; realms and domains compare
 * case-insensitively, as role grants do. A pattern that is not one, or that two agencies share, is an
 * InvalidInputError `invalid-config` naming `file` and the key (`fedramp.agencies[1].issuers[0]`) and the fix.
 */
export function agencyPatterns(agencies: readonly FedrampAgency[], file: string): AgencyPatterns {
  const realms = new Map<string, { agency: string; at: string }>();
  const domains = new Map<string, { agency: string; at: string }>();
  const issuers: { name: DistinguishedName; agency: string; at: string }[] = [];
  const fail = (at: string, problem: string): never => {
    throw new InvalidInputError('invalid-config', `${file}: ${at}: ${problem}; see docs/api.md (agency access)`);
  };
  const claim = (table: Map<string, { agency: string; at: string }>, key: string, agency: string, at: string, value: string) => {
    const earlier = table.get(key);
    if (earlier !== undefined && earlier.agency !== agency) fail(at, `${JSON.stringify(value)} is also ${earlier.at}; a realm, issuer or domain recognizes one agency: keep it under one`);
    table.set(key, { agency, at });
  };
  agencies.forEach((agency, i) => {
    const base = `fedramp.agencies[${i}]`;
    agency.realms.forEach((realm, j) => {
      const at = `${base}.realms[${j}]`;
      if (!REALM.test(realm)) fail(at, `${describe(realm)} is not a Kerberos realm; write the realm as the agency's principals end, e.g. "AGENCY.GOV" for alice@AGENCY.GOV`);
      claim(realms, realm.toUpperCase(), agency.name, at, realm);
    });
    agency.domains.forEach((domain, j) => {
      const at = `${base}.domains[${j}]`;
      if (!DOMAIN.test(domain)) fail(at, `${describe(domain)} is not a domain; write the DNS domain of user@agency.gov or the NetBIOS domain of AGENCY\\user, e.g. "agency.gov" or "AGENCY"`);
      claim(domains, domain.toLowerCase(), agency.name, at, domain);
    });
    agency.issuers.forEach((issuer, j) => {
      const at = `${base}.issuers[${j}]`;
      let name: DistinguishedName;
      try {
        name = parseName(issuer);
      } catch (error) {
        return fail(at, `${describe(issuer)} is not a distinguished name (${(error as Error).message}); write the issuing CA's subject as RFC 4514, most specific first, e.g. "CN=Agency Issuing CA,O=Department of Examples,C=US"`);
      }
      const earlier = issuers.find((p) => sameName(p.name, name));
      if (earlier !== undefined && earlier.agency !== agency.name) fail(at, `${JSON.stringify(issuer)} is also ${earlier.at}; a realm, issuer or domain recognizes one agency: keep it under one`);
      issuers.push({ name, agency: agency.name, at });
    });
  });
  return {
    size: realms.size + domains.size + issuers.length,
    agencyOf(caller) {
      if (caller.method === 'negotiate') {
        const at = caller.name.lastIndexOf('@');
        return at < 0 ? undefined : realms.get(caller.name.slice(at + 1).toUpperCase())?.agency;
      }
      if (caller.method === 'proxy') {
        const slash = caller.name.indexOf('\\');
        const at = caller.name.lastIndexOf('@');
        const domain = slash > 0 ? caller.name.slice(0, slash) : at > 0 ? caller.name.slice(at + 1) : undefined;
        return domain === undefined ? undefined : domains.get(domain.toLowerCase())?.agency;
      }
      if (caller.issuer === undefined || issuers.length === 0) return undefined;
      let issuer: DistinguishedName;
      try {
        issuer = parseName(caller.issuer);
      } catch {
        return undefined;
      }
      return issuers.find((p) => sameName(p.name, issuer))?.agency;
    },
  };
}
