import type { ContentDigest } from '../evidence/content-digest';
import { merkleRoot } from '../evidence/merkle';
import { IntegrityError, InvalidInputError } from '../errors';

export const SNAPSHOT_SCHEMA = 'svc.substrate-snapshot/v1';

export const FILE_FORMATS = ['json', 'yaml', 'terraform-state', 'kubernetes', 'm365-settings', 'text', 'binary'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export const RESOURCE_CATEGORIES = ['identity', 'access', 'network', 'data', 'other'] as const;
export type ResourceCategory = (typeof RESOURCE_CATEGORIES)[number];

/** One file of the tree. `top_level_keys` (sorted) is there for object documents: the union over a YAML file's documents. */
export interface SnapshotFile {
  /** Relative to the walked directory, `/`-separated. */
  path: string;
  sha256: string;
  bytes: number;
  format: FileFormat;
  top_level_keys?: string[];
}

/** A configuration object found inside a file (resource-extraction.ts says which and how it is named). */
export interface SnapshotResource {
  id: string;
  kind: string;
  file: string;
  /** SHA-256 of the RFC 8785 canonical JSON of the resource's content: key order does not matter. */
  sha256: string;
  category: ResourceCategory;
}

/** An entry of the tree that is not in `files`, and why (a symbolic link that is not followed, a socket). */
export interface SkippedEntry {
  path: string;
  reason: string;
}

export interface SnapshotCounts {
  files: number;
  bytes: number;
  resources: number;
  categories: Record<ResourceCategory, number>;
  skipped: number;
}

/** `svc substrate walk`'s output: the same tree gives the same snapshot, byte for byte, wherever it sits. */
export interface Snapshot {
  schema: typeof SNAPSHOT_SCHEMA;
  /** The walked directory's own name (never its absolute path). */
  root: string;
  files: SnapshotFile[];
  resources: SnapshotResource[];
  skipped: SkippedEntry[];
  counts: SnapshotCounts;
  merkle_root: string;
}

/** Parts of a snapshot before ordering and counting. */
export interface SnapshotParts {
  root: string;
  files: readonly SnapshotFile[];
  resources: readonly SnapshotResource[];
  skipped: readonly SkippedEntry[];
}

type Digest = Pick<ContentDigest, 'sha256' | 'sha256Tagged'>;

/** Orders code unit by code unit (`Array.prototype.sort`'s default, which localeCompare is not). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Assembles a snapshot: files by path, resources by id, skipped entries by path (all in UTF-16 code-unit order),
 * the counts and the Merkle root.
 */
export function buildSnapshot(parts: SnapshotParts, digest: Digest): Snapshot {
  const files = [...parts.files].sort((x, y) => byCodeUnits(x.path, y.path));
  const resources = [...parts.resources].sort((x, y) => byCodeUnits(x.id, y.id));
  const skipped = [...parts.skipped].sort((x, y) => byCodeUnits(x.path, y.path));
  const categories = Object.fromEntries(RESOURCE_CATEGORIES.map((c) => [c, 0])) as Record<ResourceCategory, number>;
  for (const r of resources) categories[r.category] += 1;
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  const counts = { files: files.length, bytes, resources: resources.length, categories, skipped: skipped.length };
  return { schema: SNAPSHOT_SCHEMA, root: parts.root, files, resources, skipped, counts, merkle_root: treeRoot(files, digest) };
}

/**
 * RFC 6962 Merkle root over the files in path order. Leaf i is SHA-256 of the UTF-8 bytes `<path> NUL <sha256 hex>`
 * (the hex as text, 64 characters); merkleRoot() then tags leaves 0x00 and nodes 0x01 as the RFC says. An empty tree
 * has the SHA-256 of nothing.
 */
export function treeRoot(files: readonly Pick<SnapshotFile, 'path' | 'sha256'>[], digest: Digest): string {
  return merkleRoot(
    files.map((f) => digest.sha256(`${f.path}\0${f.sha256}`)),
    digest,
  );
}

const HEX64 = /^[0-9a-f]{64}$/;
const FIX = 'pass a snapshot written by svc substrate walk';

/**
 * Checks that a parsed document is a snapshot (shape, order, counts) and that its Merkle root is the root of its
 * files. Throws InvalidInputError `invalid-snapshot` naming `name` and the JSON path, IntegrityError
 * `snapshot-root-mismatch` when the root does not match.
 */
export function parseSnapshot(document: unknown, name: string, digest: Digest): Snapshot {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-snapshot', `${name}: ${path}: ${problem}; ${FIX}`);
  };
  const doc = objectAt(document, '$', fail);
  if (doc.schema !== SNAPSHOT_SCHEMA) fail('schema', `expected "${SNAPSHOT_SCHEMA}", found ${shown(doc.schema)}`);
  if (typeof doc.root !== 'string') fail('root', `expected a string, found ${shown(doc.root)}`);
  const files = arrayAt(doc.files, 'files', fail).map((item, i) => {
    const at = `files[${i}]`;
    const f = objectAt(item, at, fail);
    const keys = f.top_level_keys;
    if (keys !== undefined && !(Array.isArray(keys) && keys.every((k) => typeof k === 'string'))) fail(`${at}.top_level_keys`, 'expected an array of strings');
    return {
      path: stringAt(f.path, `${at}.path`, fail),
      sha256: hexAt(f.sha256, `${at}.sha256`, fail),
      bytes:
        Number.isSafeInteger(f.bytes) && (f.bytes as number) >= 0 ? (f.bytes as number) : fail(`${at}.bytes`, `expected a byte count, found ${shown(f.bytes)}`),
      format: oneOf(f.format, FILE_FORMATS, `${at}.format`, fail),
      ...(keys === undefined ? {} : { top_level_keys: keys as string[] }),
    };
  });
  const resources = arrayAt(doc.resources, 'resources', fail).map((item, i) => {
    const at = `resources[${i}]`;
    const r = objectAt(item, at, fail);
    return {
      id: stringAt(r.id, `${at}.id`, fail),
      kind: stringAt(r.kind, `${at}.kind`, fail),
      file: stringAt(r.file, `${at}.file`, fail),
      sha256: hexAt(r.sha256, `${at}.sha256`, fail),
      category: oneOf(r.category, RESOURCE_CATEGORIES, `${at}.category`, fail),
    };
  });
  const skipped = arrayAt(doc.skipped ?? [], 'skipped', fail).map((item, i) => {
    const s = objectAt(item, `skipped[${i}]`, fail);
    return { path: stringAt(s.path, `skipped[${i}].path`, fail), reason: stringAt(s.reason, `skipped[${i}].reason`, fail) };
  });
  ascending(
    files.map((f) => f.path),
    'files',
    'path',
    fail,
  );
  ascending(
    resources.map((r) => r.id),
    'resources',
    'id',
    fail,
  );
  const merkle = hexAt(doc.merkle_root, 'merkle_root', fail);
  const snapshot = buildSnapshot({ root: doc.root as string, files, resources, skipped }, digest);
  if (snapshot.merkle_root !== merkle) {
    throw new IntegrityError(
      'snapshot-root-mismatch',
      `${name}: merkle_root ${merkle} is not the root of its files (${snapshot.merkle_root}); the snapshot was altered: walk the tree again`,
    );
  }
  return snapshot;
}

type Fail = (path: string, problem: string) => never;

function objectAt(value: unknown, path: string, fail: Fail): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : fail(path, `expected an object, found ${shown(value)}`);
}

function arrayAt(value: unknown, path: string, fail: Fail): unknown[] {
  return Array.isArray(value) ? value : fail(path, `expected an array, found ${shown(value)}`);
}

function stringAt(value: unknown, path: string, fail: Fail): string {
  return typeof value === 'string' && value !== '' ? value : fail(path, `expected a non-empty string, found ${shown(value)}`);
}

function hexAt(value: unknown, path: string, fail: Fail): string {
  return typeof value === 'string' && HEX64.test(value) ? value : fail(path, `expected 64 lower-case hex digits, found ${shown(value)}`);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string, fail: Fail): T {
  return allowed.includes(value as T) ? (value as T) : fail(path, `expected one of ${allowed.join(', ')}, found ${shown(value)}`);
}

function ascending(keys: readonly string[], array: string, field: string, fail: Fail): void {
  for (let i = 1; i < keys.length; i++)
    if (keys[i - 1] >= keys[i]) fail(`${array}[${i}].${field}`, `not after ${JSON.stringify(keys[i - 1])} (entries are unique and sorted)`);
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
