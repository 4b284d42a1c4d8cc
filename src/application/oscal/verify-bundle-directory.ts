import {
  checkBundleFiles,
  checkManifestEntries,
  readRecordedManifest,
  verifyEvidenceEntries,
  type VerifiedEntries,
} from '../../domain/artifacts/bundle-verification';
import { BUNDLE_FILES, MANIFEST_FILE, MANIFEST_SCHEMA, type WrittenFile } from '../../domain/artifacts/manifest';
import { isSvcManifest, notAnSvcArtifact, textShape, unparsedWhy } from '../../domain/artifacts/svc-artifact';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';
import { AppError, IntegrityError, NotFoundError } from '../../domain/errors';
import type { Hashing } from '../../ports/hashing';
import type { ReportReader } from '../../ports/report-reader';

export interface VerifiedBundle {
  entries: VerifiedEntries;
  /** evidence-bundle.json, parsed. */
  evidence: unknown;
  evidenceFile: string;
  /** The six files as found, manifest last. */
  files: WrittenFile[];
  aggregateHash: string;
}

/**
 * Recomputes an auditor bundle's integrity (DESIGN §5) in the order a reader trusts it: each file's SHA-256 and
 * size against manifest.json, the aggregate hash, every entry's content hash and the Merkle root, then the
 * manifest's root, input and counts. Throws IntegrityError naming the first mismatch; a file that is missing or
 * no longer parses is a mismatch too. A directory svc did not write (no manifest.json, or one that is not svc's in a
 * directory holding none of the other bundle files) is `not-an-svc-artifact` (InvalidInputError), not a mismatch.
 */
export async function verifyBundleDirectory(reader: ReportReader, hashing: Hashing, dir: string): Promise<VerifiedBundle> {
  const base = dir.replace(/\/+$/, '');
  const manifestFile = `${base}/${MANIFEST_FILE}`;
  const manifestText = await reader.readText(dir, MANIFEST_FILE, { anyBytes: true }).catch((error: unknown) => {
    throw error instanceof NotFoundError ? notAnSvcArtifact(dir, `no ${MANIFEST_FILE}`, BUNDLE_HINT, error) : error;
  });
  const shape = textShape(manifestText.text);
  if (!(shape.kind === 'json' && isSvcManifest(shape.document)) && !(await holdsBundleFile(reader, base))) {
    throw notAnSvcArtifact(
      dir,
      `its ${MANIFEST_FILE} is not svc's: ${shape.kind === 'json' ? `no "schema": "${MANIFEST_SCHEMA}"` : unparsedWhy(shape)}`,
      BUNDLE_HINT,
    );
  }
  const manifest = readRecordedManifest(parsed(manifestText.text, manifestFile), manifestFile);
  const found: WrittenFile[] = [];
  const texts = new Map<string, string>();
  for (const name of BUNDLE_FILES) {
    const file = await reader.readText(dir, name, { anyBytes: true }).catch((error: unknown) => {
      throw error instanceof AppError && error.kind === 'not-found'
        ? new IntegrityError('bundle-file-missing', `${name}: missing from ${dir}, though ${MANIFEST_FILE} lists it; the bundle is incomplete`, {
            cause: error,
          })
        : error;
    });
    found.push({ name, sha256: file.sha256, bytes: file.bytes });
    texts.set(name, file.text);
  }
  checkBundleFiles(manifest, found, MANIFEST_FILE, hashing);
  const evidenceFile = `${dir.replace(/\/+$/, '')}/evidence-bundle.json`;
  const evidence = parsed(texts.get('evidence-bundle.json') ?? '', evidenceFile);
  const entries = verifyEvidenceEntries(evidence, evidenceFile, hashing);
  checkManifestEntries(manifest, entries, MANIFEST_FILE);
  return {
    entries,
    evidence,
    evidenceFile,
    files: [...found, { name: MANIFEST_FILE, sha256: manifestText.sha256, bytes: manifestText.bytes }],
    aggregateHash: manifest.aggregateHash,
  };
}

const BUNDLE_HINT = 'pass an auditor bundle directory written by svc ir auditor-bundle';

/** A manifest.json that is not svc's still belongs to a bundle (a changed one) when another bundle file sits beside it. */
async function holdsBundleFile(reader: ReportReader, base: string): Promise<boolean> {
  for (const name of BUNDLE_FILES) if ((await reader.kind(`${base}/${name}`)) === 'file') return true;
  return false;
}

/** JSON of a file svc wrote: one that no longer parses was changed after it was written. */
export function parsed(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new IntegrityError(
      'not-the-written-json',
      `${file}: no longer valid JSON (${jsonSyntaxProblem((error as Error).message)}); it was changed after svc wrote it`,
      { cause: error },
    );
  }
}
