/**
 * One change to a JSON document, by path: `value` replaces the member or element there (or adds the member), or,
 * with `insert`, is inserted into the array at that index. Edits apply in order, each to the result of the last.
 */
export interface JsonEdit {
  path: (string | number)[];
  value: unknown;
  insert?: boolean;
}
