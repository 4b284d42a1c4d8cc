import { DAY_MS } from '../encoding/iso-time';
import { resolveField, CQL_FIELDS, type CqlField, type CqlRow, type CqlValue } from './cql-fields';
import { cqlError, type CompareOp, type CqlQuery, type Expr, type FieldRef, type Literal } from './cql-query';
import { likeMatcher } from './like-pattern';

/** What a query answers: column names and one array of cells per row. */
export interface CqlTable {
  columns: string[];
  rows: CqlValue[][];
}

type Test = (row: CqlRow) => boolean;
type Operand = string | number;

/**
 * Runs a parsed query over the rows of its source (DESIGN: `svc cql query`): WHERE filters, ORDER BY sorts
 * (severity and status by meaning), GROUP BY … COUNT counts per value (count descending, then value), SELECT
 * picks columns (else the source's default columns, plus `input` when the rows come from several inputs),
 * LIMIT cuts. Every field is resolved first, so an unknown field fails even when there are no rows.
 */
export function evaluateQuery(query: CqlQuery, rows: readonly CqlRow[], now: Date): CqlTable {
  const field = (ref: FieldRef) => resolveField(query.source, ref, query.text);
  const test = query.where ? compile(query.where, field, query.text, now) : () => true;
  const kept = rows.filter(test);
  if (query.groupBy) return grouped(query, field(query.groupBy), kept);
  const columns = query.select ? query.select.map((ref) => field(ref).name) : defaultColumns(query, kept);
  const keys = (query.orderBy ?? []).map((key) => ({ field: field(key.field), sign: key.direction === 'desc' ? -1 : 1 }));
  const sorted =
    keys.length === 0 ? kept : [...kept].sort((a, b) => keys.reduce((c, k) => c || k.sign * compareValues(k.field, a[k.field.name], b[k.field.name]), 0));
  return { columns, rows: sorted.slice(0, query.limit).map((row) => columns.map((c) => row[c])) };
}

function defaultColumns(query: CqlQuery, rows: readonly CqlRow[]): string[] {
  const defaults = [...CQL_FIELDS[query.source].defaults];
  const several = query.source !== 'runs' && new Set(rows.map((r) => r.input)).size > 1;
  return several ? ['input', ...defaults] : defaults;
}

/** Columns [field, count]; a list field counts each of its elements. ORDER BY may name the field or `count`. */
function grouped(query: CqlQuery, by: CqlField, rows: readonly CqlRow[]): CqlTable {
  if (query.select)
    throw cqlError('cql-invalid', query.text, query.select[0].at, 'SELECT cannot be combined with GROUP BY; the columns are the grouped field and count');
  const counts = new Map<string, { value: CqlValue; count: number }>();
  for (const row of rows) {
    const value = row[by.name];
    for (const one of Array.isArray(value) ? (value as readonly string[]) : [value as Operand | undefined]) {
      const key = one === undefined ? '' : String(one);
      const entry = counts.get(key) ?? { value: one, count: 0 };
      entry.count += 1;
      counts.set(key, entry);
    }
  }
  const count: CqlField = { name: 'count', type: 'number', description: 'rows per value' };
  const keys = (query.orderBy ?? []).map((key) => {
    const name = key.field.name.toLowerCase();
    const target = name === 'count' ? count : resolveField(query.source, key.field, query.text);
    if (target !== count && target.name !== by.name)
      throw cqlError('cql-invalid', query.text, key.field.at, `ORDER BY with GROUP BY ${by.name} takes ${by.name} or count, found '${key.field.name}'`);
    return { index: target === count ? 1 : 0, field: target, sign: key.direction === 'desc' ? -1 : 1 };
  });
  const single: CqlField = { ...by, type: by.type === 'list' ? 'string' : by.type };
  const table = [...counts.values()].map(({ value, count: n }): CqlValue[] => [value, n]);
  table.sort(
    (a, b) =>
      keys.reduce((c, k) => c || k.sign * compareValues(k.index === 1 ? count : single, a[k.index], b[k.index]), 0) ||
      (b[1] as number) - (a[1] as number) ||
      compareValues(single, a[0], b[0]),
  );
  return { columns: [by.name, 'count'], rows: table.slice(0, query.limit) };
}

function compile(expr: Expr, field: (ref: FieldRef) => CqlField, text: string, now: Date): Test {
  switch (expr.kind) {
    case 'and': {
      const [l, r] = [compile(expr.left, field, text, now), compile(expr.right, field, text, now)];
      return (row) => l(row) && r(row);
    }
    case 'or': {
      const [l, r] = [compile(expr.left, field, text, now), compile(expr.right, field, text, now)];
      return (row) => l(row) || r(row);
    }
    case 'not': {
      const inner = compile(expr.expr, field, text, now);
      return (row) => !inner(row);
    }
    case 'compare': {
      const target = field(expr.field);
      const match = comparison(target, expr.op === '!=' ? '=' : expr.op, expr.value, text, now);
      const test = anyElement(target, match);
      return expr.op === '!=' ? (row) => !test(row) : test;
    }
    case 'in': {
      const target = field(expr.field);
      const matches = expr.values.map((v) => comparison(target, '=', v, text, now));
      return anyElement(target, (value) => matches.some((m) => m(value)));
    }
    case 'like': {
      const target = field(expr.field);
      if (target.type !== 'string' && target.type !== 'list') throw wrongType(target, expr.pattern, 'LIKE takes a text field', text);
      const matches = likeMatcher(literalText(expr.pattern));
      return anyElement(target, (value) => value !== undefined && matches(String(value)));
    }
  }
}

/** A list field matches when any element does; other fields test their one value. */
function anyElement(field: CqlField, match: (value: Operand | undefined) => boolean): Test {
  if (field.type === 'list') return (row) => ((row[field.name] as readonly string[] | undefined) ?? []).some((v) => match(v));
  return (row) => match(row[field.name] as Operand | undefined);
}

/** The test `value <op> literal` on one (element) value; a missing value matches nothing. */
function comparison(field: CqlField, op: Exclude<CompareOp, '!='>, literal: Literal, text: string, now: Date): (value: Operand | undefined) => boolean {
  const holds = (c: number) => (op === '=' ? c === 0 : op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0);
  if (field.type === 'number' || field.type === 'duration') {
    const wanted = literal.kind === 'number' ? literal.value : literal.kind === 'duration' && field.type === 'duration' ? literal.days : undefined;
    if (wanted === undefined)
      throw wrongType(field, literal, field.type === 'number' ? 'expected a number' : 'expected a number of days or a duration such as 7d', text);
    return (value) => typeof value === 'number' && holds(value - wanted);
  }
  if (field.type === 'date') {
    if (literal.kind === 'duration') {
      // A date against a duration compares its age: observed_at > 7d is "observed more than 7 days ago".
      return (value) => {
        const at = value === undefined ? NaN : Date.parse(String(value));
        return !Number.isNaN(at) && holds((now.getTime() - at) / DAY_MS - literal.days);
      };
    }
    const wanted = literal.kind === 'number' ? NaN : Date.parse(literal.value);
    if (Number.isNaN(wanted)) throw wrongType(field, literal, 'expected a date such as 2026-11-01 or a duration such as 7d', text);
    return (value) => {
      const at = value === undefined ? NaN : Date.parse(String(value));
      return !Number.isNaN(at) && holds(at - wanted);
    };
  }
  const single: CqlField = { ...field, type: 'string' };
  const wanted = literalText(literal);
  return (value) => value !== undefined && holds(compareValues(single, value, wanted));
}

/** Ordering of two cells of a field: ranked fields by meaning, numbers numerically, text case-insensitively; missing last. */
export function compareValues(field: CqlField, a: CqlValue, b: CqlValue): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [cellText(a).toLowerCase(), cellText(b).toLowerCase()];
  const rank = field.rank;
  if (rank && (x in rank || y in rank)) return (rank[x] ?? 0) - (rank[y] ?? 0);
  if (field.type === 'date') {
    const [s, t] = [Date.parse(x), Date.parse(y)];
    if (!Number.isNaN(s) && !Number.isNaN(t)) return s - t;
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

function cellText(value: Exclude<CqlValue, undefined>): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function literalText(literal: Literal): string {
  return literal.kind === 'duration' ? literal.text : String(literal.value);
}

function wrongType(field: CqlField, literal: Literal, expected: string, text: string) {
  return cqlError('cql-invalid', text, literal.at, `${field.name} is a ${field.type} field: ${expected}, found '${literalText(literal)}'`);
}
