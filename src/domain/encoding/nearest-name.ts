/**
 * The name of `names` closest to `typed` by Levenshtein distance (one edit: a character added, dropped or changed), for
 * a "did you mean" hint; undefined when none is within a third of the typed length (at least one edit) or the
 * distance is the whole typed word. Ties go to the first name given.
 */
export function nearestName(typed: string, names: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    if (name === typed) continue;
    const d = editDistance(typed, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= limit && bestDistance < typed.length ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length];
}
