import { IntegrityError } from '../errors';
import { formatDigest, parseDigest, type ContentDigest } from '../evidence/content-digest';
import { merkleRoot } from '../evidence/merkle';
import { compareIds } from '../governance/governance-policy';
import { describe, isPlainObject } from '../encoding/json-values';
import { EVIDENCE_BUNDLE_SCHEMA } from './evidence-bundle';
import { aggregateHash, BUNDLE_FILES, MANIFEST_SCHEMA, type BundleCounts, type WrittenFile } from './manifest';

/** What a verified evidence bundle holds: its entries' ids and recomputed hashes, and its root. */
export interface VerifiedEntries {
  ids: string[];
  /** Hex content hash of each entry, recomputed from the entry itself. */
  hashes: string[];
  merkleRoot: string;
  input: { name: string; sha256: string };
  counts: BundleCounts;
}

const UNHASHED = new Set(['content_hash', 'observed_at']);
const STATUS = new Set(['PASS', 'WARN', 'FAIL']);

/**
 * Recomputes every entry's content hash from the entry as written (DESIGN §5: SHA-256 of its RFC 8785 form
 * without content_hash and observed_at), the entries' order, and the RFC 6962 Merkle root. A third party needs
 * nothing but the file to do the same: the catalog that mapped the entries is not consulted.
 * Throws IntegrityError naming the first entry or field that does not match.
 */
export function verifyEvidenceEntries(document: unknown, file: string, digest: ContentDigest): VerifiedEntries {
  const changed = (where: string, problem: string): never => {
    throw new IntegrityError('evidence-bundle-mismatch', `${file}: ${where}: ${problem}; the bundle was changed after it was written`);
  };
  if (!isPlainObject(document) || document.schema !== EVIDENCE_BUNDLE_SCHEMA) return changed('schema', `expected "${EVIDENCE_BUNDLE_SCHEMA}"`);
  const { entries, input, merkle_root } = document;
  if (!Array.isArray(entries)) return changed('entries', `expected an array, got ${describe(entries)}`);
  if (!isPlainObject(input) || typeof input.name !== 'string' || parseDigest(input.sha256) === undefined)
    return changed('input', 'expected {"name", "sha256": "sha256:<hex>"}');
  const recordedRoot = parseDigest(merkle_root) ?? changed('merkle_root', 'expected sha256:<64 hex digits>');
  const ids: string[] = [];
  const hashes: string[] = [];
  const counts: BundleCounts = { results: 0, pass: 0, warn: 0, fail: 0, mapped: 0, unmapped: 0, evidence: 0, actions: 0, poam: 0 };
  entries.forEach((entry, i) => {
    if (!isPlainObject(entry) || typeof entry.ksi_id !== 'string' || !STATUS.has(entry.status as string))
      return changed(`entries[${i}]`, 'expected an evidence entry with ksi_id and status');
    const recorded = parseDigest(entry.content_hash) ?? changed(`entries[${i}].content_hash`, 'expected sha256:<64 hex digits>');
    const hash = digest.sha256(digest.canonicalize(Object.fromEntries(Object.entries(entry).filter(([key]) => !UNHASHED.has(key)))));
    if (hash !== recorded) changed(`entry ${entry.ksi_id}`, `content_hash records ${formatDigest(recorded)}, the entry hashes to ${formatDigest(hash)}`);
    if (i > 0 && compareIds(ids[i - 1], entry.ksi_id) >= 0) changed(`entries[${i}]`, `${entry.ksi_id} is out of ksi_id order or repeated`);
    ids.push(entry.ksi_id);
    hashes.push(hash);
    tally(counts, entry.status as string, entry.mapped === true);
  });
  const root = merkleRoot(hashes, digest);
  if (root !== recordedRoot) changed('merkle_root', `recorded ${formatDigest(recordedRoot)}, the entries give ${formatDigest(root)}`);
  return { ids, hashes, merkleRoot: root, input: { name: input.name, sha256: parseDigest(input.sha256) as string }, counts };
}

function tally(counts: BundleCounts, status: string, mapped: boolean): void {
  counts.results += 1;
  counts.evidence += 1;
  counts.actions += 1;
  if (status === 'PASS') counts.pass += 1;
  else {
    if (status === 'WARN') counts.warn += 1;
    else counts.fail += 1;
    counts.poam += 1;
  }
  if (mapped) counts.mapped += 1;
  else counts.unmapped += 1;
}

/** The digests a manifest records, read from its JSON. */
export interface RecordedManifest {
  files: Map<string, { sha256: string; bytes: number }>;
  aggregateHash: string;
  merkleRoot: string;
  input: { name: string; sha256: string };
  counts: Record<string, unknown>;
}

/** Reads manifest.json's digests; a manifest that is not the one svc writes is an integrity failure. */
export function readRecordedManifest(document: unknown, file: string): RecordedManifest {
  const changed = (where: string, problem: string): never => {
    throw new IntegrityError('manifest-mismatch', `${file}: ${where}: ${problem}; the manifest was changed after it was written`);
  };
  if (!isPlainObject(document) || document.schema !== MANIFEST_SCHEMA) return changed('schema', `expected "${MANIFEST_SCHEMA}"`);
  const files = new Map<string, { sha256: string; bytes: number }>();
  if (!isPlainObject(document.files)) return changed('files', `expected an object, got ${describe(document.files)}`);
  for (const name of BUNDLE_FILES) {
    const recorded = document.files[name];
    if (!isPlainObject(recorded)) return changed(`files.${name}`, 'missing');
    const sha256 = parseDigest(recorded.sha256) ?? changed(`files.${name}.sha256`, 'expected sha256:<64 hex digits>');
    if (!Number.isInteger(recorded.bytes)) changed(`files.${name}.bytes`, `expected a whole number, got ${describe(recorded.bytes)}`);
    files.set(name, { sha256, bytes: recorded.bytes as number });
  }
  const extra = Object.keys(document.files).filter((name) => !(BUNDLE_FILES as readonly string[]).includes(name));
  if (extra.length > 0) changed('files', `lists ${extra.join(', ')}, which is not a bundle file`);
  const input = document.input;
  if (!isPlainObject(input) || typeof input.name !== 'string') return changed('input', 'expected {"name", "sha256"}');
  return {
    files,
    aggregateHash: parseDigest(document.aggregate_hash) ?? changed('aggregate_hash', 'expected sha256:<64 hex digits>'),
    merkleRoot: parseDigest(document.merkle_root) ?? changed('merkle_root', 'expected sha256:<64 hex digits>'),
    input: { name: input.name, sha256: parseDigest(input.sha256) ?? changed('input.sha256', 'expected sha256:<64 hex digits>') },
    counts: isPlainObject(document.counts) ? document.counts : changed('counts', `expected an object, got ${describe(document.counts)}`),
  };
}

/** Holds each file as found (SHA-256 and size) and the aggregate hash against the manifest; the first difference is thrown. */
export function checkBundleFiles(manifest: RecordedManifest, found: readonly WrittenFile[], file: string, digest: Pick<ContentDigest, 'sha256'>): void {
  for (const actual of found) {
    const recorded = manifest.files.get(actual.name);
    if (recorded && recorded.sha256 !== actual.sha256)
      changedAfter(file, actual.name, `sha256 is ${formatDigest(actual.sha256)}, ${file} records ${formatDigest(recorded.sha256)}`);
    if (recorded && recorded.bytes !== actual.bytes) changedAfter(file, actual.name, `${actual.bytes} bytes, ${file} records ${recorded.bytes}`);
  }
  const aggregate = aggregateHash(found, digest);
  if (aggregate !== manifest.aggregateHash)
    changedAfter(file, `${file} aggregate_hash`, `records ${formatDigest(manifest.aggregateHash)}, the files give ${formatDigest(aggregate)}`);
}

/** Holds the manifest's Merkle root, input and counts against the verified entries. */
export function checkManifestEntries(manifest: RecordedManifest, entries: VerifiedEntries, file: string): void {
  if (manifest.merkleRoot !== entries.merkleRoot)
    changedAfter(file, `${file} merkle_root`, `records ${formatDigest(manifest.merkleRoot)}, the entries give ${formatDigest(entries.merkleRoot)}`);
  if (manifest.input.sha256 !== entries.input.sha256 || manifest.input.name !== entries.input.name)
    changedAfter(file, `${file} input`, "differs from the evidence bundle's input");
  for (const [key, value] of Object.entries(entries.counts)) {
    if (manifest.counts[key] !== value) changedAfter(file, `${file} counts.${key}`, `records ${describe(manifest.counts[key])}, the entries give ${value}`);
  }
}

function changedAfter(file: string, where: string, problem: string): never {
  throw new IntegrityError('manifest-mismatch', `${where}: ${problem}; the bundle was changed after ${file} was written`);
}
