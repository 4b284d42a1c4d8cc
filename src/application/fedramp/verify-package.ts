import type { WrittenFile } from '../../domain/artifacts/manifest';
import { fromBase64 } from '../../domain/encoding/base64';
import { AppError, IntegrityError } from '../../domain/errors';
import { formatDigest } from '../../domain/evidence/content-digest';
import { checkPackage, isPackageManifest, PACKAGE_ENVELOPE_FILE, PACKAGE_MANIFEST_FILE, type PackageManifest } from '../../domain/fedramp/certification-package';
import { envelopePayload, IN_TOTO_PAYLOAD_TYPE, pae, readDsseEnvelope } from '../../domain/signing/dsse';
import { readInTotoStatement } from '../../domain/signing/in-toto';
import { jwkThumbprint, type SignatureAlgorithm } from '../../domain/signing/jwk';
import { textShape } from '../../domain/artifacts/svc-artifact';
import type { Hashing } from '../../ports/hashing';
import type { ReportReader } from '../../ports/report-reader';
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
  const manifest = await reader.readText(dir, PACKAGE_MANIFEST_FILE).catch(() => undefined);
  const shape = manifest === undefined ? undefined : textShape(manifest.text);
  return shape?.kind === 'json' && isPackageManifest(shape.document);
}

/**
 * Verifies a certification package (DESIGN §12.6): the envelope's signature and key id, then every file the signed
 * statement and the manifest name against their SHA-256, and the aggregate hash. Throws IntegrityError (exit 4)
 * naming the first mismatch: a changed, missing or unsigned file, a changed manifest, statement or signature.
 */
export async function verifyPackageDirectory(reader: ReportReader, hashing: Hashing, signer: Signer, dir: string, keyid?: string): Promise<VerifiedPackage> {
  const base = dir.replace(/\/+$/, '');
  const changed = (problem: string): never => {
    throw new IntegrityError('package-mismatch', `${base}/${problem}; the package was changed after it was signed`);
  };
  const read = (name: string) =>
    reader.readText(dir, name).catch((error: unknown) => {
      throw error instanceof AppError && error.kind === 'not-found' ? new IntegrityError('package-file-missing', `${base}/${name}: missing; the package is incomplete`, { cause: error }) : error;
    });
  const envelopeText = await read(PACKAGE_ENVELOPE_FILE);
  const envelopeFile = `${base}/${PACKAGE_ENVELOPE_FILE}`;
  const envelope = integrity(() => readDsseEnvelope(parsed(envelopeText.text, envelopeFile), envelopeFile));
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) changed(`${PACKAGE_ENVELOPE_FILE}: payloadType is "${envelope.payloadType}", not ${IN_TOTO_PAYLOAD_TYPE}`);
  const [signature] = envelope.signatures;
  const jwk = signature.jwk ?? changed(`${PACKAGE_ENVELOPE_FILE}: signatures[0] carries no jwk to verify it with`);
  const thumbprint = jwkThumbprint(jwk, (text) => hashing.sha256(text));
  if (signature.keyid !== thumbprint) changed(`${PACKAGE_ENVELOPE_FILE}: keyid ${signature.keyid} is not the thumbprint of the key it carries (${thumbprint})`);
  const payload = integrity(() => envelopePayload(envelope));
  if (!integrity(() => signer.verify(jwk, pae(envelope.payloadType, payload), fromBase64(signature.sig)))) changed(`${PACKAGE_ENVELOPE_FILE}: the ${jwk.alg} signature does not verify with key ${thumbprint}`);
  if (keyid !== undefined && keyid !== thumbprint) throw new IntegrityError('signature-key-mismatch', `${base}: signed by key ${thumbprint}, not by --keyid ${keyid}`);
  const statement = integrity(() => readInTotoStatement(parsed(new TextDecoder().decode(payload), `${envelopeFile} payload`), `${envelopeFile} payload`));

  const manifestText = await read(PACKAGE_MANIFEST_FILE);
  const manifestDocument = parsed(manifestText.text, `${base}/${PACKAGE_MANIFEST_FILE}`);
  if (!isPackageManifest(manifestDocument)) return changed(`${PACKAGE_MANIFEST_FILE}: not the package's manifest any more`);
  const present = new Map<string, WrittenFile>();
  for (const name of new Set([...Object.keys(manifestDocument.files ?? {}), ...statement.subject.map((s) => s.name).filter((n) => n !== PACKAGE_MANIFEST_FILE)])) {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.')) changed(`${PACKAGE_MANIFEST_FILE}: lists "${name}", which is no file of the package`);
    const file = await read(name);
    present.set(name, { name, sha256: file.sha256, bytes: file.bytes });
  }
  // What the directory holds besides: the writer's own entries start with a dot (its staging and generations).
  for (const name of await reader.names(dir)) {
    if (!name.startsWith('.') && name !== PACKAGE_MANIFEST_FILE && name !== PACKAGE_ENVELOPE_FILE && !present.has(name)) changed(`${name}: not part of the package (neither ${PACKAGE_MANIFEST_FILE} nor the signed statement names it)`);
  }
  const manifestSubject = statement.subject.find((s) => s.name === PACKAGE_MANIFEST_FILE);
  if (manifestSubject?.digest.sha256 !== manifestText.sha256) changed(`${PACKAGE_MANIFEST_FILE}: sha256 is ${formatDigest(manifestText.sha256)}, the signed statement says ${manifestSubject === undefined ? 'nothing of it' : formatDigest(manifestSubject.digest.sha256)}`);
  checkPackage(base, manifestDocument, manifestText.sha256, present, statement, hashing);
  return { files: present.size + 2, aggregateHash: manifestDocument.aggregate_hash, algorithm: jwk.alg, keyid: thumbprint, package: manifestDocument.package };
}

/** Reading what svc signed: anything that no longer reads as it wrote it was changed. */
function integrity<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof AppError && error.kind === 'invalid-input') throw new IntegrityError('package-mismatch', `${error.message.replace(/; pass .*$/, '')}; the package was changed after it was signed`, { cause: error });
    throw error;
  }
}
