import { parseJson } from '../../../../src/domain/encoding/json-syntax-problem';
import { InvalidInputError } from '../../../../src/domain/errors';

/** The message parseJson throws for `text`, without the common tail. */
function problem(text: string): string {
  try {
    parseJson(text, 'f.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message.replace('; fix the syntax there (a JSON validator shows the context)', '');
  }
  throw new Error('parsed');
}

describe('parseJson: where a JSON text goes wrong, as line and column', () => {
  it.each([
    ['a position V8 gives', '{\n  "a": 1,\n  }', 'f.json: invalid JSON at line 3, column 3: Expected double-quoted property name'],
    ['an unexpected end', '[\n  1,', 'f.json: invalid JSON at line 2, column 5: Unexpected end of JSON input'],
    ['an unexpected token (V8 names no position)', '[1, x]', "f.json: invalid JSON at line 1, column 5: Unexpected token 'x'"],
    ['a closing brace after a colon', '{"a":\n}', "f.json: invalid JSON at line 2, column 1: Unexpected token '}'"],
    ['a word cut short: the word, not the character after it', '[\n  tru\n]', "f.json: invalid JSON at line 2, column 3: Unexpected token '\\u000a'"],
    ['a character after a whole value', '{} x', 'f.json: invalid JSON at line 1, column 4: Unexpected non-whitespace character after JSON'],
    ['an empty file', ' \n', 'f.json: invalid JSON at line 2, column 1: the file is empty'],
  ])('%s', (_what, text, message) => {
    expect(problem(text)).toBe(message);
  });

  it('returns the value of valid JSON', () => {
    expect(parseJson('{"a": [1, "b"]}', 'f.json')).toEqual({ a: [1, 'b'] });
  });
});
