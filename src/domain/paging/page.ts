import { ConflictError, InvalidInputError } from '../errors';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  /** 1 … MAX_PAGE_SIZE; default DEFAULT_PAGE_SIZE. */
  limit?: number;
  /** The `next_cursor` of the previous page; absent for the first. */
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** How many items match in all (every page together). */
  total: number;
  /** Pass it back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

const CURSOR = /^(\d{1,9})\.([0-9a-f]{16})$/;

/**
 * The page of `items` a request asks for. A cursor is `<offset>.<16 hex of the scope>`: opaque to clients, and bound
 * to what it pages over (a run id), so a cursor of an earlier run is refused instead of silently skipping items.
 */
export function pageOf<T>(items: readonly T[], request: PageRequest, scope: string): Page<T> {
  const limit = pageLimit(request);
  const offset = cursorPosition(request, scope);
  const end = offset + limit;
  return { items: items.slice(offset, end), total: items.length, next_cursor: end < items.length ? cursorAt(end, scope) : null };
}

/** The request's limit, checked: bad-limit unless an integer from 1 to MAX_PAGE_SIZE. */
export function pageLimit(request: PageRequest): number {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new InvalidInputError('bad-limit', `limit ${limit}: expected an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}

/** The number a request's cursor carries (0 without one): bad-cursor if not a cursor, stale-cursor if of another scope. */
export function cursorPosition(request: PageRequest, scope: string): number {
  if (request.cursor === undefined) return 0;
  const tag = scope.slice(0, 16);
  const match = CURSOR.exec(request.cursor);
  if (!match)
    throw new InvalidInputError(
      'bad-cursor',
      `cursor ${JSON.stringify(request.cursor.slice(0, 40))}: not a cursor this API gave; drop it to start from the first page`,
    );
  if (match[2] !== tag)
    throw new ConflictError(
      'stale-cursor',
      `cursor ${request.cursor}: it pages over run ${match[2]}…, the current run is ${tag}…; drop it to start again from the first page`,
    );
  return Number(match[1]);
}

/** The cursor that resumes at `position` of what `scope` pages over. */
export function cursorAt(position: number, scope: string): string {
  return `${position}.${scope.slice(0, 16)}`;
}
