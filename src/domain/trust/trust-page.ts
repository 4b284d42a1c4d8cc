import { markdownPlain } from '../encoding/markdown';
import { isPlainObject } from '../encoding/json-values';
import { METRIC_SUMMARY_SCHEMA, type MetricSummary } from '../fedramp/ksi-evaluation';
import { SDR_KSI_METRICS_SCHEMA, type SdrDocument } from '../fedramp/sdr';
import type { VulnerabilityDetail } from '../vulnerabilities/vulnerability-report-documents';

/** A label and its value under a page's title (FedRAMP ID, package URI, as of, the JSON's digest). */
export interface TrustPageFact {
  label: string;
  value: string;
  /** Set in monospace: hashes and ids. */
  code?: boolean;
}

/** How a column reads and sorts; `status` holds an implementation status (Implemented, Partially Implemented, Not Implemented). */
export type TrustColumnKind = 'text' | 'num' | 'date' | 'status';

export interface TrustColumn {
  label: string;
  kind: TrustColumnKind;
}

/** A paragraph of a cell, under an optional label (`Validation`). */
export interface TrustParagraph {
  label?: string;
  text: string;
}

/** A table cell: text or a number; an id (a rule's and a KSI's with FedRAMP's name for it); paragraphs. */
export type TrustCell = string | number | { id: string; name?: string } | { paragraphs: TrustParagraph[] };

/** One KSI's metrics (SDR-CSX-KMT): its days by status over the last 30 days and up to a year, and for Class C each day. */
export interface TrustKsiMetrics {
  id: string;
  name?: string;
  last30Days: MetricSummary;
  lastYear: MetricSummary;
  daily?: { date: string; status?: string }[];
}

/** One part of a page: a list of labelled values, a table, a list of lines, or the KSIs' metrics. */
export type TrustSection =
  | { kind: 'fields'; id: string; heading: string; fields: { label: string; value: string }[] }
  | { kind: 'table'; id: string; heading: string; columns: TrustColumn[]; rows: TrustCell[][]; empty: string }
  | { kind: 'list'; id: string; heading: string; items: string[]; empty: string }
  | { kind: 'metrics'; id: string; heading: string; ksis: TrustKsiMetrics[] };

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
  /** FedRAMP's names of rules and KSIs by id, shown under the ids the document lists (the SDR's and its metrics'). */
  names?: ReadonlyMap<string, string>;
  generatedAt: string;
  tool: { name: string; version: string };
}

/**
 * Lays a JSON document out as a page: its top-level values as labelled fields, each top-level object as a section of
 * labelled fields (deeper keys joined with ›), each list of objects as a table whose columns are the items' fields
 * (a vulnerability's tracking id and description first), each top-level list of values as a list. A list document
 * gives a section per item (and its tables). The SDR's lists of decisions are tables of id and name, status and
 * statement (DECISIONS), and its `ksiMetrics` the KSIs' metrics, where they have the shape the SDR gives them
 * (SDR_KSI_METRICS_SCHEMA).
 */
export function trustPage(input: TrustPageInput): TrustPage {
  const sections: TrustSection[] = [];
  const ids = new Map<string, number>();
  const names = input.names ?? new Map<string, string>();
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
        const top = split && labels.length === 0;
        const decision = top ? DECISIONS[key] : undefined;
        const metrics = top && key === METRICS_KEY ? ksiMetrics(v, names) : undefined;
        if (decision !== undefined && isDecisionList(v, decision))
          later.push(() => sections.push(...decisionTables(v, decision, { key, heading: label[0] }, (part) => id([...at, part]), names)));
        else if (metrics !== undefined) later.push(() => sections.push({ kind: 'metrics', id: id([...at, key]), heading: label[0], ksis: metrics }));
        else if (isPlainObject(v) && top) later.push(() => layOut(v, fieldLabel(key), [...at, key], false));
        else if (isPlainObject(v)) walk(v, label, [...at, key]);
        else if (Array.isArray(v) && v.some((item) => isPlainObject(item)))
          later.push(() => sections.push(table(v, prefix + label.join(' › '), id([...at, key]))));
        else if (Array.isArray(v) && top)
          later.push(() => sections.push({ kind: 'list', id: id([...at, key]), heading: label.join(' › '), items: v.map(text), empty: 'none listed' }));
        else fields.push({ label: label.join(' › '), value: Array.isArray(v) ? (v.length === 0 ? '(none)' : v.map(text).join('; ')) : text(v) });
      }
    };
    walk(value, [], path);
    if (fields.length > 0) sections.push({ kind: 'fields', id: id(path), heading, fields });
    for (const add of later) add();
  };

  if (Array.isArray(input.document)) {
    const item = input.item ?? 'Item';
    if (input.document.length === 0)
      sections.push({ kind: 'list', id: id([`${item}s`]), heading: `${item}s`, items: [], empty: `no ${item.toLowerCase()} is recorded` });
    input.document.forEach((entry, i) =>
      isPlainObject(entry)
        ? layOut(entry, `${item} ${i + 1}`, [`${item}-${i + 1}`], false)
        : sections.push({ kind: 'list', id: id([`${item}-${i + 1}`]), heading: `${item} ${i + 1}`, items: [text(entry)], empty: '' }),
    );
  } else if (isPlainObject(input.document)) {
    layOut(input.document, 'Summary', [], true);
  }
  return { title: input.title, facts: input.facts, sections, generatedAt: input.generatedAt, tool: input.tool };
}

/**
 * The fields a reader of a vulnerability report looks for first (VDR, AVI, history), in this order, by the detail's
 * names; the first is a column of ids.
 */
const LEADING_FIELDS: readonly [id: keyof VulnerabilityDetail, ...rest: (keyof VulnerabilityDetail)[]] = ['providerTrackingId', 'vulnerabilityDescription'];
/** Columns of ids besides the vulnerability's: the KSI of an evidence entry. */
const OTHER_ID_COLUMNS = ['KSI'];

/**
 * A list of objects as a table: one column per field any item has, in first-seen order, LEADING_FIELDS' first; a field
 * holding an object is one column of labelled lines (`Detected at: …`, `Detection source: …`), so the table fits.
 */
function table(items: unknown[], heading: string, id: string): TrustSection {
  const { columns, rows } = fieldColumns(items.map((item) => (isPlainObject(item) ? item : { value: item })));
  return { kind: 'table', id, heading, columns, rows, empty: 'none listed' };
}

/** Objects as columns (LEADING_FIELDS' first, then in first-seen order) and rows of cells. */
function fieldColumns(items: Record<string, unknown>[]): { columns: TrustColumn[]; rows: TrustCell[][] } {
  const maps = items.map((item) => new Map(Object.entries(item).map(([key, v]) => [fieldLabel(key), v])));
  const seen: string[] = [];
  for (const map of maps) for (const key of map.keys()) if (!seen.includes(key)) seen.push(key);
  const leading = LEADING_FIELDS.map(fieldLabel);
  const idColumns = [leading[0], ...OTHER_ID_COLUMNS];
  const labels = [...leading.filter((label) => seen.includes(label)), ...seen.filter((label) => !leading.includes(label))];
  const cells = maps.map((map) => labels.map((c): TrustCell => (map.has(c) ? fieldCell(map.get(c)) : '')));
  const columns = labels.map((label, i) => ({ label, kind: columnKind(cells.map((r) => r[i])) }));
  const rows = cells.map((row) => row.map((c, i): TrustCell => (idColumns.includes(labels[i]) && typeof c === 'string' && c !== '' ? { id: c } : c)));
  return { columns, rows };
}

/** A field's cell: its value, or an object's leaves as labelled lines. */
function fieldCell(value: unknown): TrustCell {
  return isPlainObject(value) ? { paragraphs: [...leaves(value)].map(([label, v]) => ({ label, text: String(cell(v)) })) } : cell(value);
}

/**
 * Where an SDR list (SDR-CSO-FRR) keeps each entry's id, status, statement and what validates it, by FedRAMP's field
 * names: `F`, the fields of the list's entry type (SdrDocument's).
 */
interface DecisionFields<F extends string = string> {
  /** What the id column is headed: `Rule`. */
  noun: string;
  id: F;
  status: F;
  statement: F;
  /** Paragraphs shown under the statement, by field and label; `tests` as one paragraph. */
  labelled: [field: F, label: string][];
  tests?: F;
  /** A list of objects, given a table of its own with the entry's id first. */
  evidence?: F;
}

/** The SDR's lists of decisions, by their key in the SDR, each with its entry type. */
type SdrDecisionLists = { [L in 'fedRampRequirements' | 'keySecurityIndicators' | 'securityControls']: NonNullable<SdrDocument[L]>[number] };

const SDR_DECISIONS: { readonly [L in keyof SdrDecisionLists]: DecisionFields<keyof SdrDecisionLists[L] & string> } = {
  fedRampRequirements: {
    noun: 'Rule',
    id: 'frrID',
    status: 'frrImplementationStatus',
    statement: 'frrImplementation',
    labelled: [['frrValidation', 'Validation']],
  },
  keySecurityIndicators: {
    noun: 'KSI',
    id: 'ksiId',
    status: 'ksiImplementationStatus',
    statement: 'ksiImplementation',
    labelled: [
      ['ksiValidation', 'Validation'],
      ['ksiAssessment', 'Assessment'],
    ],
    tests: 'ksiTests',
    evidence: 'ksiEvidence',
  },
  securityControls: { noun: 'Control', id: 'controlId', status: 'controlImplementationStatus', statement: 'controlImplementationDescription', labelled: [] },
};
/** The same, looked up by any document's key. */
const DECISIONS: Readonly<Record<string, DecisionFields>> = SDR_DECISIONS;

function isDecisionList(value: unknown, fields: DecisionFields): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.every((item) => isPlainObject(item) && typeof item[fields.id] === 'string');
}

/**
 * An SDR list as a table of the entry's id and name, its status, and its statement with the paragraphs that validate
 * it (for KSIs, its tests too); any other field as a column after them. A KSI's evidence gets a table of its own.
 */
function decisionTables(
  items: Record<string, unknown>[],
  fields: DecisionFields,
  list: { key: string; heading: string },
  id: (key: string) => string,
  names: ReadonlyMap<string, string>,
): TrustSection[] {
  const used = new Set([fields.id, fields.status, fields.statement, ...fields.labelled.map(([field]) => field), fields.tests, fields.evidence]);
  const rest = fieldColumns(items.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => !used.has(key)))));
  const columns: TrustColumn[] = [
    { label: fields.noun, kind: 'text' },
    { label: 'Status', kind: 'status' },
    { label: 'Statement', kind: 'text' },
    ...rest.columns,
  ];
  const rows = items.map((item, i): TrustCell[] => {
    const entry = item[fields.id] as string;
    const name = names.get(entry);
    // The statement and its validation are Markdown fields (FedRAMP's schemas): shown as text, their backslash escapes read.
    const labelled = fields.labelled.flatMap(([field, label]) => paragraphs(item[field]).map((p) => ({ label, text: markdownPlain(p) })));
    const tests = fields.tests === undefined ? [] : paragraphs(item[fields.tests]);
    return [
      name === undefined ? { id: entry } : { id: entry, name },
      text(item[fields.status]),
      {
        paragraphs: [
          ...paragraphs(item[fields.statement]).map((p) => ({ text: markdownPlain(p) })),
          ...labelled,
          ...(tests.length === 0 ? [] : [{ label: 'Tests', text: tests.join('; ') }]),
        ],
      },
      ...rest.rows[i],
    ];
  });
  const sections: TrustSection[] = [{ kind: 'table', id: id(list.key), heading: list.heading, columns, rows, empty: 'none listed' }];
  if (fields.evidence !== undefined) {
    const key = fields.evidence;
    const entries = items.flatMap((item) =>
      (Array.isArray(item[key]) ? item[key] : []).map((e: unknown) => ({
        [fields.noun.toLowerCase()]: item[fields.id],
        ...(isPlainObject(e) ? e : { value: e }),
      })),
    );
    sections.push(table(entries, fieldLabel(key), id(key)));
  }
  return sections;
}

/** A statement field's paragraphs: each item of a list, or a text's paragraphs (blank-line separated). */
function paragraphs(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(text);
  return text(value)
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '');
}

/** Where the SDR keeps its KSI metrics. */
const METRICS_KEY: keyof SdrDocument = 'ksiMetrics';

/** The SDR's `ksiMetrics` (KSI id → its summaries and, for Class C, each day), or undefined when it has another shape. */
function ksiMetrics(value: unknown, names: ReadonlyMap<string, string>): TrustKsiMetrics[] | undefined {
  if (!isPlainObject(value)) return undefined;
  const ksis: TrustKsiMetrics[] = [];
  for (const [ksi, m] of Object.entries(value)) {
    if (!isPlainObject(m) || Object.keys(m).some((key) => !METRICS_FIELDS.includes(key))) return undefined;
    const last30Days = metricSummary(m.last30Days);
    const lastYear = metricSummary(m.lastYear);
    const daily = m.daily === undefined ? undefined : dailyStatuses(m.daily);
    if (last30Days === undefined || lastYear === undefined || (m.daily !== undefined && daily === undefined)) return undefined;
    const name = names.get(ksi);
    ksis.push({ id: ksi, ...(name === undefined ? {} : { name }), last30Days, lastYear, ...(daily === undefined ? {} : { daily }) });
  }
  return ksis;
}

/** The fields of a KSI's metrics and of a summary, as the SDR's metrics schema names them. */
const METRICS_FIELDS: readonly string[] = Object.keys(SDR_KSI_METRICS_SCHEMA.properties);
const SUMMARY_KEYS = METRIC_SUMMARY_SCHEMA.required;

function metricSummary(value: unknown): MetricSummary | undefined {
  if (!isPlainObject(value) || Object.keys(value).length !== SUMMARY_KEYS.length) return undefined;
  return SUMMARY_KEYS.every((key) => typeof value[key] === 'number') ? (value as unknown as MetricSummary) : undefined;
}

/** A Class C KSI's `daily`: `{date}` or `{date, status}` entries, nothing else. */
function dailyStatuses(value: unknown): { date: string; status?: string }[] | undefined {
  const isDay = (d: unknown): d is { date: string; status?: string } =>
    isPlainObject(d) && typeof d.date === 'string' && Object.keys(d).every((key) => key === 'date' || (key === 'status' && typeof d.status === 'string'));
  return Array.isArray(value) && value.every(isDay) ? value.map((d) => ({ ...d })) : undefined;
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
  if (Array.isArray(value))
    return value
      .map((v) =>
        isPlainObject(v)
          ? Object.entries(v)
              .map(([k, x]) => `${fieldLabel(k)}: ${text(x)}`)
              .join(', ')
          : text(v),
      )
      .join('; ');
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

function columnKind(values: TrustCell[]): TrustColumnKind {
  const present = values.filter((v) => v !== '');
  if (present.length > 0 && present.every((v) => typeof v === 'number')) return 'num';
  if (present.length > 0 && present.every((v) => typeof v === 'string' && ISO_TIME.test(v))) return 'date';
  return 'text';
}

/** Words that read as acronyms in a label. */
const ACRONYMS = new Set(['uri', 'url', 'id', 'uei', 'irv', 'lev', 'ocr', 'scn', 'cve', 'ksi', 'avi', 'vdr', 'cpo', 'fedramp']);

/** `certificationPackageOverviewUri` → `Certification package overview URI`; `fedRampPackageId` → `FedRAMP package ID`; an id (`KSI-IAM-APM`) as it is. */
export function fieldLabel(key: string): string {
  if (/^[A-Z0-9]+(?:-[A-Z0-9]+)+$/.test(key)) return key;
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
