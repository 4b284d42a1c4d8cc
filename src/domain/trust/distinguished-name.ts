/**
 * X.500 distinguished names as the trust center writes and compares them: the string form of RFC 4514 (most specific
 * RDN first, `CN=Agency CA,O=Department of Examples,C=US`, as `openssl x509 -noout -issuer -nameopt RFC2253` prints
 * it). A client certificate's issuer is written so (client-certificate.ts), and `fedramp.agencies[].issuers` are read
 * so; they are compared by `sameName`.
 */

/** One attribute of an RDN: its type as a dotted OID, and its value as text, or as `#<hex DER>` for a non-string value. */
export interface NameAttribute {
  oid: string;
  value: string;
}

/** A distinguished name: its RDNs most specific first (RFC 4514 order), each one or more attributes (`a+b`). */
export type DistinguishedName = NameAttribute[][];

/** The attribute types RFC 4514 §3 names, and the ones CAs commonly use besides; others are written as dotted OIDs. */
const SHORT_NAMES: [string, string][] = [
  ['CN', '2.5.4.3'],
  ['L', '2.5.4.7'],
  ['ST', '2.5.4.8'],
  ['O', '2.5.4.10'],
  ['OU', '2.5.4.11'],
  ['C', '2.5.4.6'],
  ['STREET', '2.5.4.9'],
  ['DC', '0.9.2342.19200300.100.1.25'],
  ['UID', '0.9.2342.19200300.100.1.1'],
  ['serialNumber', '2.5.4.5'],
  ['SN', '2.5.4.4'],
  ['GN', '2.5.4.42'],
  ['title', '2.5.4.12'],
  ['organizationIdentifier', '2.5.4.97'],
  ['emailAddress', '1.2.840.113549.1.9.1'],
];
const OID_BY_NAME = new Map(SHORT_NAMES.map(([name, oid]) => [name.toUpperCase(), oid]));
OID_BY_NAME.set('E', '1.2.840.113549.1.9.1');
OID_BY_NAME.set('GIVENNAME', '2.5.4.42');
const NAME_BY_OID = new Map(SHORT_NAMES.map(([name, oid]) => [oid, name]));
const OID = /^[0-2](?:\.(?:0|[1-9]\d*))+$/;

/** The attribute type names `parseName` reads, for messages. */
export const ATTRIBUTE_NAMES = SHORT_NAMES.map(([name]) => name);

/** The RFC 4514 string of a name: short names where known, values escaped (`,`, `+`, `"`, `\`, `<`, `>`, `;`, leading `#` or space, trailing space, controls). */
export function formatName(name: DistinguishedName): string {
  return name
    .map((rdn) =>
      rdn.map((a) => `${NAME_BY_OID.get(a.oid) ?? a.oid}=${a.value.startsWith('#') && isHexValue(a.value) ? a.value : escapeValue(a.value)}`).join('+'),
    )
    .join(',');
}

function isHexValue(value: string): boolean {
  return /^#(?:[0-9a-fA-F]{2})+$/.test(value);
}

function escapeValue(value: string): string {
  let out = value.replace(/[\\,+"<>;]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  if (out.startsWith('#') || out.startsWith(' ')) out = `\\${out}`;
  if (out.endsWith(' ') && !out.endsWith('\\ ')) out = `${out.slice(0, -1)}\\ `;
  return out;
}

/**
 * Reads an RFC 4514 string. Lenient where people and tools differ harmlessly: spaces around `=`, `,` and `+` are
 * ignored (OpenSSL's `C = US, O = Example` reads), attribute names are case-insensitive (`cn`, `E` for emailAddress).
 * Throws an Error whose message says what is wrong, for the caller to put in its one-line config error.
 */
export function parseName(text: string): DistinguishedName {
  const name: DistinguishedName = [];
  let at = 0;
  const fail = (problem: string): never => {
    throw new Error(`${problem} at character ${at + 1}`);
  };
  const skipSpaces = () => {
    while (text[at] === ' ') at++;
  };
  if (text.trim() === '') throw new Error('empty name');
  let rdn: NameAttribute[] = [];
  for (;;) {
    skipSpaces();
    const typeStart = at;
    while (at < text.length && /[A-Za-z0-9.-]/.test(text[at])) at++;
    const type = text.slice(typeStart, at);
    if (type === '') fail('expected an attribute type (CN, O, OU, C, … or a dotted OID)');
    const oid = OID.test(type) ? type : OID_BY_NAME.get(type.toUpperCase());
    if (oid === undefined) fail(`unknown attribute type ${type} (known: ${ATTRIBUTE_NAMES.join(', ')}, or a dotted OID)`);
    skipSpaces();
    if (text[at] !== '=') fail(`expected = after ${type}`);
    at++;
    skipSpaces();
    rdn.push({ oid: oid!, value: readValue() });
    skipSpaces();
    if (at === text.length) break;
    if (text[at] === '+') {
      at++;
      continue;
    }
    if (text[at] !== ',') fail('expected , or + between attributes');
    at++;
    name.push(rdn);
    rdn = [];
  }
  name.push(rdn);
  return name;

  function readValue(): string {
    if (text[at] === '#') {
      const match = /^#(?:[0-9a-fA-F]{2})+/.exec(text.slice(at));
      if (!match) fail('expected hex pairs after #');
      at += match![0].length;
      return match![0].toLowerCase();
    }
    if (text[at] === '"') fail('quoted values are not RFC 4514; escape special characters with \\ instead');
    const bytes: number[] = [];
    let trailingSpaces = 0; // unescaped spaces at the end are not part of the value
    while (at < text.length && text[at] !== ',' && text[at] !== '+') {
      const c = text[at];
      if (c === '\\') {
        const next = text.slice(at + 1, at + 3);
        if (/^[0-9a-fA-F]{2}$/.test(next)) {
          bytes.push(parseInt(next, 16));
          at += 3;
        } else if (at + 1 < text.length) {
          const escaped = text.codePointAt(at + 1)!;
          bytes.push(...utf8(String.fromCodePoint(escaped)));
          at += escaped > 0xffff ? 3 : 2;
        } else {
          fail('a \\ ends the name');
        }
        trailingSpaces = 0;
        continue;
      }
      if (c === '"' || c === ';' || c === '<' || c === '>') fail(`unescaped ${c} in a value; write \\${c}`);
      trailingSpaces = c === ' ' ? trailingSpaces + 1 : 0;
      const code = text.codePointAt(at)!;
      bytes.push(...utf8(String.fromCodePoint(code)));
      at += code > 0xffff ? 2 : 1;
    }
    const value = decodeUtf8(bytes.slice(0, bytes.length - trailingSpaces));
    if (value === undefined) fail('the escaped bytes of a value are not UTF-8');
    if (value === '') fail('empty value');
    return value!;
  }
}

/**
 * Whether two names are exactly the same name: the same RDNs in the same order (most specific first), the attributes of
 * a multi-valued RDN in any order (RFC 4514 §2.2 writes them in no set order), types by OID, values character for
 * character (hex values case-insensitively). Nothing is folded: a CA that copies another's name with its case,
 * spacing or RDN order changed is another name, so a name never stands for a CA it was not written from.
 */
export function sameName(a: DistinguishedName, b: DistinguishedName): boolean {
  return canonicalName(a) === canonicalName(b);
}

function canonicalName(name: DistinguishedName): string {
  return JSON.stringify(name.map((rdn) => rdn.map((a) => `${a.oid}=${isHexValue(a.value) ? a.value.toLowerCase() : a.value}`).sort()));
}

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder('utf-8', { fatal: true });

function utf8(text: string): number[] {
  return [...ENCODER.encode(text)];
}

/** UTF-8 bytes as text; undefined when they are not UTF-8. */
function decodeUtf8(bytes: number[]): string | undefined {
  try {
    return DECODER.decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}
