/**
 * What JSON.parse found wrong, in words: V8's message without the position (say it as line and column instead) and
 * without the text it quotes around an unexpected token, which holds the file's own line breaks and contents and
 * would break a one-line error message (`Unexpected token 'x', "{\n  x"... is not valid JSON` → `Unexpected token 'x'`).
 */
export function jsonSyntaxProblem(message: string): string {
  return message.replace(/ in JSON at position \d+.*$/s, '').replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
}
