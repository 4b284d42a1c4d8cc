import { formatName } from '../../../domain/trust/distinguished-name';

/** DER readers of X.509 certificates: the names svc-api takes from a client certificate, read as their bytes say. */

const SUBJECT_ALT_NAME = Buffer.from([0x55, 0x1d, 0x11]); // 2.5.29.17
const UPN = Buffer.from([0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x14, 0x02, 0x03]); // 1.3.6.1.4.1.311.20.2.3 (Microsoft UPN)

/**
 * The certificate's issuer or subject as an RFC 4514 string (most specific RDN first), read from the DER: Node's
 * `issuer` and `subject` objects lose the order of the RDNs and merge repeated attributes. Undefined when it does not
 * parse: the certificate verified, so its user stands, only nothing is recognized by that name.
 */
export function certificateName(der: Buffer, which: 'issuer' | 'subject'): string | undefined {
  try {
    const tbs = children(der, children(der, element(der, 0))[0]);
    // TBSCertificate: [0] version, serialNumber, signature, issuer, validity, subject, …
    const name = tbs[(tbs[0].tag === 0xa0 ? 3 : 2) + (which === 'subject' ? 2 : 0)];
    if (name?.tag !== 0x30) return undefined;
    const rdns = children(der, name).map((set) => {
      if (set.tag !== 0x31) throw new Error('not an RDN');
      return children(der, set).map((pair) => {
        const [type, value] = children(der, pair);
        if (type?.tag !== 0x06 || value === undefined) throw new Error('not an attribute');
        return { oid: objectIdentifier(der.subarray(type.start, type.end)), value: attributeText(der, value) };
      });
    });
    return formatName(rdns.reverse());
  } catch {
    return undefined;
  }
}

/** A DER OBJECT IDENTIFIER's content as a dotted string. */
function objectIdentifier(bytes: Buffer): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    if (arcs.length === 0) arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
    else arcs.push(value);
    value = 0;
  }
  return arcs.join('.');
}

/** A directory string as text (UTF8, Printable, IA5, Teletex as Latin-1, BMP, Universal); any other value as `#<hex of its DER>` (RFC 4514 §2.4). */
function attributeText(der: Buffer, value: Element): string {
  const content = der.subarray(value.start, value.end);
  switch (value.tag) {
    case 0x0c:
      return content.toString('utf8');
    case 0x12:
    case 0x13:
    case 0x16:
    case 0x1a:
      return content.toString('ascii');
    case 0x14:
      return content.toString('latin1');
    case 0x1e:
      return Buffer.from(content).swap16().toString('utf16le');
    case 0x1c:
      return String.fromCodePoint(...Array.from({ length: content.length / 4 }, (_, i) => content.readUInt32BE(i * 4)));
    default:
      return `#${der.subarray(value.at, value.end).toString('hex')}`;
  }
}

/**
 * The first UPN and e-mail of the certificate's subjectAltName, read from the DER rather than from Node's
 * `subjectaltname` string, which quotes and escapes some values (`othername:"UPN:eve\u002c ..."`).
 */
export function subjectAltNames(der: Buffer): { upn?: string; email?: string } {
  const tbs = children(der, element(der, 0))[0];
  const extensions = children(der, tbs).find((e) => e.tag === 0xa3);
  if (!extensions) return {};
  for (const extension of children(der, children(der, extensions)[0])) {
    const parts = children(der, extension);
    if (!der.subarray(parts[0].start, parts[0].end).equals(SUBJECT_ALT_NAME)) continue;
    const value = parts[parts.length - 1];
    const found: { upn?: string; email?: string } = {};
    for (const name of children(der, element(der, value.start, value.end))) {
      if (name.tag === 0x81 && found.email === undefined) found.email = der.toString('latin1', name.start, name.end);
      if (name.tag !== 0xa0 || found.upn !== undefined) continue;
      const [type, wrapped] = children(der, name);
      if (!der.subarray(type.start, type.end).equals(UPN) || wrapped?.tag !== 0xa0) continue;
      const text = children(der, wrapped)[0];
      if (text?.tag === 0x0c) found.upn = der.toString('utf8', text.start, text.end);
    }
    return found;
  }
  return {};
}

interface Element {
  tag: number;
  /** Where its tag is. */
  at: number;
  start: number;
  end: number;
}

/** One DER tag-length-value at `at`: the tag and where its content starts and ends. */
function element(der: Buffer, at: number, limit = der.length): Element {
  if (at + 2 > limit) throw new Error('truncated DER');
  const tag = der[at];
  let length = der[at + 1];
  let start = at + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets < 1 || octets > 3 || start + octets > limit) throw new Error('bad DER length');
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[start++];
  }
  if (start + length > limit) throw new Error('truncated DER');
  return { tag, at, start, end: start + length };
}

function children(der: Buffer, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end; at = out[out.length - 1].end) out.push(element(der, at, parent.end));
  return out;
}
