import type { InjectionToken } from 'tsyringe';
import type { CqlQuery } from '../domain/cql/cql-query';

/**
 * Reads the text of a CQL query (docs/cql.md) into its syntax tree. Throws UsageError `cql-syntax` for text
 * outside the grammar and `cql-invalid` for an unknown source, each pointing at the line and column with a caret.
 */
export interface QueryParser {
  parse(text: string): CqlQuery;
}

export const QUERY_PARSER: InjectionToken<QueryParser> = Symbol('QueryParser');
