import { HtmlRenderer, Parser } from 'commonmark';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CR26_DOCUMENTS, type Cr26DocumentType } from '../../src/domain/fedramp/cr26-documents';
import { REFERENCE } from './run-svc';

/** The newest generation of FedRAMP's schemas held: the one FedRAMP's viewer reads the Markdown declarations from. */
const SCHEMAS = join(REFERENCE, 'fedramp', 'cr26-schemas-2026-10-08');

type Schema = Record<string, unknown>;
let byId: Map<string, Schema> | undefined;

function schemas(): Map<string, Schema> {
  if (byId === undefined) {
    byId = new Map();
    for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.json'))) {
      const schema = JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as Schema;
      byId.set(schema.$id as string, schema);
    }
  }
  return byId;
}

/** A `$ref` (`#/$defs/x`, or `<$id>#/$defs/x` of another file) resolved from the schema file `base`. */
function resolve(ref: string, base: Schema): { node: Schema; base: Schema } {
  const [file, pointer = ''] = ref.split('#');
  const root = file === '' ? base : schemas().get(file);
  if (root === undefined) throw new Error(`unknown schema ${file}`);
  let node: unknown = root;
  for (const part of pointer.split('/').filter(Boolean)) node = (node as Schema)[part];
  if (node === undefined) throw new Error(`unresolved ${ref}`);
  return { node: node as Schema, base: root };
}

const MARKDOWN = /markdown/i;

/**
 * Every string of a CR26 document that FedRAMP's schema (the 2026-10-08 generation) declares as Markdown ("May use
 * Markdown for formatting" in the description of the field, of its array, or of the definition it refers to), with its
 * JSON path: what FedRAMP's viewer renders as Markdown.
 */
export function markdownFields(type: Cr26DocumentType, document: unknown): { path: string; text: string }[] {
  const root = schemas().get(`https://fedramp.gov/schemas/fedramp-${CR26_DOCUMENTS[type].stem}-schema-2026-06-24.json`);
  if (root === undefined) throw new Error(`no FedRAMP schema for ${type}`);
  const found = new Map<string, string>();
  const walk = (node: Schema, base: Schema, value: unknown, path: string, markdown: boolean): void => {
    let here = node;
    let from = base;
    let md = markdown || MARKDOWN.test(String(here.description ?? ''));
    while (typeof here.$ref === 'string') {
      ({ node: here, base: from } = resolve(here.$ref, from));
      md = md || MARKDOWN.test(String(here.description ?? ''));
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) for (const branch of (here[key] as Schema[] | undefined) ?? []) walk(branch, from, value, path, md);
    if (typeof value === 'string') {
      if (md) found.set(path, value);
    } else if (Array.isArray(value)) {
      const items = here.items as Schema | undefined;
      value.forEach((item, i) => (items === undefined ? undefined : walk(items, from, item, `${path}[${i}]`, md)));
    } else if (value !== null && typeof value === 'object') {
      const properties = (here.properties as Record<string, Schema> | undefined) ?? {};
      for (const [key, v] of Object.entries(value)) if (properties[key] !== undefined) walk(properties[key], from, v, `${path}.${key}`, false);
    }
  };
  walk(root, root, document, '$', false);
  return [...found].map(([path, text]) => ({ path, text }));
}

const WORD = /[\p{L}\p{N}_]+/gu;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/**
 * The words a reader sees of Markdown as FedRAMP's viewer shows it: rendered by CommonMark's reference renderer with
 * raw HTML dropped (`safe`: each piece of raw HTML becomes a comment), every tag and comment then removed, entities
 * read.
 */
export function renderedWords(markdown: string): string[] {
  const html = new HtmlRenderer({ safe: true }).render(new Parser().parse(markdown));
  const text = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(lt|gt|amp|quot);|&#(\d+);|&#x([0-9a-f]+);/gi, (_m, name: string | undefined, dec: string | undefined, hex: string | undefined) =>
      name !== undefined ? ENTITIES[name.toLowerCase()] : String.fromCodePoint(dec !== undefined ? Number(dec) : parseInt(hex!, 16)),
    );
  return text.match(WORD) ?? [];
}

/** The text a field holds as a reader of the JSON takes it (CommonMark's backslash escapes read as the character). */
export function plainText(markdown: string): string {
  return markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** The words of that text. */
export function sourceWords(markdown: string): string[] {
  return plainText(markdown).match(WORD) ?? [];
}
