/** Where a problem was found: the JSON Schema, the cross-reference checks, or the FedRAMP SSP rules. */
export type ProblemLayer = 'schema' | 'references' | 'fedramp';

/** One finding of `oscal validate` / `oscal validate-ssp`. */
export interface OscalProblem {
  layer: ProblemLayer;
  /** Stable id of the rule (`required`, `uuid-unique`, `role-defined-system-owner`, ...). */
  rule: string;
  /** JSON path of the offending value, as `system-security-plan.metadata.roles[0].id` (`$` is the root). */
  path: string;
  message: string;
  /**
   * Present on findings OSCAL recommends against but its published constraints do not forbid (a uuid used twice,
   * a risk reference to something that is not a risk): printed, but the document still validates.
   */
  level?: 'warning';
}

export function isError(problem: OscalProblem): boolean {
  return problem.level !== 'warning';
}

/** A path segment list as the messages write it: `a.b[3].c`, with `["..."]` for keys that are not plain names. */
export function jsonPath(segments: readonly (string | number)[]): string {
  if (segments.length === 0) return '$';
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
