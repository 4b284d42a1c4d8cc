import { describe, isPlainObject } from '../../../domain/encoding/json-values';
import { isAuthority, ISSUER_FORMS, parseIssuerReference, resolveIssuer, type IssuerReference } from '../../../domain/trust/issuer-reference';
import { asciiLower, principalNameProblem } from '../../../domain/trust/principal-name';
import type { AuthConfig } from './auth-config';
import { readTrustedAuthorities } from './certificate-chain';
import { type AuthMethod, type Principal, ROLES, type Role } from './principal';

/**
 * One grant of a role in the API config (`roles.<role>[]`), bound to how the principal authenticated. A plain string
 * (`"alice@SVC.TEST"`, `"CONTOSO\\bob"`, `"*"`) is a name the provider's own directory vouches for: it grants the role
 * to a Kerberos (Negotiate) or trusted-proxy principal of that name, never to a client certificate. A certificate's
 * holder is granted with `{"name": …, "method": "mtls", "issuer": …}`: the name (or `*`) and the CA the certificate
 * must chain to, by fingerprint or key (a name stands for the CA of auth.mtls.ca with exactly that subject).
 */
export interface RoleGrant {
  /** Held to principalNameProblem (so in Unicode NFC); `*` is any principal the grant's methods and issuer admit. */
  name: string;
  methods: readonly AuthMethod[];
  /** For `mtls`: the CAs, one of which the certificate's verified chain must hold (resolved to fingerprints or keys). */
  issuers?: readonly IssuerReference[];
}

/** The methods a plain-string grant covers: those whose names the provider's own KDC or Windows sign-in vouch for. */
export const DIRECTORY_METHODS: readonly AuthMethod[] = ['negotiate', 'proxy'];

const METHODS: readonly AuthMethod[] = ['negotiate', 'proxy', 'mtls'];
const EXAMPLE =
  '{ "auditor": ["alice@SVC.TEST"], "operator": ["CONTOSO\\\\bob"], "agency": [{"name": "carol@agency.gov", "method": "mtls", "issuer": "AB:CD:…"}] }';

type Fail = (path: string, problem: string, fix: string) => never;

/**
 * Whether `principal` holds one of `roles`. A principal recognized as an agency's (Principal.agency, by its realm,
 * certificate chain or domain) holds `agency` and nothing else, whatever the grants say: one agency's KDC, CA or
 * domain can mint only that agency's principals, never an auditor or operator. Anyone else holds a role when a grant of
 * it names the principal's method, its name (names are NFC, compared with ASCII-only case folding, so `ſvc` is not `svc`) or `*`, and, for a certificate, a CA of its verified chain.
 */
export function holdsRole(principal: Principal, roles: readonly Role[], grants: Readonly<Record<Role, readonly RoleGrant[]>>): boolean {
  if (principal.agency !== undefined) return roles.includes('agency');
  const name = asciiLower(principal.name);
  return roles.some((role) => grants[role].some((grant) => grantAdmits(grant, principal, name)));
}

function grantAdmits(grant: RoleGrant, principal: Principal, foldedName: string): boolean {
  if (!grant.methods.includes(principal.method)) return false;
  if (grant.name !== '*' && asciiLower(grant.name) !== foldedName) return false;
  if (grant.issuers === undefined) return true;
  return (principal.authorities ?? []).some((authority) => grant.issuers!.some((issuer) => isAuthority(issuer, authority)));
}

/** The names a role's grants give (`roles.agency`'s, for the agency access inventory). */
export function grantedNames(grants: readonly RoleGrant[]): string[] {
  return grants.map((g) => g.name);
}

/**
 * Reads the `roles` object of the API config: each role a list of grants (strings or objects, RoleGrant). `auth` is
 * the config's checked auth section: an `mtls` grant needs auth.mtls, and its issuer given by name must be the exact
 * subject of a CA in auth.mtls.ca; a string grant in a config whose only method is mutual TLS would grant nothing and
 * is refused with the form that does.
 */
export function readRoleGrants(value: unknown, auth: AuthConfig, fail: Fail): Record<Role, RoleGrant[]> {
  if (!isPlainObject(value)) return fail('roles', `expected an object, got ${describe(value)}`, `write ${EXAMPLE}`);
  const roles = { auditor: [], operator: [], agency: [] } as Record<Role, RoleGrant[]>;
  const certificatesOnly = auth.mtls !== undefined && auth.negotiate === undefined && auth.proxy === undefined;
  for (const [role, grants] of Object.entries(value)) {
    if (!(ROLES as readonly string[]).includes(role)) fail(`roles.${role}`, 'unknown role', `use ${ROLES.slice(0, -1).join(', ')} or ${ROLES.at(-1)}`);
    if (!Array.isArray(grants)) fail(`roles.${role}`, `expected an array of grants, got ${describe(grants)}`, `write e.g. ${EXAMPLE}`);
    roles[role as Role] = (grants as unknown[]).map((grant, i) => {
      const path = `roles.${role}[${i}]`;
      if (typeof grant === 'string') {
        const name = grantName(grant, path, fail);
        if (certificatesOnly) {
          fail(
            path,
            `${describe(grant)} is a Kerberos or proxy user name, and the only method configured is mutual TLS, whose certificates a plain name never grants a role to`,
            `grant a certificate's holder as {"name": ${JSON.stringify(grant)}, "method": "mtls", "issuer": "<the issuing CA's SHA-256 fingerprint>"}`,
          );
        }
        return { name, methods: DIRECTORY_METHODS };
      }
      return readGrantObject(grant, path, auth, fail);
    });
  }
  return roles;
}

function grantName(value: unknown, path: string, fail: Fail): string {
  if (typeof value !== 'string') return fail(path, `expected a principal name, got ${describe(value)}`, 'write e.g. "alice@SVC.TEST", "CONTOSO\\\\bob" or "*"');
  const name = value;
  const problem = name === '*' ? undefined : principalNameProblem(name);
  if (problem !== undefined)
    fail(path, `${describe(value)} is not a principal name (${problem})`, 'write the name as the method produces it, e.g. "alice@SVC.TEST"');
  return name;
}

function readGrantObject(grant: unknown, path: string, auth: AuthConfig, fail: Fail): RoleGrant {
  const example = '{"name": "alice@contoso.com", "method": "mtls", "issuer": "AB:CD:…"}';
  if (!isPlainObject(grant)) return fail(path, `expected a principal name or ${example}, got ${describe(grant)}`, `write "alice@SVC.TEST" or ${example}`);
  for (const key of Object.keys(grant))
    if (!['name', 'method', 'issuer'].includes(key)) fail(`${path}.${key}`, 'unknown setting (known: name, method, issuer)', 'remove it or fix its spelling');
  const name = grantName(grant.name, `${path}.name`, fail);
  const method = grant.method;
  if (typeof method !== 'string' || !(METHODS as readonly string[]).includes(method)) {
    return fail(`${path}.method`, `expected "negotiate", "proxy" or "mtls", got ${describe(method)}`, 'name how the principal authenticates');
  }
  if (auth[method as AuthMethod] === undefined)
    fail(`${path}.method`, `"${method}" is not configured under auth`, `configure auth.${method}, or grant by a method that is`);
  if (method !== 'mtls') {
    if (grant.issuer !== undefined)
      fail(`${path}.issuer`, `an issuer binds a certificate, and the method is "${method}"`, 'leave issuer out, or make the method "mtls"');
    return { name, methods: [method as AuthMethod] };
  }
  if (typeof grant.issuer !== 'string')
    return fail(`${path}.issuer`, `expected the CA the certificate must chain to, got ${describe(grant.issuer)}`, `write ${ISSUER_FORMS}`);
  let reference: IssuerReference;
  try {
    reference = parseIssuerReference(grant.issuer);
  } catch (error) {
    return fail(`${path}.issuer`, `${describe(grant.issuer)} is not an issuer (${(error as Error).message})`, `write ${ISSUER_FORMS}`);
  }
  const bundle = auth.mtls!.ca;
  const issuers = resolveIssuer(reference, readTrustedAuthorities(bundle));
  if (issuers.length === 0) {
    fail(
      `${path}.issuer`,
      `${JSON.stringify(grant.issuer)} is the subject of no CA certificate in ${bundle} (auth.mtls.ca), written exactly as the certificate has it`,
      'add the CA certificate to that bundle, or name the CA by its SHA-256 fingerprint',
    );
  }
  return { name, methods: ['mtls'], issuers };
}
