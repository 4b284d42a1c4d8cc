import { accessSync, constants, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { InvalidInputError } from '../../../domain/errors';
import { describe, isPlainObject } from '../../../domain/encoding/json-values';

/** The `auth` object of the API config file: which ways of proving an identity svc-api accepts. */
export interface AuthConfig {
  /** Kerberos through `Authorization: Negotiate` (RFC 4559). `spn` is a GSS host-based service name (`HTTP@host`). */
  negotiate?: { spn: string; keytab?: string };
  /** Mutual TLS: absolute paths of the client CA bundle, the server certificate and the server key (PEM). */
  mtls?: { ca: string; cert: string; key: string };
  /**
   * A proxy (IIS) that authenticated the user and forwards the user name in `header` (lower-cased), trusted from
   * `addresses`; over mutual TLS only when it presents one of `certificates` (trusted-proxy.ts).
   */
  proxy?: { header: string; addresses: string[]; certificates: ProxyCertificate[] };
}

/**
 * How the proxy's own client certificate is recognized: its SHA-256 fingerprint (uppercase hex pairs joined by colons,
 * as `openssl x509 -fingerprint -sha256` prints it). Never by its subject: any CA the API trusts, an agency's
 * included, can issue a certificate with the proxy's subject.
 */
export type ProxyCertificate = { fingerprint256: string };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// A GSS host-based service name: service@host, the form gss_import_name(GSS_C_NT_HOSTBASED_SERVICE) takes.
const SERVICE_NAME = /^[A-Za-z][A-Za-z0-9_-]*@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
/** Headers a proxy must not be trusted to fill with a user name, with why. */
const NOT_A_USER_HEADER: Record<string, string> = {
  authorization: 'carries credentials, not a user name',
  'proxy-authorization': 'carries credentials, not a user name',
  cookie: 'carries cookies, not a user name',
  host: 'names the server, not a user',
  'x-iis-windowsauthtoken': 'carries a Windows token handle, not a user name (see docs/iis.md)',
};
const FINGERPRINT = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;
const MTLS_FILES = {
  ca: 'the PEM bundle of the CAs that issue client certificates',
  cert: 'the server certificate PEM file',
  key: 'the server private key PEM file',
} as const;

/** Validates the `auth` object of the API config `file`; relative paths are resolved against `baseDir`. */
export function parseAuthConfig(value: unknown, file: string, baseDir: string): AuthConfig {
  const fail = (path: string, problem: string, fix: string): never => {
    throw new InvalidInputError('invalid-api-config', `${file}: ${path}: ${problem}; ${fix}`);
  };
  const section = (path: string, v: unknown, known: readonly string[], example: string): Record<string, unknown> => {
    if (!isPlainObject(v)) return fail(path, `expected an object, got ${describe(v)}`, `write ${example}`);
    for (const key of Object.keys(v))
      if (!known.includes(key)) fail(`${path}.${key}`, `unknown setting (known: ${known.join(', ')})`, 'remove it or fix its spelling');
    return v;
  };
  const readableFile = (path: string, v: unknown, what: string): string => {
    if (typeof v !== 'string' || v.trim() === '')
      return fail(path, `expected the path of ${what}, got ${describe(v)}`, `give that path (a relative path is resolved against ${baseDir})`);
    const absolute = resolve(baseDir, v);
    let isFile: boolean;
    try {
      isFile = statSync(absolute).isFile();
    } catch {
      return fail(path, `${absolute} does not exist`, `fix the path (a relative path is resolved against ${baseDir})`);
    }
    if (!isFile) fail(path, `${absolute} is not a file`, `name ${what} itself`);
    try {
      accessSync(absolute, constants.R_OK);
    } catch {
      fail(path, `${absolute} is not readable`, 'let the user running svc-api read it');
    }
    return absolute;
  };

  if (value === undefined) return {};
  const auth = section('auth', value, ['negotiate', 'mtls', 'proxy'], '{"negotiate": {...}, "mtls": {...}, "proxy": {...}} with the methods to turn on');
  const config: AuthConfig = {};

  if (auth.negotiate !== undefined) {
    const negotiate = section('auth.negotiate', auth.negotiate, ['spn', 'keytab'], '{"spn": "HTTP@<host name clients use>", "keytab": "<keytab path>"}');
    const spn = negotiate.spn;
    if (typeof spn === 'string' && /^[^@/]+\/[^@]+(@.*)?$/.test(spn)) {
      fail(
        'auth.negotiate.spn',
        `${describe(spn)} is a Kerberos principal name, not a GSS service name`,
        `write it as ${JSON.stringify(spn.replace(/@.*$/, '').replace('/', '@'))}`,
      );
    }
    if (typeof spn !== 'string' || !SERVICE_NAME.test(spn)) {
      fail(
        'auth.negotiate.spn',
        `expected a service name such as "HTTP@svc.contoso.com", got ${describe(spn)}`,
        'write the service and the host name clients use, joined by @',
      );
    }
    config.negotiate = { spn: spn as string };
    if (negotiate.keytab !== undefined) config.negotiate.keytab = readableFile('auth.negotiate.keytab', negotiate.keytab, 'the keytab holding the service key');
  }

  if (auth.mtls !== undefined) {
    const mtls = section(
      'auth.mtls',
      auth.mtls,
      ['ca', 'cert', 'key'],
      '{"ca": "<client CA bundle>", "cert": "<server certificate>", "key": "<server key>"} (PEM files)',
    );
    config.mtls = {
      ca: readableFile('auth.mtls.ca', mtls.ca, MTLS_FILES.ca),
      cert: readableFile('auth.mtls.cert', mtls.cert, MTLS_FILES.cert),
      key: readableFile('auth.mtls.key', mtls.key, MTLS_FILES.key),
    };
  }

  if (auth.proxy !== undefined) {
    const proxy = section('auth.proxy', auth.proxy, ['header', 'addresses', 'certificates'], '{"header": "x-forwarded-user", "addresses": ["127.0.0.1"]}');
    const header = proxy.header;
    if (typeof header !== 'string' || !TOKEN.test(header)) {
      fail(
        'auth.proxy.header',
        `expected a header name such as "x-forwarded-user", got ${describe(header)}`,
        'name the header the proxy puts the user name in',
      );
    }
    const name = (header as string).toLowerCase();
    const why = NOT_A_USER_HEADER[name];
    if (why) fail('auth.proxy.header', `${describe(name)} ${why}`, 'name the header the proxy puts the user name in, such as "x-forwarded-user"');
    const addresses = proxy.addresses;
    if (!Array.isArray(addresses) || addresses.length === 0) {
      return fail(
        'auth.proxy.addresses',
        `expected a non-empty array of IP addresses, got ${Array.isArray(addresses) ? 'an empty array' : describe(addresses)}`,
        'list the addresses the proxy connects from, such as ["127.0.0.1", "::1"]',
      );
    }
    const certificates = readProxyCertificates(proxy.certificates, auth.mtls !== undefined, fail);
    const normalized = addresses.map((address: unknown, i) => {
      const path = `auth.proxy.addresses[${i}]`;
      if (typeof address !== 'string' || isIP(address) === 0 || address.includes('%')) {
        return fail(
          path,
          `expected an IP address such as "127.0.0.1" or "::1", got ${describe(address)}`,
          'list each address the proxy connects from (ranges, host names and zone ids are not accepted)',
        );
      }
      const peer = normalizeAddress(address);
      if (peer === '0.0.0.0' || peer === '::')
        fail(path, `${describe(address)} is the unspecified address, which no proxy connects from`, "give the proxy's own address");
      if (!isLoopbackAddress(peer) && (auth.mtls === undefined || certificates.length === 0)) {
        fail(
          path,
          `${describe(address)} is not a loopback address, and a proxy on another host is trusted only by its own client certificate over mutual TLS`,
          'configure auth.mtls, give the proxy a client certificate and list it in auth.proxy.certificates (docs/iis.md), or run the proxy on this host',
        );
      }
      return peer;
    });
    config.proxy = { header: name, addresses: [...new Set(normalized)], certificates };
  }
  return config;
}

type Fail = (path: string, problem: string, fix: string) => never;

/** `auth.proxy.certificates`: each entry `{"fingerprint256": "AB:CD:…"}`. */
function readProxyCertificates(value: unknown, mtls: boolean, fail: Fail): ProxyCertificate[] {
  const example = '[{"fingerprint256": "AB:CD:…"}]';
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0) {
    return fail(
      'auth.proxy.certificates',
      `expected a non-empty array of certificates, got ${Array.isArray(value) ? 'an empty array' : describe(value)}`,
      `write ${example}, or leave it out`,
    );
  }
  if (!mtls)
    fail(
      'auth.proxy.certificates',
      'a proxy certificate can only be checked over mutual TLS, and auth.mtls is not configured',
      'configure auth.mtls, or leave auth.proxy.certificates out',
    );
  return value.map((entry: unknown, i): ProxyCertificate => {
    const path = `auth.proxy.certificates[${i}]`;
    const keys = isPlainObject(entry) ? Object.keys(entry) : [];
    if (isPlainObject(entry) && keys.length === 1 && keys[0] === 'subject') {
      fail(
        `${path}.subject`,
        "a subject names no certificate: every CA the API trusts, an agency's included, can issue one with the proxy's subject",
        'name the proxy\'s certificate by its SHA-256 fingerprint, {"fingerprint256": "…"} (openssl x509 -in proxy.crt -noout -fingerprint -sha256)',
      );
    }
    if (!isPlainObject(entry) || keys.length !== 1 || keys[0] !== 'fingerprint256') {
      return fail(
        path,
        `expected {"fingerprint256": "…"}, got ${isPlainObject(entry) ? `the keys ${keys.join(', ') || '(none)'}` : describe(entry)}`,
        `write ${example}`,
      );
    }
    const given = entry.fingerprint256;
    const hex =
      typeof given === 'string'
        ? given
            .trim()
            .replace(/^sha256 fingerprint=/i, '')
            .toUpperCase()
        : '';
    const fingerprint = /^[0-9A-F]{64}$/.test(hex) ? (hex.match(/../g) as string[]).join(':') : hex;
    if (!FINGERPRINT.test(fingerprint)) {
      fail(
        `${path}.fingerprint256`,
        `expected a SHA-256 fingerprint (32 hex pairs joined by colons), got ${describe(given)}`,
        'print it with openssl x509 -in proxy.crt -noout -fingerprint -sha256',
      );
    }
    return { fingerprint256: fingerprint };
  });
}

/**
 * One spelling per address, so a configured address compares equal to `socket.remoteAddress`: IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`, what a dual-stack listener reports) becomes IPv4, IPv6 takes its RFC 5952 form.
 */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase();
  }
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!hex) return canonical;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Loopback means 127.0.0.0/8 or ::1 (after normalizeAddress): a connection that never left this host. */
export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}
