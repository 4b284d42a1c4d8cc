import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '../../../src/domain/errors';
import { isLoopbackAddress, normalizeAddress, parseAuthConfig } from '../../../src/interfaces/http/auth/auth-config';

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-auth-config-'));
  file = join(dir, 'svc-api.json');
  mkdirSync(join(dir, 'tls'));
  for (const name of ['http.keytab', 'tls/ca.pem', 'tls/server.crt', 'tls/server.key']) writeFileSync(join(dir, name), 'x');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const parse = (auth: unknown) => parseAuthConfig(auth, file, dir);
const MTLS = { ca: 'tls/ca.pem', cert: 'tls/server.crt', key: 'tls/server.key' };

/** The message parseAuthConfig refuses `auth` with, after checking it is an invalid-api-config InvalidInputError. */
function refusal(auth: unknown): string {
  try {
    parse(auth);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).code).toBe('invalid-api-config');
    return (error as Error).message.replace(`${file}: `, '');
  }
  throw new Error('parseAuthConfig accepted the value');
}

describe('parseAuthConfig accepts', () => {
  it('no auth object as no method', () => {
    expect(parse(undefined)).toEqual({});
    expect(parse({})).toEqual({});
  });

  it('every method, with paths resolved against the config directory and the header lower-cased', () => {
    expect(
      parse({
        negotiate: { spn: 'HTTP@svc.contoso.com', keytab: 'http.keytab' },
        mtls: { ...MTLS, ca: join(dir, 'tls/ca.pem') },
        proxy: { header: 'X-Forwarded-User', addresses: ['127.0.0.1', '10.1.2.3'], certificates: [{ fingerprint256: 'ab'.repeat(32) }] },
      }),
    ).toEqual({
      negotiate: { spn: 'HTTP@svc.contoso.com', keytab: join(dir, 'http.keytab') },
      mtls: { ca: join(dir, 'tls/ca.pem'), cert: join(dir, 'tls/server.crt'), key: join(dir, 'tls/server.key') },
      proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1', '10.1.2.3'], certificates: [{ fingerprint256: 'AB:'.repeat(31) + 'AB' }] },
    });
  });

  it('negotiate without a keytab (KRB5_KTNAME, or SSPI on Windows)', () => {
    expect(parse({ negotiate: { spn: 'HTTP@localhost' } })).toEqual({ negotiate: { spn: 'HTTP@localhost' } });
  });

  it('proxy addresses in any spelling, stored once each in the form sockets report', () => {
    expect(
      parse({ proxy: { header: 'x-ms-client-principal-name', addresses: ['::ffff:127.0.0.1', '0:0:0:0:0:0:0:1', '127.0.0.1', '::FFFF:7f00:2'] } }),
    ).toEqual({
      proxy: { header: 'x-ms-client-principal-name', addresses: ['127.0.0.1', '::1', '127.0.0.2'], certificates: [] },
    });
  });

  it("proxy certificates by fingerprint in openssl's spellings", () => {
    const hex = 'ab'.repeat(32);
    const colons = 'AB:'.repeat(31) + 'AB';
    const certificates = [{ fingerprint256: colons.toLowerCase() }, { fingerprint256: hex }, { fingerprint256: `sha256 Fingerprint=${colons}` }];
    expect(parse({ mtls: MTLS, proxy: { header: 'x-forwarded-user', addresses: ['10.1.2.3'], certificates } }).proxy?.certificates).toEqual([
      { fingerprint256: colons },
      { fingerprint256: colons },
      { fingerprint256: colons },
    ]);
  });
});

describe('parseAuthConfig refuses', () => {
  it.each([
    [
      'a string',
      'negotiate',
      'auth: expected an object, got "negotiate"; write {"negotiate": {...}, "mtls": {...}, "proxy": {...}} with the methods to turn on',
    ],
    [
      'an array',
      ['negotiate'],
      'auth: expected an object, got an array; write {"negotiate": {...}, "mtls": {...}, "proxy": {...}} with the methods to turn on',
    ],
    ['null', null, 'auth: expected an object, got null; write {"negotiate": {...}, "mtls": {...}, "proxy": {...}} with the methods to turn on'],
    ['an unknown method', { kerberos: {} }, 'auth.kerberos: unknown setting (known: negotiate, mtls, proxy); remove it or fix its spelling'],
  ])('auth as %s', (_what, auth, message) => {
    expect(refusal(auth)).toBe(message);
  });

  describe('negotiate', () => {
    const spnProblem = (got: string) =>
      `auth.negotiate.spn: expected a service name such as "HTTP@svc.contoso.com", got ${got}; write the service and the host name clients use, joined by @`;
    it.each([
      ['not an object', true, 'auth.negotiate: expected an object, got boolean true; write {"spn": "HTTP@<host name clients use>", "keytab": "<keytab path>"}'],
      [
        'an unknown setting',
        { spn: 'HTTP@localhost', realm: 'SVC.TEST' },
        'auth.negotiate.realm: unknown setting (known: spn, keytab); remove it or fix its spelling',
      ],
      ['no spn', {}, spnProblem('nothing')],
      ['an spn that is a number', { spn: 80 }, spnProblem('number 80')],
      ['an spn without a service', { spn: 'localhost' }, spnProblem('"localhost"')],
      ['an spn with a space', { spn: 'HTTP@svc contoso' }, spnProblem('"HTTP@svc contoso"')],
      [
        'a Kerberos principal name',
        { spn: 'HTTP/svc.contoso.com@CONTOSO.COM' },
        'auth.negotiate.spn: "HTTP/svc.contoso.com@CONTOSO.COM" is a Kerberos principal name, not a GSS service name; write it as "HTTP@svc.contoso.com"',
      ],
      [
        'a principal name without realm',
        { spn: 'HTTP/localhost' },
        'auth.negotiate.spn: "HTTP/localhost" is a Kerberos principal name, not a GSS service name; write it as "HTTP@localhost"',
      ],
    ])('%s', (_what, negotiate, message) => {
      expect(refusal({ negotiate })).toBe(message);
    });

    it('a keytab that is not a path', () => {
      expect(refusal({ negotiate: { spn: 'HTTP@localhost', keytab: '' } })).toBe(
        `auth.negotiate.keytab: expected the path of the keytab holding the service key, got ""; give that path (a relative path is resolved against ${dir})`,
      );
    });

    it('a keytab that does not exist', () => {
      expect(refusal({ negotiate: { spn: 'HTTP@localhost', keytab: 'missing.keytab' } })).toBe(
        `auth.negotiate.keytab: ${join(dir, 'missing.keytab')} does not exist; fix the path (a relative path is resolved against ${dir})`,
      );
    });

    it('a keytab that is a directory', () => {
      expect(refusal({ negotiate: { spn: 'HTTP@localhost', keytab: 'tls' } })).toBe(
        `auth.negotiate.keytab: ${join(dir, 'tls')} is not a file; name the keytab holding the service key itself`,
      );
    });

    // root reads any file, so the check can only be seen as another user.
    (process.getuid?.() === 0 ? it.skip : it)('a keytab this user cannot read', () => {
      const keytab = join(dir, 'locked.keytab');
      writeFileSync(keytab, 'x');
      chmodSync(keytab, 0o000);
      expect(refusal({ negotiate: { spn: 'HTTP@localhost', keytab } })).toBe(
        `auth.negotiate.keytab: ${keytab} is not readable; let the user running svc-api read it`,
      );
    });
  });

  describe('mtls', () => {
    it.each([
      [
        'not an object',
        'tls',
        'auth.mtls: expected an object, got "tls"; write {"ca": "<client CA bundle>", "cert": "<server certificate>", "key": "<server key>"} (PEM files)',
      ],
      ['an unknown setting', { ...MTLS, crl: 'crl.pem' }, 'auth.mtls.crl: unknown setting (known: ca, cert, key); remove it or fix its spelling'],
    ])('%s', (_what, mtls, message) => {
      expect(refusal({ mtls })).toBe(message);
    });

    it.each([
      ['ca', 'the PEM bundle of the CAs that issue client certificates'],
      ['cert', 'the server certificate PEM file'],
      ['key', 'the server private key PEM file'],
    ])('a missing or wrong %s', (name, what) => {
      const { [name as keyof typeof MTLS]: _dropped, ...rest } = MTLS;
      expect(refusal({ mtls: rest })).toBe(
        `auth.mtls.${name}: expected the path of ${what}, got nothing; give that path (a relative path is resolved against ${dir})`,
      );
      expect(refusal({ mtls: { ...MTLS, [name]: ['a.pem'] } })).toBe(
        `auth.mtls.${name}: expected the path of ${what}, got an array; give that path (a relative path is resolved against ${dir})`,
      );
      expect(refusal({ mtls: { ...MTLS, [name]: 'tls/nope.pem' } })).toBe(
        `auth.mtls.${name}: ${join(dir, 'tls/nope.pem')} does not exist; fix the path (a relative path is resolved against ${dir})`,
      );
      expect(refusal({ mtls: { ...MTLS, [name]: 'tls' } })).toBe(`auth.mtls.${name}: ${join(dir, 'tls')} is not a file; name ${what} itself`);
    });
  });

  describe('proxy', () => {
    const ANOTHER_HOST =
      'auth.proxy.addresses[1]: "10.1.2.3" is not a loopback address, and a proxy on another host is trusted only by its own client certificate over mutual TLS; configure auth.mtls, give the proxy a client certificate and list it in auth.proxy.certificates (docs/iis.md), or run the proxy on this host';
    const headerProblem = (got: string) =>
      `auth.proxy.header: expected a header name such as "x-forwarded-user", got ${got}; name the header the proxy puts the user name in`;
    const addressProblem = (i: number, got: string) =>
      `auth.proxy.addresses[${i}]: expected an IP address such as "127.0.0.1" or "::1", got ${got}; list each address the proxy connects from (ranges, host names and zone ids are not accepted)`;
    it.each([
      ['not an object', [], 'auth.proxy: expected an object, got an array; write {"header": "x-forwarded-user", "addresses": ["127.0.0.1"]}'],
      [
        'an unknown setting',
        { header: 'x-forwarded-user', addresses: ['127.0.0.1'], trust: true },
        'auth.proxy.trust: unknown setting (known: header, addresses, certificates); remove it or fix its spelling',
      ],
      ['no header', { addresses: ['127.0.0.1'] }, headerProblem('nothing')],
      ['a header with a space', { header: 'X Forwarded User', addresses: ['127.0.0.1'] }, headerProblem('"X Forwarded User"')],
      ['a header with a colon', { header: 'x-user:', addresses: ['127.0.0.1'] }, headerProblem('"x-user:"')],
      [
        'the Authorization header',
        { header: 'Authorization', addresses: ['127.0.0.1'] },
        'auth.proxy.header: "authorization" carries credentials, not a user name; name the header the proxy puts the user name in, such as "x-forwarded-user"',
      ],
      [
        "IIS's token header",
        { header: 'X-IIS-WindowsAuthToken', addresses: ['127.0.0.1'] },
        'auth.proxy.header: "x-iis-windowsauthtoken" carries a Windows token handle, not a user name (see docs/iis.md); name the header the proxy puts the user name in, such as "x-forwarded-user"',
      ],
      [
        'the Cookie header',
        { header: 'cookie', addresses: ['127.0.0.1'] },
        'auth.proxy.header: "cookie" carries cookies, not a user name; name the header the proxy puts the user name in, such as "x-forwarded-user"',
      ],
      [
        'no addresses',
        { header: 'x-forwarded-user' },
        'auth.proxy.addresses: expected a non-empty array of IP addresses, got nothing; list the addresses the proxy connects from, such as ["127.0.0.1", "::1"]',
      ],
      [
        'an empty address list',
        { header: 'x-forwarded-user', addresses: [] },
        'auth.proxy.addresses: expected a non-empty array of IP addresses, got an empty array; list the addresses the proxy connects from, such as ["127.0.0.1", "::1"]',
      ],
      [
        'a single address',
        { header: 'x-forwarded-user', addresses: '127.0.0.1' },
        'auth.proxy.addresses: expected a non-empty array of IP addresses, got "127.0.0.1"; list the addresses the proxy connects from, such as ["127.0.0.1", "::1"]',
      ],
      ['a range', { header: 'x-forwarded-user', addresses: ['127.0.0.1', '10.0.0.0/8'] }, addressProblem(1, '"10.0.0.0/8"')],
      ['a host name', { header: 'x-forwarded-user', addresses: ['iis.contoso.com'] }, addressProblem(0, '"iis.contoso.com"')],
      ['a zone id', { header: 'x-forwarded-user', addresses: ['fe80::1%eth0'] }, addressProblem(0, '"fe80::1%eth0"')],
      ['a short IPv4 form', { header: 'x-forwarded-user', addresses: ['127.1'] }, addressProblem(0, '"127.1"')],
      ['a number', { header: 'x-forwarded-user', addresses: [2130706433] }, addressProblem(0, 'number 2130706433')],
      [
        'the IPv4 unspecified address',
        { header: 'x-forwarded-user', addresses: ['0.0.0.0'] },
        'auth.proxy.addresses[0]: "0.0.0.0" is the unspecified address, which no proxy connects from; give the proxy\'s own address',
      ],
      [
        'the IPv6 unspecified address',
        { header: 'x-forwarded-user', addresses: ['::1', '0::0'] },
        'auth.proxy.addresses[1]: "0::0" is the unspecified address, which no proxy connects from; give the proxy\'s own address',
      ],
      ['another host without mutual TLS', { header: 'x-forwarded-user', addresses: ['127.0.0.1', '10.1.2.3'] }, ANOTHER_HOST],
      [
        'proxy certificates without mutual TLS',
        { header: 'x-forwarded-user', addresses: ['127.0.0.1'], certificates: [{ fingerprint256: 'AB'.repeat(32) }] },
        'auth.proxy.certificates: a proxy certificate can only be checked over mutual TLS, and auth.mtls is not configured; configure auth.mtls, or leave auth.proxy.certificates out',
      ],
    ])('%s', (_what, proxy, message) => {
      expect(refusal({ proxy })).toBe(message);
    });

    const CERTIFICATES = '[{"fingerprint256": "AB:CD:…"}]';
    const FINGERPRINT_FIX = 'print it with openssl x509 -in proxy.crt -noout -fingerprint -sha256';
    const SUBJECT =
      'auth.proxy.certificates[0].subject: a subject names no certificate: every CA the API trusts, an agency\'s included, can issue one with the proxy\'s subject; name the proxy\'s certificate by its SHA-256 fingerprint, {"fingerprint256": "…"} (openssl x509 -in proxy.crt -noout -fingerprint -sha256)';
    it.each([
      ['another host over mutual TLS without proxy certificates', ['10.1.2.3'], undefined, ANOTHER_HOST.replace('[1]', '[0]')],
      [
        'certificates that are not an array',
        ['127.0.0.1'],
        { subject: 'CN=iis-proxy' },
        `auth.proxy.certificates: expected a non-empty array of certificates, got an object; write ${CERTIFICATES}, or leave it out`,
      ],
      [
        'an empty certificate list',
        ['127.0.0.1'],
        [],
        `auth.proxy.certificates: expected a non-empty array of certificates, got an empty array; write ${CERTIFICATES}, or leave it out`,
      ],
      [
        'an entry with two keys',
        ['127.0.0.1'],
        [{ subject: 'CN=a', fingerprint256: 'AB' }],
        `auth.proxy.certificates[0]: expected {"fingerprint256": "…"}, got the keys subject, fingerprint256; write ${CERTIFICATES}`,
      ],
      [
        'an entry that is a string',
        ['127.0.0.1'],
        ['CN=iis-proxy'],
        `auth.proxy.certificates[0]: expected {"fingerprint256": "…"}, got "CN=iis-proxy"; write ${CERTIFICATES}`,
      ],
      [
        'a short fingerprint',
        ['127.0.0.1'],
        [{ fingerprint256: 'AB:CD:EF' }],
        `auth.proxy.certificates[0].fingerprint256: expected a SHA-256 fingerprint (32 hex pairs joined by colons), got "AB:CD:EF"; ${FINGERPRINT_FIX}`,
      ],
      ['the proxy by its subject, which any trusted CA can write', ['127.0.0.1'], [{ subject: 'CN=iis-proxy,O=Contoso' }], SUBJECT],
    ])('%s', (_what, addresses, certificates, message) => {
      expect(refusal({ mtls: MTLS, proxy: { header: 'x-forwarded-user', addresses, ...(certificates !== undefined ? { certificates } : {}) } })).toBe(message);
    });
  });
});

describe('proxy peer addresses', () => {
  it.each([
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:c000:207', '192.0.2.7'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['::1', '::1'],
    ['10.1.2.3', '10.1.2.3'],
  ])('normalizes %s to %s', (address, normalized) => {
    expect(normalizeAddress(address)).toBe(normalized);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['::1', true],
    ['128.0.0.1', false],
    ['10.127.0.1', false],
    ['::2', false],
    ['fd00::1', false],
  ])('counts %s as loopback: %s', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });
});
