import { DAY_MS, isoSeconds } from '../encoding/iso-time';
import { aggregateHash, type WrittenFile } from '../artifacts/manifest';
import type { ContentDigest } from '../evidence/content-digest';
import { formatDigest } from '../evidence/content-digest';
import { IntegrityError } from '../errors';
import { describe, isPlainObject } from '../encoding/json-values';
import { IN_TOTO_STATEMENT_TYPE, type InTotoStatement } from '../signing/in-toto';
import type { Cr26Class } from './cr26-rules';
import type { Cr26DocumentType } from './cr26-documents';
import type { FedrampType } from './profile';
import type { Cr26RunFacts } from './run-facts';
import { plural } from '../encoding/plural';

export const PACKAGE_MANIFEST_SCHEMA = 'svc.fedramp-package/v1';
export const PACKAGE_MANIFEST_FILE = 'manifest.json';
/** The DSSE envelope over the in-toto Statement that names every file of the package. */
export const PACKAGE_ENVELOPE_FILE = 'package.dsse.json';
export const PACKAGE_PREDICATE_TYPE = 'https://github.com/svc-compliance/svc/fedramp-package/v1';

/** What the manifest and the statement say of the package. */
export interface PackageFacts {
  fedRampPackageId?: string;
  packageUri: string;
  rulesVersion: string;
  type: FedrampType;
  class: Cr26Class;
  generatedAt: string;
  tool: { name: string; version: string };
  input: { name: string; sha256: string };
  initial: boolean;
  /** The OCR in the package is a sample (no OCR recorded for the period). */
  sampleOcr: boolean;
}

/**
 * FedRAMP's schema a document was judged by: identified by its `$schemaVersion` and the SHA-256 of its bytes
 * (`sha256:<hex>`), never by the date in its file name, which FedRAMP keeps when it changes the schema.
 */
export interface JudgingSchema {
  type: Cr26DocumentType | 'definitions';
  /** The schema file's name. */
  file: string;
  $schemaVersion?: string;
  sha256: string;
}

/** The schemas a package's documents were judged by (manifest `schemas`, each document's `schema`). */
export interface PackageSchemas {
  /** The generation of FedRAMP's schemas svc carries (`2026-10-08`), when those were used. */
  carried?: string;
  /** The common definitions every document's schema `$ref`s. */
  definitions?: JudgingSchema;
  /** By file name: the schema each JSON document of a CR26 type was judged by. */
  documents: Readonly<Record<string, JudgingSchema>>;
}

export interface PackageManifest {
  schema: typeof PACKAGE_MANIFEST_SCHEMA;
  package: PackageFacts;
  /** Present when the documents were validated: the set of FedRAMP's schemas, and its common definitions. */
  schemas?: { carried?: string; definitions?: JudgingSchema };
  /** Each file's digest and size; a CR26 document's also the schema it was judged by. */
  files: Record<string, { sha256: string; bytes: number; schema?: JudgingSchema }>;
  aggregate_hash: string;
}

/**
 * The manifest of a certification package: every other file's digest and size, and their aggregate hash (as an auditor
 * bundle's); with `schemas`, what each CR26 document was validated against.
 */
export function packageManifest(
  facts: PackageFacts,
  files: readonly WrittenFile[],
  digest: Pick<ContentDigest, 'sha256'>,
  schemas?: PackageSchemas,
): PackageManifest {
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : 1));
  const judged = (name: string) => schemas?.documents[name];
  return {
    schema: PACKAGE_MANIFEST_SCHEMA,
    package: { ...facts, input: { name: facts.input.name, sha256: formatDigest(facts.input.sha256) } },
    ...(schemas === undefined
      ? {}
      : {
          schemas: {
            ...(schemas.carried === undefined ? {} : { carried: schemas.carried }),
            ...(schemas.definitions === undefined ? {} : { definitions: schemas.definitions }),
          },
        }),
    files: Object.fromEntries(
      sorted.map((f) => [f.name, { sha256: formatDigest(f.sha256), bytes: f.bytes, ...(judged(f.name) === undefined ? {} : { schema: judged(f.name) }) }]),
    ),
    aggregate_hash: formatDigest(aggregateHash(files, digest)),
  };
}

/** The in-toto Statement the package's envelope signs: every file, the manifest included, as a subject. */
export function packageStatement(manifest: PackageManifest, manifestSha256: string): InTotoStatement<PackageManifest['package']> {
  const subject = [
    ...Object.entries(manifest.files).map(([name, f]) => ({ name, digest: { sha256: f.sha256.replace(/^sha256:/, '') } })),
    { name: PACKAGE_MANIFEST_FILE, digest: { sha256: manifestSha256 } },
  ].sort((a, b) => (a.name < b.name ? -1 : 1));
  return { _type: IN_TOTO_STATEMENT_TYPE, subject, predicateType: PACKAGE_PREDICATE_TYPE, predicate: manifest.package };
}

/** Whether a parsed manifest.json is a certification package's. */
export function isPackageManifest(document: unknown): document is PackageManifest {
  return isPlainObject(document) && document.schema === PACKAGE_MANIFEST_SCHEMA;
}

/**
 * Checks a package against its manifest and statement (DESIGN §12.6, `ir validate <package-dir>`): the files present
 * (their hex SHA-256 by name, the manifest and envelope excluded) must be exactly those the manifest lists, with the
 * digests it gives; its aggregate hash must hold; the statement's subjects must be those files and the manifest.
 * Throws IntegrityError (exit 4) naming the first mismatch.
 */
export function checkPackage(
  dir: string,
  manifest: PackageManifest,
  manifestSha256: string,
  present: ReadonlyMap<string, WrittenFile>,
  statement: InTotoStatement,
  digest: Pick<ContentDigest, 'sha256'>,
): void {
  const changed = (problem: string): never => {
    throw new IntegrityError('package-mismatch', `${dir}/${problem}; the package was changed after it was signed`);
  };
  if (!isPlainObject(manifest.files)) changed(`${PACKAGE_MANIFEST_FILE}: files is ${describe(manifest.files)}, not a map of file digests`);
  for (const [name, f] of Object.entries(manifest.files)) {
    const file = present.get(name);
    if (file === undefined) changed(`${name}: listed in ${PACKAGE_MANIFEST_FILE} but missing`);
    else if (formatDigest(file.sha256) !== f.sha256) changed(`${name}: sha256 is ${formatDigest(file.sha256)}, ${PACKAGE_MANIFEST_FILE} says ${f.sha256}`);
  }
  for (const name of present.keys()) if (!(name in manifest.files)) changed(`${name}: not listed in ${PACKAGE_MANIFEST_FILE}`);
  const aggregate = formatDigest(aggregateHash([...present.values()], digest));
  if (aggregate !== manifest.aggregate_hash) changed(`${PACKAGE_MANIFEST_FILE}: aggregate_hash is ${manifest.aggregate_hash}, the files give ${aggregate}`);
  if (statement.predicateType !== PACKAGE_PREDICATE_TYPE)
    changed(`${PACKAGE_ENVELOPE_FILE}: predicateType is ${statement.predicateType}, not ${PACKAGE_PREDICATE_TYPE}`);
  const expected = packageStatement(manifest, manifestSha256).subject.map((s) => `${s.name} ${s.digest.sha256}`);
  const signed = statement.subject.map((s) => `${s.name} ${s.digest.sha256}`).sort();
  const missing = expected.filter((s) => !signed.includes(s));
  const extra = signed.filter((s) => !expected.includes(s));
  if (missing.length > 0 || extra.length > 0)
    changed(
      `${PACKAGE_ENVELOPE_FILE}: the signed subjects differ from the files (${[...missing.map((s) => `unsigned ${s.split(' ')[0]}`), ...extra.map((s) => `signed ${s.split(' ')[0]} differs`)].join(', ')})`,
    );
}

/**
 * FRC-APP-FCP (DESIGN §12.6): what in an initial package does not come from verification within the previous `days`
 * days of `now`: the run itself, and each KSI whose contributing evidence is older (named with its oldest entry) or
 * undated. Empty when the package may be written.
 */
export function staleForInitialPackage(facts: Cr26RunFacts, asOf: string, now: Date, days: number): string[] {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const day = cutoff.toISOString().slice(0, 10);
  const stale: string[] = [];
  if (Date.parse(asOf) < cutoff.getTime()) stale.push(`the run is as of ${asOf}, before ${isoSeconds(cutoff)}`);
  for (const k of facts.tally.evaluation().ksis) {
    let oldest: { date?: string; text: string } | undefined;
    let count = 0;
    for (const index of k.tally.indices) {
      const e = facts.evidence(index);
      if (e.date !== undefined && e.date >= day) continue;
      count += 1;
      if (oldest === undefined || (oldest.date !== undefined && (e.date === undefined || e.date < oldest.date)))
        oldest = { date: e.date, text: `${e.tool} result for ${e.ksi_id}` };
    }
    if (oldest !== undefined)
      stale.push(
        `${k.id}: ${count} of ${plural(k.tally.indices.length, 'contributing result')} older than ${day}, the oldest ${oldest.date === undefined ? 'undated' : `observed ${oldest.date}`} (${oldest.text})`,
      );
  }
  return stale;
}

/**
 * FRC-APP-FCP for the vulnerability register (DESIGN §12.6): the run it was judged from must be as fresh as the
 * package's, and every group still open (not remediated, not a false positive) must have been evaluated within the
 * previous `days` days; the stale ones are counted in one line, naming the longest unevaluated.
 */
export function staleVulnerabilities(
  register: {
    now: string;
    run?: { seq: number; as_of: string };
    groups: readonly { group: { tracking_id: string; finding_id: string; evaluations: readonly { at: string }[] }; judgment: { state: string } }[];
  },
  days: number,
): string[] {
  if (register.run === undefined) return [];
  const cutoff = Date.parse(register.now) - days * DAY_MS;
  const cutoffText = isoSeconds(new Date(cutoff));
  const stale: string[] = [];
  if (Date.parse(register.run.as_of) < cutoff)
    stale.push(`the vulnerability register is of run ${register.run.seq}, as of ${register.run.as_of}, before ${cutoffText}`);
  let oldest: { at: string; id: string; finding: string } | undefined;
  let count = 0;
  let open = 0;
  for (const { group, judgment } of register.groups) {
    if (judgment.state === 'remediated' || judgment.state === 'false-positive') continue;
    open += 1;
    const last = group.evaluations.reduce<string | undefined>(
      (latest, e) => (latest === undefined || Date.parse(e.at) > Date.parse(latest) ? e.at : latest),
      undefined,
    );
    if (last !== undefined && Date.parse(last) >= cutoff) continue;
    count += 1;
    if (oldest === undefined || last === undefined || Date.parse(last) < Date.parse(oldest.at))
      oldest = { at: last ?? '', id: group.tracking_id, finding: group.finding_id };
  }
  if (oldest !== undefined)
    stale.push(
      `vulnerabilities: ${count} of ${open} open groups last evaluated before ${cutoffText}, the oldest ${oldest.id} (${oldest.finding}) ${oldest.at === '' ? 'never evaluated' : `on ${oldest.at}`}`,
    );
  return stale;
}
