/**
 * A CQL `LIKE` pattern as a test of a whole value: `%` any run of characters, `_` exactly one, every other
 * character itself, case-insensitively. Matched by the greedy two-pointer wildcard algorithm: on a mismatch it
 * retries from the last `%` only, so a value of n characters costs at most n·m steps for a pattern of m, where a
 * RegExp of `%a%a%a%b` backtracks exponentially on a long title.
 */
export function likeMatcher(pattern: string): (value: string) => boolean {
  const p = [...pattern].map(fold);
  return (value) => {
    const v = [...value].map(fold);
    let i = 0;
    let j = 0;
    let star = -1; // the index of the last % seen
    let resume = 0; // where the value resumes when the run that % covers grows by one
    while (i < v.length) {
      if (j < p.length && p[j] === '%') {
        star = j++;
        resume = i;
      } else if (j < p.length && (p[j] === '_' || p[j] === v[i])) {
        i++;
        j++;
      } else if (star >= 0) {
        j = star + 1;
        i = ++resume;
      } else return false;
    }
    while (j < p.length && p[j] === '%') j++;
    return j === p.length;
  };
}

/** The case a non-unicode `i` RegExp compares by (ECMAScript Canonicalize): upper case when it stays one character. */
export function fold(c: string): string {
  const upper = c.toUpperCase();
  return [...upper].length === 1 ? upper : c;
}
