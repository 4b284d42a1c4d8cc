import { UsageError } from '../errors';

/** What a CQL query reads: the artifacts of one run (or of each `--input`), or the run store's history. */
export const CQL_SOURCES = ['results', 'evidence', 'actions', 'poam', 'runs'] as const;
export type CqlSource = (typeof CQL_SOURCES)[number];

export function isCqlSource(value: string): value is CqlSource {
  return (CQL_SOURCES as readonly string[]).includes(value);
}

/** Where a token starts in the query text: line and column 1-based, offset 0-based. */
export interface SourcePosition {
  offset: number;
  line: number;
  column: number;
}

/** A field name as written (`sev`), resolved against the source's fields when the query is evaluated. */
export interface FieldRef {
  name: string;
  at: SourcePosition;
}

/**
 * A value on the right-hand side: a bare word or quoted string (`PASS`, `'Phishing%'`), a number, a duration
 * (`7d`, `2w`, `12h`; held in days) or a date (`2026-11-01`, held as written).
 */
export type Literal =
  | { kind: 'string'; value: string; at: SourcePosition }
  | { kind: 'number'; value: number; at: SourcePosition }
  | { kind: 'duration'; days: number; text: string; at: SourcePosition }
  | { kind: 'date'; value: string; at: SourcePosition };

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type Expr =
  | { kind: 'compare'; field: FieldRef; op: CompareOp; value: Literal }
  | { kind: 'in'; field: FieldRef; values: Literal[] }
  | { kind: 'like'; field: FieldRef; pattern: Literal }
  | { kind: 'and'; left: Expr; right: Expr }
  | { kind: 'or'; left: Expr; right: Expr }
  | { kind: 'not'; expr: Expr };

export interface OrderKey {
  field: FieldRef;
  direction: 'asc' | 'desc';
}

/** A parsed query; each clause is optional and given at most once. */
export interface CqlQuery {
  /** The query text, for error messages that point into it. */
  text: string;
  source: CqlSource;
  where?: Expr;
  select?: FieldRef[];
  orderBy?: OrderKey[];
  groupBy?: FieldRef;
  limit?: number;
}

/** Where the lexer starts a new line: LF, CRLF, or a lone CR. */
const LINE_BREAK = /\r\n?|\n/;

/**
 * The error every CQL problem raises (exit 2): `line L, column C: <problem>`, then the query line and a caret
 * under the column. `cql-syntax` for the grammar, `cql-invalid` for unknown sources and fields and values of
 * the wrong type.
 */
export function cqlError(code: 'cql-syntax' | 'cql-invalid', text: string, at: Pick<SourcePosition, 'line' | 'column'>, problem: string): UsageError {
  const line = text.split(LINE_BREAK)[at.line - 1] ?? '';
  return new UsageError(code, `line ${at.line}, column ${at.column}: ${problem}\n  ${line}\n  ${' '.repeat(Math.max(at.column - 1, 0))}^`);
}

/** The position just after the last non-blank character: where a query that ends too early is pointed at. */
export function endOf(text: string): SourcePosition {
  const trimmed = text.replace(/\s+$/, '');
  const lines = trimmed.split(LINE_BREAK);
  return { offset: trimmed.length, line: lines.length, column: lines[lines.length - 1].length + 1 };
}
