import type { WrittenFile } from '../../domain/artifacts/manifest';
import { jsonChunks } from '../../domain/encoding/json-chunks';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import type { FedrampProfileSettings } from '../../ports/fedramp-profile';
import type { ArtifactTransaction, ArtifactWriter } from '../../ports/artifact-writer';
import type { FedrampSchemaSet, SchemaValidator } from '../../ports/schema-validator';
import { AppError } from '../../domain/errors';
import type { FedrampType } from '../../domain/fedramp/profile';
import type { Cr26DocumentType } from '../../domain/fedramp/cr26-documents';
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
export async function addTwin(tx: ArtifactTransaction, name: string, document: unknown, markdown: string): Promise<{ json: WrittenFile; markdown: WrittenFile }> {
  const json = await writeAll(tx.open(name), (sink) => {
    for (const chunk of jsonChunks(document, 'canonical')) sink.write(chunk);
  });
  const md = await writeAll(tx.open(twinName(name)), (sink) => sink.write(markdown));
  return { json, markdown: md };
}

/** Writes a document and its Markdown twin to `out` and beside it: both appear together, or neither. */
export async function writeTwin(writer: ArtifactWriter, out: string, document: unknown, markdown: string): Promise<WrittenTwin> {
  const { dir, base } = splitPath(out);
  const tx = await writer.begin(dir);
  try {
    const written = await addTwin(tx, base, document, markdown);
    await tx.commit();
    const join = (name: string) => (dir === '.' ? name : `${dir}/${name}`);
    return { json: { path: out, ...written.json }, markdown: { path: join(twinName(base)), ...written.markdown } };
  } catch (error) {
    await tx.abort();
    throw error;
  }
}

/**
 * FedRAMP's schemas when they can be found, else (none passed with `dir` and none configured) why not: a document is
 * then written unvalidated, with that note. Schemas passed with `dir` that cannot be used are the caller's error.
 */
export async function locateFedrampSchemas(validator: SchemaValidator, dir: string | undefined): Promise<FedrampSchemaSet | { note: string }> {
  try {
    return await validator.locateFedramp(dir);
  } catch (error) {
    if (dir === undefined && error instanceof AppError && error.code === 'fedramp-schemas-missing') return { note: error.message };
    throw error;
  }
}

/** A document svc built that FedRAMP's schema rejects is svc's bug (an internal error, exit 70): the caller writes nothing. */
export async function validateBuiltDocument(validator: SchemaValidator, set: FedrampSchemaSet, type: Cr26DocumentType, name: string, document: unknown): Promise<void> {
  const problems = (await validator.validateFedramp(set, type, document)).filter(isError);
  if (problems.length > 0) {
    throw new Error(`${name}: ${problems[0].path}: ${problems[0].message}: svc built a document FedRAMP's schema rejects, and wrote nothing`);
  }
}
