/**
 * A count with its noun in agreement: `1 check`, `2 checks`, `0 checks`. `many` is the plural when it is not the noun
 * and an s (`plural(n, 'entry', 'entries')`). The one way svc writes a count in words.
 */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : many}`;
}
