import type { KsiDefinition } from '../catalog/ksi-catalog';
import type { KsiResult } from '../ksi/ksi-result';
import { formatDigest, type ContentDigest } from './content-digest';
import { mappingText } from './mapping-text';

/**
 * An evidence entry is the KSI result as given (unknown fields included), what the catalog maps it to
 * (`mapped`, `controls`, `policies`), and `content_hash` = SHA-256 over the canonical entry without
 * `content_hash` and `observed_at` (what was observed, not when): these are the fields left out.
 */
const UNHASHED = new Set(['content_hash', 'observed_at']);

export interface SerializedEntry {
  /** Canonical JSON of the whole entry, content_hash included. */
  text: string;
  /** Hex SHA-256 of the canonical entry without content_hash and observed_at. */
  hash: string;
}

/**
 * Canonical text and content hash of an entry, canonicalizing each field value once: the entry's own keys
 * are sorted here, so both the hashed form and the written form are RFC 8785 text by construction.
 */
export function serializeEvidenceEntry(result: KsiResult, definition: KsiDefinition | undefined, digest: ContentDigest): SerializedEntry {
  const { before, after, hashed } = entryMembers(result, definition, digest);
  const hash = digest.sha256(hashed);
  return { text: `{${before}"content_hash":"${formatDigest(hash)}"${after}}`, hash };
}

/** Hex content hash of the entry a result gives (the same as serializeEvidenceEntry(...).hash). */
export function evidenceHash(result: KsiResult, definition: KsiDefinition | undefined, digest: ContentDigest): string {
  return digest.sha256(entryMembers(result, definition, digest).hashed);
}

/**
 * The entry's `"key":<canonical value>` members in key order, split where `content_hash` belongs: each
 * member of `before` is followed by a comma, each of `after` preceded by one (`controls` always follows).
 * `hashed` is the canonical entry without content_hash and observed_at: the text the content hash covers.
 */
function entryMembers(result: KsiResult, definition: KsiDefinition | undefined, digest: ContentDigest): { before: string; after: string; hashed: string } {
  const mapped = mappingText(definition);
  const keys = Object.keys(result);
  keys.push('mapped', 'controls', 'policies');
  keys.sort();
  let before = '';
  let after = '';
  let afterHashed = '';
  for (const key of keys) {
    const value =
      key === 'mapped' ? mapped.mapped : key === 'controls' ? mapped.controls : key === 'policies' ? mapped.policies : valueText(result[key], digest);
    if (value === undefined) continue;
    const member = keyText(key) + value;
    if (key < 'content_hash') before += `${member},`;
    else {
      after += `,${member}`;
      if (!UNHASHED.has(key)) afterHashed += `,${member}`;
    }
  }
  return { before, after, hashed: `{${before === '' ? afterHashed.slice(1) : before.slice(0, -1) + afterHashed}}` };
}

const keyTexts = new Map<string, string>();

/** `"key":`, remembered: a report repeats the same dozen keys in every result. */
function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (keyTexts.size < 4096) keyTexts.set(key, text);
  }
  return text;
}

function valueText(value: unknown, digest: ContentDigest): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? JSON.stringify(value) : digest.canonicalize(value);
}
