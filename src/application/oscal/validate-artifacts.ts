import { inject, injectable } from 'tsyringe';
import { verifyEvidenceEntries } from '../../domain/artifacts/bundle-verification';
import { EVIDENCE_BUNDLE_SCHEMA } from '../../domain/artifacts/evidence-bundle';
import { BUNDLE_FILES, MANIFEST_FILE } from '../../domain/artifacts/manifest';
import { isSvcManifest, notAnSvcArtifact, svcSchema, textShape, unparsedWhy } from '../../domain/artifacts/svc-artifact';
import { AppError, IntegrityError, InvalidInputError, NotFoundError } from '../../domain/errors';
import { formatDigest } from '../../domain/evidence/content-digest';
import { isPlainObject } from '../../domain/encoding/json-values';
import { readOscalDocument } from '../../domain/oscal/oscal-model';
import { checkSarStatement } from '../../domain/oscal/sar-attestation';
import type { SignatureAlgorithm } from '../../domain/signing/jwk';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCHEMA_VALIDATOR, type SchemaValidator } from '../../ports/schema-validator';
import { SIGNER, type Signer } from '../../ports/signer';
import { splitPath } from '../shared/paths';
import { ENVELOPE_SUFFIX } from './generate-sar';
import { validateOscalDocument, type OscalValidation } from './validate-oscal';
import { isPackageDirectory, verifyPackageDirectory } from '../fedramp/verify-package-directory';
import { parsed, verifyBundleDirectory } from './verify-bundle-directory';
import { verifySignedStatement } from '../shared/signed-statement';

export interface ValidateArtifactsInput {
  /** An auditor bundle directory, a certification package directory, an evidence-bundle.json, or a SAR signed by `svc ir generate-sar`. */
  target: string;
  /** Directory of NIST's OSCAL schemas, for the SAR's own validation. */
  schemas?: string;
  /** Accept only a signature by this key (RFC 7638 thumbprint). */
  keyid?: string;
}

export type ArtifactValidation =
  | { kind: 'bundle'; target: string; files: number; aggregateHash: string; entries: number; merkleRoot: string }
  | { kind: 'evidence-bundle'; target: string; entries: number; merkleRoot: string }
  | {
      kind: 'fedramp-package';
      target: string;
      files: number;
      aggregateHash: string;
      algorithm: SignatureAlgorithm;
      keyid: string;
      fedRampPackageId?: string;
      generatedAt: string;
    }
  | {
      kind: 'sar';
      target: string;
      envelope: string;
      sha256: string;
      /** Whether the file is byte for byte the canonical form that was signed (a reformatted copy still verifies). */
      canonical: boolean;
      algorithm: SignatureAlgorithm;
      keyid: string;
      oscal: OscalValidation | { skipped: string };
    };

/**
 * `svc ir validate`: recomputes every content hash, the Merkle root and the manifest of a bundle, or the digest,
 * signature and key id of a signed SAR and then validates it as OSCAL. A mismatch throws IntegrityError (exit 4)
 * naming the first one; OSCAL findings in a correctly signed SAR are returned as data. Only what is recognizably svc's can
 * mismatch: input svc never wrote is InvalidInputError `not-an-svc-artifact` (docs/artifacts.md, "What svc recognizes as its own").
 */
@injectable()
export class ValidateArtifacts {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(SIGNER) private readonly signer: Signer,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
  ) {}

  async execute(input: ValidateArtifactsInput): Promise<ArtifactValidation> {
    const { target } = input;
    const kind = await this.reader.kind(target);
    if (kind === 'missing') throw new NotFoundError('file-not-found', `${target}: no such bundle directory or file; check the path`);
    if (kind === 'directory' && (await isPackageDirectory(this.reader, target))) {
      const p = await verifyPackageDirectory(this.reader, this.hashing, this.signer, target, input.keyid);
      return {
        kind: 'fedramp-package',
        target,
        files: p.files,
        aggregateHash: p.aggregateHash,
        algorithm: p.algorithm,
        keyid: p.keyid,
        ...(p.package.fedRampPackageId === undefined ? {} : { fedRampPackageId: p.package.fedRampPackageId }),
        generatedAt: p.package.generatedAt,
      };
    }
    if (kind === 'directory') {
      const bundle = await verifyBundleDirectory(this.reader, this.hashing, target);
      return {
        kind: 'bundle',
        target,
        files: bundle.files.length,
        aggregateHash: formatDigest(bundle.aggregateHash),
        entries: bundle.entries.ids.length,
        merkleRoot: formatDigest(bundle.entries.merkleRoot),
      };
    }
    const file = await this.reader.readText(target, undefined, { anyBytes: true });
    if ((await this.reader.kind(target + ENVELOPE_SUFFIX)) !== 'missing') return this.sar(input, parsed(file.text, target), file.sha256);
    const shape = textShape(file.text);
    const document = shape.kind === 'json' ? shape.document : undefined;
    if (svcSchema(document) === EVIDENCE_BUNDLE_SCHEMA) {
      const entries = verifyEvidenceEntries(document, target, this.hashing);
      return { kind: 'evidence-bundle', target, entries: entries.ids.length, merkleRoot: formatDigest(entries.merkleRoot) };
    }
    const bundle = await this.bundleHolding(target);
    if (bundle !== undefined) {
      await verifyBundleDirectory(this.reader, this.hashing, bundle);
      throw new InvalidInputError(
        'not-validatable',
        `${target}: one file of the auditor bundle ${bundle}, which verifies; ir validate checks a bundle as a whole: pass ${bundle}`,
      );
    }
    if (shape.kind !== 'json') throw notAnSvcArtifact(target, unparsedWhy(shape), VALIDATE_HINT);
    if (isPlainObject(document) && 'assessment-results' in document) {
      throw new NotFoundError(
        'sar-unsigned',
        `${target}${ENVELOPE_SUFFIX}: not found; ir validate checks a bundle directory, an evidence-bundle.json, or a SAR signed by svc ir generate-sar (its envelope sits beside it)`,
      );
    }
    const schema = svcSchema(document);
    if (schema !== undefined)
      throw new InvalidInputError('not-validatable', `${target}: an svc document (${schema}) that ir validate does not check; ${VALIDATE_HINT}`);
    throw notAnSvcArtifact(target, `JSON without svc's "schema" and no signature envelope (${target}${ENVELOPE_SUFFIX}) beside it`, VALIDATE_HINT);
  }

  /**
   * The auditor bundle a file belongs to: it has a bundle file's name and svc's manifest.json sits beside it. Such a file
   * is checked with its bundle, so one changed there is a mismatch (exit 4), not input svc never wrote.
   */
  private async bundleHolding(target: string): Promise<string | undefined> {
    const { dir, base } = splitPath(target);
    if (![...BUNDLE_FILES, MANIFEST_FILE].includes(base)) return undefined;
    const manifest = await this.reader.readText(dir, MANIFEST_FILE, { anyBytes: true }).catch((error: unknown) => {
      if (error instanceof AppError && (error.kind === 'not-found' || error.kind === 'invalid-input')) return undefined;
      throw error;
    });
    const shape = manifest === undefined ? undefined : textShape(manifest.text);
    return shape?.kind === 'json' && isSvcManifest(shape.document) ? dir : undefined;
  }

  private async sar(input: ValidateArtifactsInput, sar: unknown, bytesSha: string): Promise<ArtifactValidation> {
    const { target } = input;
    const envelopeFile = target + ENVELOPE_SUFFIX;
    const envelopeText = await this.reader.readText(envelopeFile, undefined, { anyBytes: true });
    const changed = (problem: string): never => {
      throw new IntegrityError('signature-mismatch', `${envelopeFile}: ${problem}; the SAR or its signature was changed after signing`);
    };
    const unreadable = (message: string, place?: string): never => {
      throw new IntegrityError('signature-mismatch', `${place ? `${place}: ` : ''}${message}; it was changed after signing`);
    };
    const { statement, algorithm, keyid } = verifySignedStatement(
      envelopeText.text,
      envelopeFile,
      { hashing: this.hashing, signer: this.signer },
      changed,
      unreadable,
      input.keyid === undefined ? undefined : { keyid: input.keyid, target },
    );
    const canonical = this.hashing.canonicalize(sar);
    const sha256 = this.hashing.sha256(canonical);
    checkSarStatement(statement, sar, sha256, target);
    const oscal = await this.validateOscal(input, sar);
    return { kind: 'sar', target, envelope: envelopeFile, sha256: formatDigest(sha256), canonical: bytesSha === sha256, algorithm, keyid, oscal };
  }

  /** The signed SAR as OSCAL; without schemas the integrity checks still stand and the schema layer says why it was skipped. */
  private async validateOscal(input: ValidateArtifactsInput, sar: unknown): Promise<OscalValidation | { skipped: string }> {
    const oscal = readOscalDocument(sar, input.target);
    try {
      await this.schemas.locate(input.schemas);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'config') return { skipped: error.message };
      throw error;
    }
    return validateOscalDocument(this.schemas, oscal, sar, { file: input.target, schemas: input.schemas });
  }
}

const VALIDATE_HINT = 'ir validate checks an auditor bundle directory, an evidence-bundle.json, or a SAR signed by svc ir generate-sar';
