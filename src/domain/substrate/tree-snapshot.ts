import type { ContentDigest } from '../evidence/content-digest';
import { disambiguate, extractResources, topLevelKeys } from './resource-extraction';
import { buildSnapshot, type FileFormat, type SkippedEntry, type Snapshot } from './snapshot';

/**
 * One file of a walked tree. `documents` holds what parsed: one document for JSON, one per `---` for YAML; none for
 * text, binary and files too large to parse. The content itself is not kept: hashed and parsed, it is not needed.
 */
export interface TreeFile {
  /** Relative to the walked directory, `/`-separated. */
  path: string;
  sha256: string;
  bytes: number;
  format: FileFormat;
  documents?: readonly unknown[];
}

/** A walked configuration tree. */
export interface TreeWalk {
  /** The directory's own name. */
  root: string;
  files: TreeFile[];
  /** Entries left out of `files`, with the reason (symbolic links not followed, sockets). */
  skipped: SkippedEntry[];
  /** Files hashed but not parsed (too large): in `files`, without resources. */
  unparsed: SkippedEntry[];
}

/** The snapshot of a walked tree: its files, the resources they hold, and the Merkle root. */
export function snapshotOf(walk: TreeWalk, digest: ContentDigest): Snapshot {
  const files = walk.files.map(({ path, sha256, bytes, format, documents }) => {
    const keys = documents === undefined ? undefined : topLevelKeys(documents);
    return { path, sha256, bytes, format, ...(keys === undefined ? {} : { top_level_keys: keys }) };
  });
  const resources = disambiguate(
    walk.files.flatMap((f) => (f.documents === undefined ? [] : extractResources({ path: f.path, format: f.format, documents: f.documents }, digest))),
  );
  return buildSnapshot({ root: walk.root, files, resources, skipped: walk.skipped }, digest);
}
