import { isPlainObject } from '../ksi/ksi-result';

/** A label and its value under a page's title (FedRAMP ID, package URI, as of, the JSON's digest). */
export interface TrustPageFact {
  label: string;
  value: string;
  /** Set in monospace: hashes and ids. */
  code?: boolean;
}

export type TrustColumnKind = 'text' | 'num' | 'date';

/** One part of a page: a list of labelled values, a table, or a list of lines. */
export type TrustSection =
  | { kind: 'fields'; id: string; heading: string; fields: { label: string; value: string }[] }
  | { kind: 'table'; id: string; heading: string; columns: { label: string; kind: TrustColumnKind }[]; rows: (string | number)[][]; empty: string }
  | { kind: 'list'; id: string; heading: string; items: string[]; empty: string };

/**
 * The human-readable page of a trust-center document, made from the document itself (CDS-CSO-CBF: one model, two
 * formats, consistent by construction): every value of the JSON appears, labelled by its field name.
 */
export interface TrustPage {
  title: string;
  facts: TrustPageFact[];
  sections: TrustSection[];
  /** ISO-8601: what the document is as of (the store's last write), also the page's "generated" time. */
  generatedAt: string;
  tool: { name: string; version: string };
}

export interface TrustPageInput {
  title: string;
  facts: TrustPageFact[];
  /** The JSON document as served: an object, or (the SCNs) a list of objects. */
  document: unknown;
  /** What a list document's items are called: `Notification`. */
  item?: string;
  generatedAt: string;
  tool: { name: string; version: string };
}

/**
 * Lays a JSON document out as a page: its top-level values as labelled fields, each top-level object as a section of
 * labelled fields (deeper keys joined with ›), each list of objects as a table whose columns are the items' fields, each
 * top-level list of values as a list. A list document gives a section per item (and its tables).
 */
export function trustPage(input: TrustPageInput): TrustPage {
  const sections: TrustSection[] = [];
  const ids = new Map<string, number>();
  const id = (path: string[]): string => {
    const base = `s-${path.map((p) => kebab(p)).join('-') || 'summary'}`;
    const n = (ids.get(base) ?? 0) + 1;
    ids.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  };
  /** `value`'s fields under `heading`; at the document's top (`split`), each object field gets a section of its own. */
  const layOut = (value: Record<string, unknown>, heading: string, path: string[], split: boolean) => {
    const fields: { label: string; value: string }[] = [];
    const later: (() => void)[] = [];
    const prefix = split ? '' : `${heading} › `;
    const walk = (node: Record<string, unknown>, labels: string[], at: string[]) => {
      for (const [key, v] of Object.entries(node)) {
        const label = [...labels, fieldLabel(key)];
        if (isPlainObject(v) && split && labels.length === 0) later.push(() => layOut(v, fieldLabel(key), [...at, key], false));
        else if (isPlainObject(v)) walk(v, label, [...at, key]);
        else if (Array.isArray(v) && v.some((item) => isPlainObject(item))) later.push(() => sections.push(table(v, prefix + label.join(' › '), id([...at, key]))));
        else if (Array.isArray(v) && labels.length === 0 && split) later.push(() => sections.push({ kind: 'list', id: id([...at, key]), heading: label.join(' › '), items: v.map(text), empty: 'none listed' }));
        else fields.push({ label: label.join(' › '), value: Array.isArray(v) ? (v.length === 0 ? '(none)' : v.map(text).join('; ')) : text(v) });
      }
    };
    walk(value, [], path);
    if (fields.length > 0) sections.push({ kind: 'fields', id: id(path), heading, fields });
    for (const add of later) add();
  };

  if (Array.isArray(input.document)) {
    const item = input.item ?? 'Item';
    if (input.document.length === 0) sections.push({ kind: 'list', id: id([`${item}s`]), heading: `${item}s`, items: [], empty: `no ${item.toLowerCase()} is recorded` });
    input.document.forEach((entry, i) => (isPlainObject(entry) ? layOut(entry, `${item} ${i + 1}`, [`${item}-${i + 1}`], false) : sections.push({ kind: 'list', id: id([`${item}-${i + 1}`]), heading: `${item} ${i + 1}`, items: [text(entry)], empty: '' })));
  } else if (isPlainObject(input.document)) {
    layOut(input.document, 'Summary', [], true);
  }
  return { title: input.title, facts: input.facts, sections, generatedAt: input.generatedAt, tool: input.tool };
}

/** A list of objects as a table: one column per leaf field any item has, in first-seen order. */
function table(items: unknown[], heading: string, id: string): TrustSection {
  const rows = items.map((item) => (isPlainObject(item) ? leaves(item) : new Map([['Value', item]])));
  const columns: string[] = [];
  for (const row of rows) for (const key of row.keys()) if (!columns.includes(key)) columns.push(key);
  const cells = rows.map((row) => columns.map((c) => (row.has(c) ? cell(row.get(c)) : '')));
  return {
    kind: 'table',
    id,
    heading,
    columns: columns.map((label, i) => ({ label, kind: columnKind(cells.map((r) => r[i])) })),
    rows: cells,
    empty: 'none listed',
  };
}

/** An object's fields as label → value, nested objects flattened (`Detection › Detected at`). */
function leaves(node: Record<string, unknown>, labels: string[] = [], out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, v] of Object.entries(node)) {
    const label = [...labels, fieldLabel(key)];
    if (isPlainObject(v)) leaves(v, label, out);
    else out.set(label.join(' › '), v);
  }
  return out;
}

function cell(value: unknown): string | number {
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map((v) => (isPlainObject(v) ? Object.entries(v).map(([k, x]) => `${fieldLabel(k)}: ${text(x)}`).join(', ') : text(v))).join('; ');
  return text(value);
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

function columnKind(values: (string | number)[]): TrustColumnKind {
  const present = values.filter((v) => v !== '');
  if (present.length > 0 && present.every((v) => typeof v === 'number')) return 'num';
  if (present.length > 0 && present.every((v) => typeof v === 'string' && ISO_TIME.test(v))) return 'date';
  return 'text';
}

/** Words that read as acronyms in a label. */
const ACRONYMS = new Set(['uri', 'url', 'id', 'uei', 'irv', 'lev', 'ocr', 'scn', 'cve', 'ksi', 'avi', 'vdr', 'cpo', 'fedramp']);

/** `certificationPackageOverviewUri` → `Certification package overview URI`; `fedRampPackageId` → `FedRAMP package ID`. */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/[Ff]ed[Rr]amp/g, 'Fedramp ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .split(/\s+/)
    .map((w) => (w.toLowerCase() === 'fedramp' ? 'FedRAMP' : ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()));
  const first = words[0] ?? key;
  words[0] = first === 'FedRAMP' || ACRONYMS.has(first.toLowerCase()) ? first : first.charAt(0).toUpperCase() + first.slice(1);
  return words.join(' ');
}

function kebab(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}
