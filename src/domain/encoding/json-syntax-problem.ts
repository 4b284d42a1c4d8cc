import { printableText } from './printable-text';
import { InvalidInputError } from '../errors';

/**
 * What JSON.parse found wrong, in words: V8's message without the position (say it as line and column instead) and
 * without the text it quotes around an unexpected token, which holds the file's own line breaks and contents and
 * would break a one-line error message (`Unexpected token 'x', "{\n  x"... is not valid JSON` → `Unexpected token 'x'`).
 * The token itself may be a control character or a second byte-order mark: it is written out (`'\u001b'`, `'U+FEFF'`).
 */
export function jsonSyntaxProblem(message: string): string {
  const problem = printableText(message.replace(/ (?:in JSON )?at position \d+.*$/s, '').replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, ''));
  // The message is one line: a tab or line feed that is itself the unexpected token is written out too.
  return problem.replace(/[\t\n]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * JSON.parse, and on failure InvalidInputError('invalid-json') naming the file, the line and column of the first
 * error, and the problem in words.
 */
export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const { line, column } = lineAndColumn(text, errorOffset(text, message));
    const problem = text.trim() === '' ? 'the file is empty' : jsonSyntaxProblem(message);
    throw new InvalidInputError(
      'invalid-json',
      `${path}: invalid JSON at line ${line}, column ${column}: ${problem}; fix the syntax there (a JSON validator shows the context)`,
    );
  }
}

/**
 * Where JSON.parse's error is in `text`: the position V8 gives, or, for an unexpected token (V8 names no position),
 * where the longest prefix that could still begin a JSON text ends, found by bisection. JSON.parse stops at its first
 * error, so the bisection costs about two parses of the text, and only a malformed file pays it.
 */
function errorOffset(text: string, message: string): number {
  const given = positionIn(message, text.length);
  if (given !== undefined) return given;
  let fine = 0;
  let broken = text.length;
  while (broken - fine > 1) {
    const mid = (fine + broken) >>> 1;
    let failure: string | undefined;
    try {
      JSON.parse(text.slice(0, mid));
    } catch (error) {
      failure = (error as Error).message;
    }
    const at = failure === undefined ? mid : positionIn(failure, mid);
    if (at === undefined) broken = mid;
    else if (at < mid) return at;
    else fine = mid;
  }
  // A word cut short (`tru` before a line break) fails at the character after it: point at the word instead.
  let at = broken - 1;
  while (at > 0 && /[A-Za-z]/.test(text[at - 1])) at -= 1;
  return at;
}

/** The position a V8 message names (`at position N`; the end of the text for an unexpected end), if any. */
function positionIn(message: string, length: number): number | undefined {
  const at = / at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  return /Unexpected end of JSON input/.test(message) ? length : undefined;
}

/** The 1-based line and column of a character offset in a text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
