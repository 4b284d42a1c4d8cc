import type { BuildEvidenceBundleResult } from '../../application/evidence/build-evidence-bundle';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { DIGEST_PREFIX, formatDigest } from '../../domain/evidence/content-digest';

// What --json prints follows one convention (docs/cli.md): snake_case keys and every SHA-256 as `sha256:<hex>`, as
// the artifacts write them. Use cases keep hex where they compute with it; these put it in the printed form.

/** `sha256:<hex>`; a digest already in that form stays as it is. */
export function digest(hex: string): string {
  return hex.startsWith(DIGEST_PREFIX) ? hex : formatDigest(hex);
}

/** A file that was written or read: name or path, `sha256:<hex>`, bytes. */
export function digested<T extends { sha256: string }>(file: T): T {
  return { ...file, sha256: digest(file.sha256) };
}

/** A result naming the file it wrote, with that file's digest in the printed form. */
export function withWrittenFile<T extends object>(result: T): T {
  return 'file' in result ? { ...result, file: digested(result.file as WrittenFile) } : result;
}

export type EvidenceBundleJson = Omit<BuildEvidenceBundleResult, 'merkleRoot'> & { merkle_root: string };

/** `ir evidence-bundle` and `evidence build`. */
export function evidenceBundleJson({ merkleRoot, ...result }: BuildEvidenceBundleResult): EvidenceBundleJson {
  return { ...withWrittenFile(result), merkle_root: merkleRoot };
}
