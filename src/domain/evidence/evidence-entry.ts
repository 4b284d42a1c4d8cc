import type { KsiDefinition } from '../catalog/ksi-catalog';
import type { KsiResult } from '../ksi/ksi-result';
import { formatDigest, type ContentDigest } from './content-digest';

/**
 * One evidence entry: the KSI result as given (unknown fields included), what the catalog maps it to, and
 * `content_hash` = SHA-256 over the canonical entry without `content_hash` and `observed_at` (what was
 * observed, not when).
 */
export interface EvidenceEntry {
  ksi_id: string;
  status: KsiResult['status'];
  mapped: boolean;
  controls: string[];
  policies: string[];
  content_hash: string;
  [field: string]: unknown;
}

/** Fields left out of the content hash. */
const UNHASHED = new Set(['content_hash', 'observed_at']);

export interface SerializedEntry {
  /** Canonical JSON of the whole entry, content_hash included. */
  text: string;
  /** Hex SHA-256 of the canonical entry without content_hash and observed_at. */
  hash: string;
}

/** The entry as an object (for APIs and tests); the bundle writer uses serializeEvidenceEntry. */
export function evidenceEntry(result: KsiResult, definition: KsiDefinition | undefined, digest: ContentDigest): EvidenceEntry {
  const entry = { ...result, ...mappedFields(definition) } as EvidenceEntry;
  entry.content_hash = formatDigest(serializeEvidenceEntry(result, definition, digest).hash);
  return entry;
}

function mappedFields(definition: KsiDefinition | undefined): { mapped: boolean; controls: string[]; policies: string[] } {
  return { mapped: definition !== undefined, controls: definition?.controls ?? [], policies: definition?.policies.map((p) => p.id) ?? [] };
}

/**
 * Canonical text and content hash of an entry, canonicalizing each field value once: the entry's own keys
 * are sorted here, so both the hashed form and the written form are RFC 8785 text by construction.
 */
export function serializeEvidenceEntry(result: KsiResult, definition: KsiDefinition | undefined, digest: ContentDigest): SerializedEntry {
  const members = entryMembers(result, definition, digest);
  const hash = hashMembers(members, digest);
  // `controls` is always present and sorts right after `content_hash`, so the insertion point exists.
  const at = members.findIndex(([key]) => key > 'content_hash');
  members.splice(at, 0, ['content_hash', `"content_hash":"${formatDigest(hash)}"`]);
  return { text: `{${members.map(([, m]) => m).join(',')}}`, hash };
}

/** Hex content hash of the entry a result gives (the same as serializeEvidenceEntry(...).hash). */
export function evidenceHash(result: KsiResult, definition: KsiDefinition | undefined, digest: ContentDigest): string {
  return hashMembers(entryMembers(result, definition, digest), digest);
}

/** `"key":<canonical value>` members of the entry without content_hash, sorted by key. */
function entryMembers(result: KsiResult, definition: KsiDefinition | undefined, digest: ContentDigest): [string, string][] {
  const members: [string, string][] = [];
  for (const key in result) {
    const value = result[key];
    if (value !== undefined) members.push([key, `${JSON.stringify(key)}:${typeof value === 'string' ? JSON.stringify(value) : digest.canonicalize(value)}`]);
  }
  const mapped = mappedText(definition, digest);
  members.push(['mapped', `"mapped":${mapped.mapped}`], ['controls', `"controls":${mapped.controls}`], ['policies', `"policies":${mapped.policies}`]);
  return members.sort(byKey);
}

function hashMembers(members: readonly [string, string][], digest: ContentDigest): string {
  return digest.sha256(`{${members.filter(([key]) => !UNHASHED.has(key)).map(([, m]) => m).join(',')}}`);
}

const cache = new WeakMap<KsiDefinition, { mapped: string; controls: string; policies: string }>();
const UNMAPPED = { mapped: 'false', controls: '[]', policies: '[]' };

function mappedText(definition: KsiDefinition | undefined, digest: ContentDigest): { mapped: string; controls: string; policies: string } {
  if (!definition) return UNMAPPED;
  let hit = cache.get(definition);
  if (!hit) {
    const fields = mappedFields(definition);
    hit = { mapped: 'true', controls: digest.canonicalize(fields.controls), policies: digest.canonicalize(fields.policies) };
    cache.set(definition, hit);
  }
  return hit;
}

function byKey(a: [string, string], b: [string, string]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
