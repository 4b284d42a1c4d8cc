import { printableText } from './printable-text';

/**
 * What JSON.parse found wrong, in words: V8's message without the position (say it as line and column instead) and
 * without the text it quotes around an unexpected token, which holds the file's own line breaks and contents and
 * would break a one-line error message (`Unexpected token 'x', "{\n  x"... is not valid JSON` → `Unexpected token 'x'`).
 * The token itself may be a control character or a second byte-order mark: it is written out (`'\u001b'`, `'U+FEFF'`).
 */
export function jsonSyntaxProblem(message: string): string {
  return printableText(message.replace(/ in JSON at position \d+.*$/s, '').replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, ''));
}
