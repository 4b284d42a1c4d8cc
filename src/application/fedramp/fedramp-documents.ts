import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { jsonChunks } from '../../domain/encoding/json-chunks';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import type { FedrampProfileSettings } from '../../ports/fedramp-profile';
import type { ArtifactTransaction, ArtifactWriter } from '../../ports/artifact-writer';
import { FIRST_SHAPES, type Cr26Shapes } from '../../domain/fedramp/schema-shapes';
import { SCHEMA_VALIDATOR, type FedrampSchemaSet, type SchemaValidator } from '../../ports/schema-validator';
import { AppError, UnavailableError } from '../../domain/errors';
import type { FedrampType } from '../../domain/fedramp/profile';
import type { Cr26DocumentType } from '../../domain/fedramp/cr26-documents';
import type { JudgingSchema, PackageSchemas } from '../../domain/fedramp/certification-package';
import { formatDigest } from '../../domain/evidence/content-digest';
import { isError } from '../../domain/oscal/oscal-problem';
import { splitPath } from '../shared/paths';
import { writeAll } from '../shared/write-all';

/** The profile with `--type` and `--class` over the configured values. */
export function profileWith(settings: FedrampProfileSettings, flags: { type?: FedrampType; class?: Cr26Class }): FedrampProfileSettings {
  return { ...settings, profile: { ...settings.profile, ...(flags.type ? { type: flags.type } : {}), ...(flags.class ? { class: flags.class } : {}) } };
}

/** The Markdown twin's name beside a JSON document: `sdr.json` → `sdr.md` (any other name gains `.md`). */
export function twinName(jsonName: string): string {
  return jsonName.toLowerCase().endsWith('.json') ? `${jsonName.slice(0, -5)}.md` : `${jsonName}.md`;
}

/** A document written as its JSON (RFC 8785 canonical) and its Markdown twin. */
export interface WrittenTwin {
  json: { path: string } & WrittenFile;
  markdown: { path: string } & WrittenFile;
}

/** Writes a document and its twin into an open transaction, as `name` and twinName(name). */
export async function addTwin(
  tx: ArtifactTransaction,
  name: string,
  document: unknown,
  markdown: string,
): Promise<{ json: WrittenFile; markdown: WrittenFile }> {
  const json = await writeAll(tx.open(name), (sink) => {
    for (const chunk of jsonChunks(document, 'canonical')) sink.write(chunk);
  });
  const md = await writeAll(tx.open(twinName(name)), (sink) => sink.write(markdown));
  return { json, markdown: md };
}

/** Writes a document and its Markdown twin to `out` and beside it: both appear together, or neither. */
export async function writeTwin(writer: ArtifactWriter, out: string, document: unknown, markdown: string): Promise<WrittenTwin> {
  return (await writeRecordedTwin(writer, out, document, markdown)).written;
}

/** How the document is recorded (appended to the run store's journal), and how a message names that record. */
export interface TwinRecording<R> {
  /** Appends the journal entry; its result (the entry's seq) comes back as `recorded`. */
  record: () => Promise<R>;
  /** `journal entry 7 of /home/me/.svc/store`: where the record is, for the message when the files cannot follow it. */
  names: (recorded: R) => string;
  /** How to write the files without recording the document a second time, for the same message. */
  again: string;
}

/**
 * Writes a document and its Markdown twin to `out` and beside it, and records it, as one act (docs/decisions.md, "An
 * ongoing record and its files"): both files are written to temporaries in the target's directory and closed (fsynced),
 * then the record is appended, then the temporaries are renamed into place. A recording that fails removes the
 * temporaries: nothing is written and nothing recorded. The likely failures (an output directory that cannot be
 * written, a run store that cannot be, or is locked) come before the rename; a rename that still fails after the
 * record is an error naming the record, the cause and how to write the files (`recorded-not-written`, the cause's
 * kind and exit code). Without `recording` (a draft) the files are written and nothing is recorded.
 */
export async function writeRecordedTwin<R>(
  writer: ArtifactWriter,
  out: string,
  document: unknown,
  markdown: string,
  recording?: TwinRecording<R>,
): Promise<{ written: WrittenTwin; recorded?: R }> {
  const { dir, base } = splitPath(out);
  const tx = await writer.begin(dir);
  let files: Awaited<ReturnType<typeof addTwin>>;
  let recorded: R | undefined;
  try {
    files = await addTwin(tx, base, document, markdown);
    if (recording !== undefined) recorded = await recording.record();
  } catch (error) {
    await tx.abort();
    throw error;
  }
  try {
    await tx.commit();
  } catch (error) {
    await tx.abort().catch(() => undefined);
    if (recording === undefined) throw error;
    throw recordedNotWritten(out, recording.names(recorded as R), recording.again, error);
  }
  const join = (name: string) => (dir === '.' ? name : `${dir}/${name}`);
  return {
    written: { json: { path: out, ...files.json }, markdown: { path: join(twinName(base)), ...files.markdown } },
    ...(recording === undefined ? {} : { recorded }),
  };
}

/** The files could not be put in place after the record was appended: the record stays (the journal only grows), so say which. */
function recordedNotWritten(out: string, record: string, again: string, cause: unknown): AppError {
  const why = cause instanceof Error ? cause.message : String(cause);
  const message = `${out}: recorded as ${record}, but its files could not be put in place (${why}); neither it nor its twin was written. Fix that, then ${again}`;
  // The cause's kind decides the exit code (a permission or a lock: 5); an error svc did not expect is an environment one here.
  if (cause instanceof AppError)
    return new (cause.constructor as new (code: string, message: string, options?: { cause?: unknown }) => AppError)('recorded-not-written', message, {
      cause,
    });
  return new UnavailableError('recorded-not-written', message, { cause });
}

/**
 * FedRAMP's schemas: those passed with `dir`, else those configured, else the newest set svc carries. When none can be
 * found without `dir` (a configured directory that holds none, or svc installed without its own), why not: a document
 * is then written unvalidated, with that note. Schemas passed with `dir` that cannot be used are the caller's error.
 */
export async function locateFedrampSchemas(validator: SchemaValidator, dir: string | undefined): Promise<FedrampSchemaSet | { note: string }> {
  try {
    return await validator.locateFedramp(dir);
  } catch (error) {
    if (dir === undefined && error instanceof AppError && error.code === 'fedramp-schemas-missing') return { note: error.message };
    throw error;
  }
}

/**
 * The document shapes of the schema set in use (domain/fedramp/schema-shapes.ts); without one (none configured and
 * svc's own missing), what FedRAMP's first schemas declare.
 */
export function shapesOf(located: FedrampSchemaSet | { note: string }): Cr26Shapes {
  return 'note' in located ? FIRST_SHAPES : located.shapes;
}

/** The shapes of the schema set svc judges by (`dir`, else the configured or carried one): for documents written without validating. */
@injectable()
export class FedrampShapes {
  constructor(@inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator) {}

  async of(dir?: string): Promise<Cr26Shapes> {
    return shapesOf(await locateFedrampSchemas(this.schemas, dir));
  }
}

/** A document svc built that FedRAMP's schema rejects is svc's bug (an internal error, exit 70): the caller writes nothing. */
export async function validateBuiltDocument(
  validator: SchemaValidator,
  set: FedrampSchemaSet,
  type: Cr26DocumentType,
  name: string,
  document: unknown,
): Promise<void> {
  const problems = (await validator.validateFedramp(set, type, document)).filter(isError);
  if (problems.length > 0) {
    throw new Error(`${name}: ${problems[0].path}: ${problems[0].message}: svc built a document FedRAMP's schema rejects, and wrote nothing`);
  }
}

/** The schema that judged a document, as a command's `--json` says it (snake_case keys, docs/cli.md). */
export interface JudgedBy {
  type: Cr26DocumentType;
  file: string;
  schema_version?: string;
  /** `sha256:<hex>` of the schema file's bytes. */
  sha256: string;
}

/** `{judged_by}`: the schema in `set` that judged a document of `type` (judgingSchema), for a result's `--json`; {} when none. */
export function judgedBy(set: FedrampSchemaSet, type: Cr26DocumentType): { judged_by?: JudgedBy } {
  const schema = judgingSchema(set, type);
  if (schema === undefined) return {};
  return {
    judged_by: { type, file: schema.file, ...(schema.$schemaVersion === undefined ? {} : { schema_version: schema.$schemaVersion }), sha256: schema.sha256 },
  };
}

/**
 * FedRAMP's schema in `set` for documents of `type` (or its common definitions), as a document records it was judged
 * by: the file's name, its `$schemaVersion` and `sha256:<hex>` of its bytes.
 */
export function judgingSchema(set: FedrampSchemaSet, type: Cr26DocumentType | 'definitions'): JudgingSchema | undefined {
  const found = set.schemas.find((s) => s.type === type);
  if (found === undefined) return undefined;
  return {
    type: found.type,
    file: splitPath(found.file).base,
    ...(found.schemaVersion === undefined ? {} : { $schemaVersion: found.schemaVersion }),
    sha256: formatDigest(found.sha256),
  };
}

/** A schema in words: `fedramp-…-schema-2026-06-24.json, $schemaVersion 1.1.1, sha256:6a6d…` (the name alone says nothing). */
export function judgingSchemaText(schema: JudgingSchema): string {
  return [schema.file, ...(schema.$schemaVersion === undefined ? [] : [`$schemaVersion ${schema.$schemaVersion}`]), schema.sha256].join(', ');
}

/** What a package's manifest records of the schemas its documents (those of a CR26 type) were validated against. */
export function packageSchemas(set: FedrampSchemaSet, documents: readonly { name: string; type?: Cr26DocumentType }[]): PackageSchemas {
  const definitions = judgingSchema(set, 'definitions');
  const judged = documents.flatMap((d) => {
    const schema = d.type === undefined ? undefined : judgingSchema(set, d.type);
    return schema === undefined ? [] : [[d.name, schema] as const];
  });
  return {
    ...(set.carried === undefined ? {} : { carried: set.carried }),
    ...(definitions === undefined ? {} : { definitions }),
    documents: Object.fromEntries(judged),
  };
}
