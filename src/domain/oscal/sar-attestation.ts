import { lazyArray } from '../encoding/json-chunks';
import { IntegrityError } from '../errors';
import { formatDigest } from '../evidence/content-digest';
import { describe, isPlainObject } from '../encoding/json-values';
import { inTotoStatement, type InTotoStatement } from '../signing/in-toto';
import type { Json, OscalRun } from './oscal-run';

/** The in-toto predicate type of a signed svc SAR. */
export const SAR_PREDICATE_TYPE = 'urn:compliance-evidence-service:predicate:oscal-assessment-results:v1';

/** What the signature vouches for besides the SAR's own digest (DESIGN §7). */
export interface SarPredicate {
  document: { uuid: string; 'oscal-version': string; 'last-modified': string };
  tool: { name: string; version: string };
  input: { name: string; sha256: string };
  merkle_root: string;
  /** Every evidence artifact the SAR cites: the entries (by `<file>#<ksi_id>`, their content hash) and the files. */
  evidence: Iterable<{ name: string; sha256: string }>;
}

/**
 * The in-toto Statement v1 of a SAR: subject = the SAR file by its SHA-256, predicate = the run it reports. It reads
 * the SAR's uuid and metadata only, never its lists (LazyArrays, buildSar), and the evidence from the run itself.
 */
export function sarStatement(run: OscalRun, sar: Json, subject: { name: string; sha256Hex: string }): InTotoStatement<SarPredicate> {
  const body = sar['assessment-results'] as { uuid: string; metadata: Record<string, string> };
  return inTotoStatement(subject, SAR_PREDICATE_TYPE, {
    document: { uuid: body.uuid, 'oscal-version': body.metadata['oscal-version'], 'last-modified': body.metadata['last-modified'] },
    tool: run.tool,
    input: { name: run.context.input.name, sha256: formatDigest(run.context.input.sha256) },
    merkle_root: formatDigest(run.merkleRoot),
    // One per evidence entry: read as it is written (a LazyArray), never a list the size of the run.
    evidence: lazyArray(function* () {
      for (const { item, hash } of run.results) yield { name: `${run.entriesFile}#${item.result.ksi_id}`, sha256: formatDigest(hash) };
      for (const f of run.files) yield { name: f.name, sha256: formatDigest(f.sha256) };
    }),
  });
}

/**
 * Holds a signed statement against the SAR it names: the predicate type, the digest of the SAR's canonical form,
 * and the document's uuid, oscal-version and last-modified. Throws IntegrityError at the first difference.
 */
export function checkSarStatement(statement: InTotoStatement, sar: unknown, canonicalSha256: string, file: string): void {
  const changed = (problem: string): never => {
    throw new IntegrityError('sar-mismatch', `${file}: ${problem}; the SAR was changed after it was signed`);
  };
  if (statement.predicateType !== SAR_PREDICATE_TYPE) changed(`the signed statement's predicateType is ${describe(statement.predicateType)}, not a svc SAR's`);
  const signed = statement.subject[0].digest.sha256;
  if (signed !== canonicalSha256) changed(`its canonical form has sha256 ${formatDigest(canonicalSha256)}, the signature covers ${formatDigest(signed)}`);
  const body = isPlainObject(sar) && isPlainObject(sar['assessment-results']) ? sar['assessment-results'] : undefined;
  const metadata = body && isPlainObject(body.metadata) ? body.metadata : {};
  const document = isPlainObject(statement.predicate.document) ? statement.predicate.document : {};
  for (const [field, actual] of [
    ['uuid', body?.uuid],
    ['oscal-version', metadata['oscal-version']],
    ['last-modified', metadata['last-modified']],
  ] as const) {
    if (document[field] !== actual) changed(`${field} is ${describe(actual)}, the signature covers ${describe(document[field])}`);
  }
}
