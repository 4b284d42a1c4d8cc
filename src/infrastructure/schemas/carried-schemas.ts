import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../domain/errors';

/**
 * The package's `schemas/` directory: three levels above this module, from `dist/infrastructure/schemas/` as from
 * `src/infrastructure/schemas/` (ts-jest), as the package ships it (`files` in package.json).
 */
export const CARRIED_SCHEMAS_DIR = resolve(__dirname, '..', '..', '..', 'schemas');

/** One file as `schemas/manifest.json` records it. */
interface ManifestFile {
  file: string;
  sha256: string;
  bytes: number;
  $schemaVersion?: string;
  $id?: string;
}

interface Manifest {
  fedramp: { default: string; generations: { generation: string; files: ManifestFile[] }[] };
  oscal: { releases: { release: string; files: ManifestFile[] }[] };
}

/** What svc carries, as its manifest records it: where each set is and every file's SHA-256 by its path. */
export interface CarriedSchemas {
  fedramp: { dir: string; generation: string };
  oscal: { dir: string };
  /** Hex SHA-256 by absolute path, for every file the manifest lists. */
  sha256: ReadonlyMap<string, string>;
}

/**
 * Reads `schemas/manifest.json` under `root` (docs/schemas.md). Throws ConfigError `fedramp-schemas-missing` or
 * `oscal-schemas-missing` (as `what` asks) when it cannot be read: svc was installed without its schemas.
 */
export function readCarriedSchemas(root: string, what: 'fedramp' | 'oscal'): CarriedSchemas {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as Manifest;
  } catch (error) {
    throw new ConfigError(
      `${what}-schemas-missing`,
      `${root}/manifest.json: svc's own copy of ${what === 'fedramp' ? "FedRAMP's CR26" : "NIST's OSCAL"} schemas cannot be read (${error instanceof Error ? error.message : String(error)}); reinstall svc, or name a schema directory with --schemas`,
      { cause: error },
    );
  }
  const sha256 = new Map<string, string>();
  for (const g of manifest.fedramp.generations) for (const f of g.files) sha256.set(join(root, 'fedramp', g.generation, f.file), f.sha256);
  for (const r of manifest.oscal.releases) for (const f of r.files) sha256.set(join(root, 'oscal', r.release, f.file), f.sha256);
  return { fedramp: { dir: join(root, 'fedramp', manifest.fedramp.default), generation: manifest.fedramp.default }, oscal: { dir: join(root, 'oscal') }, sha256 };
}
