/**
 * The one rule every authenticated name is held to, whatever proved it (Kerberos, a client certificate, a trusted
 * proxy's header), before authentication succeeds: the role grants, the agency patterns, the request log and the
 * trust center's access log (CDS-TRC-ACL) all read names that passed it, so none of them meets a name it cannot keep.
 */

/** The longest name accepted, in Unicode code points (a UPN is at most 256 characters in Active Directory). */
export const MAX_PRINCIPAL_NAME = 256;

/**
 * Control characters (C0, DEL, C1), format characters (bidirectional overrides, zero-width joiners, the soft hyphen,
 * …), line and paragraph separators (U+2028, U+2029) and lone surrogates: what could forge a log line, hide a
 * character from a reader, or make two names that look alike compare unequal.
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * Why `name` is not a usable principal name, or undefined when it is: 1 to MAX_PRINCIPAL_NAME code points, in Unicode
 * NFC, without FORBIDDEN characters and without leading or trailing white space. The reason names the first offending
 * character by its code point (never the name itself, which may be hostile), for a one-line 401 detail.
 */
export function principalNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  const length = [...name].length;
  if (length > MAX_PRINCIPAL_NAME) return `it is ${length} characters long, more than ${MAX_PRINCIPAL_NAME}`;
  const forbidden = FORBIDDEN.exec(name);
  if (forbidden !== null) return `it holds ${codePoint(forbidden[0])}, a control, format or line-separator character`;
  if (name.trim() !== name) return 'it begins or ends with white space';
  if (name.normalize('NFC') !== name) return 'it is not in Unicode normalization form C (NFC)';
  return undefined;
}

/** `U+202E`. */
function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * ASCII-only case folding for realms, domains and role grants: `A`–`Z` become `a`–`z` and nothing else changes, so
 * `ſvc.teſt` (LONG S) stays distinct from `svc.test`, where `toUpperCase` would fold them together. Names are held
 * to NFC first (principalNameProblem refuses `fran\u212Ak`, whose KELVIN SIGN `toLowerCase` folds into `k` and NFC
 * would turn into `K`): a name is compared as it was proven, never normalized into another's.
 */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}
