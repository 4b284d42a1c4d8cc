import { formatName, parseName, sameName, type DistinguishedName } from './distinguished-name';

/**
 * A certificate authority a client certificate chains to, as svc-api saw it in the verified chain: its subject (RFC
 * 4514, most specific RDN first), the SHA-256 fingerprint of its certificate (`AB:CD:…`, as `openssl x509
 * -fingerprint -sha256` prints it) and the SHA-256 of its SubjectPublicKeyInfo (base64, as curl's `--pinnedpubkey
 * sha256//…` takes it).
 */
export interface CertificateAuthority {
  subject: string;
  fingerprint256: string;
  spki256: string;
}

/**
 * How the configuration names a CA (`fedramp.agencies[].issuers`, a role grant's `issuer`): by its certificate's
 * fingerprint, by its key (SPKI), or by its subject name, which recognizes nothing by itself: it stands for the
 * certificates of the CA bundle the API trusts (auth.mtls.ca) whose subject is exactly that name (resolveIssuer), so
 * a CA that copies another's name, in any case, spacing or order, is never taken for it.
 */
export type IssuerReference =
  { kind: 'fingerprint'; fingerprint256: string } | { kind: 'spki'; spki256: string } | { kind: 'name'; name: DistinguishedName; text: string };

const FINGERPRINT = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;
const SPKI = /^sha256\/\/([A-Za-z0-9+/]{43}=)$/;

/** The forms an issuer takes, for messages. */
export const ISSUER_FORMS =
  'the CA certificate\'s SHA-256 fingerprint ("AB:CD:…", openssl x509 -noout -fingerprint -sha256), its key\'s "sha256//<base64>" (openssl x509 -noout -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64), or its exact subject as RFC 4514 (openssl x509 -noout -subject -nameopt RFC2253) of a CA in auth.mtls.ca';

/**
 * Reads an issuer reference: a fingerprint (32 hex pairs, colons optional, with or without `sha256 Fingerprint=`), an
 * SPKI pin (`sha256//` and 44 base64 characters) or an RFC 4514 name. Throws an Error saying what is wrong.
 */
export function parseIssuerReference(text: string): IssuerReference {
  const trimmed = text.trim();
  const hex = trimmed
    .replace(/^sha256 fingerprint=/i, '')
    .replace(/:/g, '')
    .toUpperCase();
  if (/^[0-9A-F]{64}$/.test(hex)) return { kind: 'fingerprint', fingerprint256: (hex.match(/../g) as string[]).join(':') };
  const spki = SPKI.exec(trimmed);
  if (spki) return { kind: 'spki', spki256: spki[1] };
  if (/^sha256\/\//i.test(trimmed)) throw new Error('a key pin is "sha256//" and the 44 base64 characters of the SHA-256 of the CA\'s SubjectPublicKeyInfo');
  if (!trimmed.includes('=') && /^[0-9A-Fa-f:\s]+$/.test(trimmed)) throw new Error('a fingerprint is the 32 hex pairs of a SHA-256');
  return { kind: 'name', name: parseName(trimmed), text: trimmed };
}

/** A stable key of a reference, to find two entries naming the same CA. */
export function issuerKey(reference: IssuerReference): string {
  if (reference.kind === 'fingerprint') return `fingerprint ${reference.fingerprint256}`;
  if (reference.kind === 'spki') return `spki ${reference.spki256}`;
  return `name ${formatName(reference.name)}`;
}

/**
 * The references a reference stands for against the CAs the API trusts: a fingerprint or key as it is; a name as the
 * fingerprints of the `trusted` certificates whose subject is exactly it ([] when none is: the caller says so).
 */
export function resolveIssuer(reference: IssuerReference, trusted: readonly CertificateAuthority[]): IssuerReference[] {
  if (reference.kind !== 'name') return [reference];
  return trusted.filter((ca) => sameCaName(ca.subject, reference.name)).map((ca) => ({ kind: 'fingerprint', fingerprint256: ca.fingerprint256 }));
}

/** Whether `authority` is the CA `reference` names (a name reference matches nothing: resolve it first). */
export function isAuthority(reference: IssuerReference, authority: CertificateAuthority): boolean {
  if (reference.kind === 'fingerprint') return FINGERPRINT.test(reference.fingerprint256) && authority.fingerprint256 === reference.fingerprint256;
  if (reference.kind === 'spki') return authority.spki256 === reference.spki256;
  return false;
}

function sameCaName(subject: string, name: DistinguishedName): boolean {
  try {
    return sameName(parseName(subject), name);
  } catch {
    return false;
  }
}
