import type { Assessment } from '../../domain/assessment/assessment';
import type { InputRef } from '../../domain/artifacts/run-context';
import type { ContentDigest } from '../../domain/evidence/content-digest';
import { evidenceHash } from '../../domain/evidence/evidence-entry';

/**
 * The input an artifact records for several reports: names joined with " + ", and the SHA-256 of their
 * `"<hex>  <name>\n"` lines (sha256sum's format) in the order given.
 */
export function combinedInput(refs: readonly InputRef[], digest: Pick<ContentDigest, 'sha256'>): InputRef {
  if (refs.length === 1) return refs[0];
  return { name: refs.map((r) => r.name).join(' + '), sha256: digest.sha256(refs.map((r) => `${r.sha256}  ${r.name}\n`).join('')) };
}

/** Content hash of every assessed result, in the assessment's order. */
export function entryHashes(assessment: Assessment, digest: ContentDigest): string[] {
  return assessment.items.map((item) => evidenceHash(item.result, item.definition, digest));
}
