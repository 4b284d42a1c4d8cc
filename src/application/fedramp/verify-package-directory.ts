import type { WrittenFile } from '../../domain/artifacts/manifest';
import { AppError, IntegrityError } from '../../domain/errors';
import { formatDigest } from '../../domain/evidence/content-digest';
import {
  checkPackage,
  isPackageManifest,
  PACKAGE_ENVELOPE_FILE,
  PACKAGE_MANIFEST_FILE,
  type PackageManifest,
} from '../../domain/fedramp/certification-package';
import type { SignatureAlgorithm } from '../../domain/signing/jwk';
import { verifySignedStatement } from '../shared/signed-statement';
import { textShape } from '../../domain/artifacts/svc-artifact';
import type { Hashing } from '../../ports/hashing';
import type { LoadedText, ReportReader } from '../../ports/report-reader';
import type { Signer } from '../../ports/signer';
import { parsed } from '../oscal/verify-bundle-directory';

export interface VerifiedPackage {
  files: number;
  aggregateHash: string;
  algorithm: SignatureAlgorithm;
  keyid: string;
  package: PackageManifest['package'];
}

/** Whether `dir` holds a certification package's manifest (`svc fedramp package`). */
export async function isPackageDirectory(reader: ReportReader, dir: string): Promise<boolean> {
  if ((await reader.kind(`${dir.replace(/\/+$/, '')}/${PACKAGE_ENVELOPE_FILE}`)) === 'file') return true;
  const manifest = await reader.readText(dir, PACKAGE_MANIFEST_FILE, { anyBytes: true }).catch(() => undefined);
  const shape = manifest === undefined ? undefined : textShape(manifest.text);
  return shape?.kind === 'json' && isPackageManifest(shape.document);
}

/** One file of a package as read: its text (a byte that is not UTF-8 read as U+FFFD) and the SHA-256 and size of its exact bytes. */
export type PackageFile = Pick<LoadedText, 'text' | 'sha256' | 'bytes'>;

/**
 * A certification package wherever it is: a directory (verifyPackageDirectory), or the URL a provider publishes it at
 * (`svc agency pull`). `base` names it in messages (`<base>/<file>`); `read` gives one file by name, throwing
 * packageFileMissing for one that is not there; `names`, where the place can be listed, gives every entry, and then a
 * file neither the manifest nor the signed statement names is a change.
 */
export interface PackageFiles {
  base: string;
  read(name: string): Promise<PackageFile>;
  names?(): Promise<string[]>;
}

/** IntegrityError `package-file-missing`: `<base>/<name>: missing; the package is incomplete`. */
export function packageFileMissing(base: string, name: string, cause?: unknown): IntegrityError {
  return new IntegrityError('package-file-missing', `${base}/${name}: missing; the package is incomplete`, cause === undefined ? undefined : { cause });
}

/**
 * Verifies a certification package (DESIGN §12.6) in directory `dir`: verifyPackage over its files as REPORT_READER
 * reads them, every entry of the directory but the writer's own (a dot first) a file of the package.
 */
export async function verifyPackageDirectory(reader: ReportReader, hashing: Hashing, signer: Signer, dir: string, keyid?: string): Promise<VerifiedPackage> {
  const base = dir.replace(/\/+$/, '');
  const files: PackageFiles = {
    base,
    read: (name) =>
      reader.readText(dir, name, { anyBytes: true }).catch((error: unknown) => {
        throw error instanceof AppError && error.kind === 'not-found' ? packageFileMissing(base, name, error) : error;
      }),
    names: () => reader.names(dir),
  };
  return verifyPackage(files, hashing, signer, keyid);
}

/**
 * Verifies a certification package (DESIGN §12.6): the envelope's signature and key id, then every file the signed
 * statement and the manifest name against their SHA-256, and the aggregate hash. Throws IntegrityError (exit 4)
 * naming the first mismatch: a changed, missing or unsigned file, a changed manifest, statement or signature. Files
 * are read one at a time, and only their digests kept.
 */
export async function verifyPackage(files: PackageFiles, hashing: Hashing, signer: Signer, keyid?: string): Promise<VerifiedPackage> {
  const { base } = files;
  const changed = (problem: string): never => {
    throw new IntegrityError('package-mismatch', `${base}/${problem}; the package was changed after it was signed`);
  };
  const read = (name: string) => files.read(name);
  const unreadable = (message: string, place?: string): never => {
    throw new IntegrityError('package-mismatch', `${place ? `${place}: ` : ''}${message}; the package was changed after it was signed`);
  };
  const envelopeText = await read(PACKAGE_ENVELOPE_FILE);
  const signed = verifySignedStatement(
    envelopeText.text,
    `${base}/${PACKAGE_ENVELOPE_FILE}`,
    { hashing, signer },
    (problem) => changed(`${PACKAGE_ENVELOPE_FILE}: ${problem}`),
    unreadable,
    keyid === undefined ? undefined : { keyid, target: base },
  );
  const { statement } = signed;

  const manifestText = await read(PACKAGE_MANIFEST_FILE);
  const manifestDocument = parsed(manifestText.text, `${base}/${PACKAGE_MANIFEST_FILE}`);
  if (!isPackageManifest(manifestDocument)) return changed(`${PACKAGE_MANIFEST_FILE}: not the package's manifest any more`);
  const present = new Map<string, WrittenFile>();
  for (const name of new Set([
    ...Object.keys(manifestDocument.files ?? {}),
    ...statement.subject.map((s) => s.name).filter((n) => n !== PACKAGE_MANIFEST_FILE),
  ])) {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.'))
      changed(`${PACKAGE_MANIFEST_FILE}: lists "${name}", which is no file of the package`);
    const file = await read(name);
    present.set(name, { name, sha256: file.sha256, bytes: file.bytes });
  }
  // What the directory holds besides: the writer's own entries start with a dot (its staging and generations).
  for (const name of files.names === undefined ? [] : await files.names()) {
    if (!name.startsWith('.') && name !== PACKAGE_MANIFEST_FILE && name !== PACKAGE_ENVELOPE_FILE && !present.has(name))
      changed(`${name}: not part of the package (neither ${PACKAGE_MANIFEST_FILE} nor the signed statement names it)`);
  }
  const manifestSubject = statement.subject.find((s) => s.name === PACKAGE_MANIFEST_FILE);
  if (manifestSubject?.digest.sha256 !== manifestText.sha256)
    changed(
      `${PACKAGE_MANIFEST_FILE}: sha256 is ${formatDigest(manifestText.sha256)}, the signed statement says ${manifestSubject === undefined ? 'nothing of it' : formatDigest(manifestSubject.digest.sha256)}`,
    );
  checkPackage(base, manifestDocument, manifestText.sha256, present, statement, hashing);
  return {
    files: present.size + 2,
    aggregateHash: manifestDocument.aggregate_hash,
    algorithm: signed.algorithm,
    keyid: signed.keyid,
    package: manifestDocument.package,
  };
}
