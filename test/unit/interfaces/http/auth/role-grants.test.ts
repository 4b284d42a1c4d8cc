import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { AuthConfig } from '../../../../../src/interfaces/http/auth/auth-config';
import type { Principal } from '../../../../../src/interfaces/http/auth/principal';
import { holdsRole, readRoleGrants, type RoleGrant } from '../../../../../src/interfaces/http/auth/role-grants';
import type { CertificateAuthority } from '../../../../../src/domain/trust/issuer-reference';

const fail = (path: string, problem: string, fix: string): never => {
  throw new Error(`api.json: ${path}: ${problem}; ${fix}`);
};

let dir: string;
let bundle: string;
let provider: CertificateAuthority;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-grants-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'ca.key'),
      '-subj',
      '/O=Contoso/CN=Contoso Users CA',
      '-days',
      '2',
      '-out',
      join(dir, 'ca.crt'),
    ],
    { stdio: 'ignore' },
  );
  bundle = join(dir, 'ca.crt');
  const cert = new X509Certificate(require('node:fs').readFileSync(bundle));
  provider = { subject: 'CN=Contoso Users CA,O=Contoso', fingerprint256: cert.fingerprint256, spki256: 'x' };
  writeFileSync(join(dir, 'other.pem'), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const negotiateOnly: AuthConfig = { negotiate: { spn: 'HTTP@localhost' } };
const mtlsOnly = (): AuthConfig => ({ mtls: { ca: bundle, cert: bundle, key: bundle } });
const everything = (): AuthConfig => ({ ...negotiateOnly, ...mtlsOnly(), proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'], certificates: [] } });

describe('readRoleGrants: each grant bound to how its principal authenticates', () => {
  it('reads a string as a Kerberos or proxy name, and an object as a certificate holder bound to its CA (by fingerprint, key or exact subject)', () => {
    const roles = readRoleGrants(
      {
        auditor: [
          'alice@SVC.TEST',
          { name: 'carol@contoso.com', method: 'mtls', issuer: provider.fingerprint256 },
          { name: '*', method: 'mtls', issuer: 'CN=Contoso Users CA,O=Contoso' },
        ],
        operator: [{ name: 'CONTOSO\\bob', method: 'proxy' }],
      },
      everything(),
      fail,
    );
    expect(roles).toEqual({
      auditor: [
        { name: 'alice@SVC.TEST', methods: ['negotiate', 'proxy'] },
        { name: 'carol@contoso.com', methods: ['mtls'], issuers: [{ kind: 'fingerprint', fingerprint256: provider.fingerprint256 }] },
        { name: '*', methods: ['mtls'], issuers: [{ kind: 'fingerprint', fingerprint256: provider.fingerprint256 }] },
      ],
      operator: [{ name: 'CONTOSO\\bob', methods: ['proxy'] }],
      agency: [],
    });
  });

  it.each([
    [
      { auditor: ['alice@SVC.TEST'] },
      mtlsOnly,
      'api.json: roles.auditor[0]: "alice@SVC.TEST" is a Kerberos or proxy user name, and the only method configured is mutual TLS, whose certificates a plain name never grants a role to; grant a certificate\'s holder as {"name": "alice@SVC.TEST", "method": "mtls", "issuer": "<the issuing CA\'s SHA-256 fingerprint>"}',
    ],
    [
      { auditor: [{ name: 'carol', method: 'mtls' }] },
      everything,
      'api.json: roles.auditor[0].issuer: expected the CA the certificate must chain to, got nothing;',
    ],
    [
      { auditor: [{ name: 'carol', method: 'mtls', issuer: 'cn=contoso users ca,o=contoso' }] },
      everything,
      '"cn=contoso users ca,o=contoso" is the subject of no CA certificate in',
    ],
    [
      { auditor: [{ name: 'carol', method: 'mtls', issuer: 'AB:CD' }] },
      everything,
      'api.json: roles.auditor[0].issuer: "AB:CD" is not an issuer (a fingerprint is the 32 hex pairs of a SHA-256);',
    ],
    [
      { auditor: [{ name: 'carol', method: 'negotiate', issuer: 'AB' }] },
      everything,
      'api.json: roles.auditor[0].issuer: an issuer binds a certificate, and the method is "negotiate"; leave issuer out, or make the method "mtls"',
    ],
    [
      { auditor: [{ name: 'carol', method: 'mtls', issuer: 'AB' }] },
      () => negotiateOnly,
      'api.json: roles.auditor[0].method: "mtls" is not configured under auth; configure auth.mtls, or grant by a method that is',
    ],
    [
      { auditor: [{ name: 'carol', method: 'kerberos' }] },
      everything,
      'api.json: roles.auditor[0].method: expected "negotiate", "proxy" or "mtls", got "kerberos"; name how the principal authenticates',
    ],
    [
      { auditor: [{ name: 'carol', method: 'proxy', role: 'x' }] },
      everything,
      'api.json: roles.auditor[0].role: unknown setting (known: name, method, issuer); remove it or fix its spelling',
    ],
    [
      { auditor: ['fran\u212Ak@SVC.TEST'] },
      everything,
      'api.json: roles.auditor[0]: "fran\u212Ak@SVC.TEST" is not a principal name (it is not in Unicode normalization form C (NFC));',
    ],
    [{ auditor: ['alice\u202e@SVC.TEST'] }, everything, 'it holds U+202E, a control, format or line-separator character'],
    [{ auditor: 'alice' }, everything, 'api.json: roles.auditor: expected an array of grants, got "alice";'],
    [{ admin: [] }, everything, 'api.json: roles.admin: unknown role; use auditor, operator or agency'],
  ] as const)('refuses %j with one line naming the key and the fix', (roles, auth, message) => {
    expect(() => readRoleGrants(roles, auth(), fail)).toThrow(message);
  });
});

describe('holdsRole', () => {
  const grants = (overrides: Partial<Record<'auditor' | 'operator' | 'agency', RoleGrant[]>>) => ({ auditor: [], operator: [], agency: [], ...overrides });
  const kerberos = (name: string, agency?: string): Principal => ({ name, method: 'negotiate', ...(agency ? { agency } : {}) });
  const certificate = (name: string, authorities: CertificateAuthority[], agency?: string): Principal => ({
    name,
    method: 'mtls',
    authorities,
    ...(agency ? { agency } : {}),
  });
  const other: CertificateAuthority = { subject: provider?.subject ?? 'CN=Contoso Users CA,O=Contoso', fingerprint256: 'AA:'.repeat(31) + 'AA', spki256: 'y' };

  it('a string grant admits the Kerberos or proxy principal of that name, never a certificate with that name', () => {
    const roles = grants({ auditor: [{ name: 'alice@SVC.TEST', methods: ['negotiate', 'proxy'] }] });
    expect(holdsRole(kerberos('alice@svc.test'), ['auditor'], roles)).toBe(true);
    expect(holdsRole({ name: 'alice@SVC.TEST', method: 'proxy' }, ['auditor'], roles)).toBe(true);
    expect(holdsRole(certificate('alice@SVC.TEST', [provider]), ['auditor'], roles)).toBe(false);
  });

  it('a certificate grant admits its name only from a chain through its CA, by fingerprint: a CA copying its name admits nobody', () => {
    const roles = grants({
      auditor: [{ name: 'carol@contoso.com', methods: ['mtls'], issuers: [{ kind: 'fingerprint', fingerprint256: provider.fingerprint256 }] }],
    });
    expect(holdsRole(certificate('carol@contoso.com', [provider]), ['auditor'], roles)).toBe(true);
    expect(holdsRole(certificate('carol@contoso.com', [{ ...provider, fingerprint256: other.fingerprint256 }]), ['auditor'], roles)).toBe(false);
    expect(holdsRole(certificate('carol@contoso.com', []), ['auditor'], roles)).toBe(false);
    expect(holdsRole(kerberos('carol@contoso.com'), ['auditor'], roles)).toBe(false);
  });

  it("an agency's principal holds the agency role and nothing else, whatever names, `*` or CAs the grants give (property)", () => {
    const roles = grants({
      auditor: [
        { name: '*', methods: ['negotiate', 'proxy'] },
        { name: '*', methods: ['mtls'], issuers: [{ kind: 'fingerprint', fingerprint256: provider.fingerprint256 }] },
      ],
      operator: [{ name: 'alice@SVC.TEST', methods: ['negotiate', 'proxy'] }],
    });
    fc.assert(
      fc.property(
        fc.constantFrom<Principal['method']>('negotiate', 'proxy', 'mtls'),
        fc.constantFrom('alice@SVC.TEST', 'dana@examples.gov', 'x'),
        (method, name) => {
          const principal: Principal = { name, method, agency: 'Department of Examples', ...(method === 'mtls' ? { authorities: [provider] } : {}) };
          expect([
            holdsRole(principal, ['auditor'], roles),
            holdsRole(principal, ['operator'], roles),
            holdsRole(principal, ['agency'], roles),
            holdsRole(principal, ['auditor', 'agency'], roles),
          ]).toEqual([false, false, true, true]);
        },
      ),
    );
  });

  it('compares names with ASCII-only case folding: a LONG S never matches an s', () => {
    const roles = grants({ operator: [{ name: 'svc@SVC.TEST', methods: ['negotiate', 'proxy'] }] });
    expect(holdsRole(kerberos('SVC@svc.test'), ['operator'], roles)).toBe(true);
    expect(holdsRole(kerberos('ſvc@SVC.TEST'), ['operator'], roles)).toBe(false);
    expect(holdsRole(kerberos('svc@ſvc.teſt'), ['operator'], roles)).toBe(false);
  });
});
