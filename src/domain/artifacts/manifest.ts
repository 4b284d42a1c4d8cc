import type { RunCounts } from '../assessment/assessment';
import { formatDigest, type ContentDigest } from '../evidence/content-digest';
import type { InputRef } from './run-context';
import { isoSeconds } from '../encoding/iso-time';

export const MANIFEST_SCHEMA = 'svc.manifest/v1';

/** The six artifacts of an auditor bundle; the manifest is written last. */
export const BUNDLE_FILES = ['evidence-bundle.json', 'governance-report.md', 'lineage.json', 'poam.json', 'ssp-narrative.md'] as const;
export const MANIFEST_FILE = 'manifest.json';

export interface BundleCounts extends RunCounts {
  evidence: number;
  actions: number;
  poam: number;
}

export interface WrittenFile {
  name: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
  bytes: number;
}

export interface Manifest {
  schema: typeof MANIFEST_SCHEMA;
  tool: { name: string; version: string };
  generated_at: string;
  input: { name: string; sha256: string };
  counts: BundleCounts;
  merkle_root: string;
  files: Record<string, { sha256: string; bytes: number }>;
  aggregate_hash: string;
}

/**
 * `aggregate_hash` = SHA-256 over `"<hex>  <file>\n"` for the five other files in file-name order, the
 * lines `sha256sum` prints, so `sha256sum evidence-bundle.json governance-report.md ... | sha256sum` agrees.
 */
export function aggregateHash(files: readonly WrittenFile[], digest: Pick<ContentDigest, 'sha256'>): string {
  const lines = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => `${f.sha256}  ${f.name}\n`)
    .join('');
  return digest.sha256(lines);
}

export function buildManifest(args: {
  tool: { name: string; version: string };
  generatedAt: Date;
  input: InputRef;
  counts: BundleCounts;
  merkleRoot: string;
  files: readonly WrittenFile[];
  digest: Pick<ContentDigest, 'sha256'>;
}): Manifest {
  return {
    schema: MANIFEST_SCHEMA,
    tool: args.tool,
    generated_at: isoSeconds(args.generatedAt),
    input: { name: args.input.name, sha256: formatDigest(args.input.sha256) },
    counts: args.counts,
    merkle_root: formatDigest(args.merkleRoot),
    files: Object.fromEntries(args.files.map((f) => [f.name, { sha256: formatDigest(f.sha256), bytes: f.bytes }])),
    aggregate_hash: formatDigest(aggregateHash(args.files, args.digest)),
  };
}
