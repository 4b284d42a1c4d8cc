import fc from 'fast-check';
import { JsonArrayItems, JsonSplitError } from '../../src/domain/encoding/json-array-items';
import { SEED } from './bad-input';
import { cut } from './cut';

const PREFIX = '{"entries":[';

/** Items as a writer gives them: objects and arrays with strings full of quotes, backslashes, brackets and non-ASCII. */
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\\"', '}', ']', '{"a":[', '\u20ac', '\ud83d\ude00'));
const value = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('array'), tie('object')),
  leaf: fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), text),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
})).value;
const item = fc.oneof(fc.dictionary(text, value, { maxKeys: 4 }), fc.array(value, { maxLength: 4 }));

function split(chunks: Uint8Array[]): { items: string[]; rest: string } {
  const splitter = new JsonArrayItems(PREFIX);
  const items = chunks.flatMap((chunk) => splitter.push(chunk));
  return { items, rest: splitter.rest() };
}

describe('JsonArrayItems: the items of an array read from a byte stream', () => {
  it('gives each item whole, in order, and the text after the array, however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 8 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        fc.constantFrom('', ' ', '\n'),
        (items, at, space) => {
          const texts = items.map((i) => JSON.stringify(i, null, space === '\n' ? 1 : undefined));
          const document = `${PREFIX}${space}${texts.join(`${space},${space}`)}${space}],"input":{"name":"a]"},"schema":"x"}`;
          const { items: got, rest } = split(cut(new TextEncoder().encode(document), at));
          expect(got).toEqual(texts);
          expect(got.map((t) => JSON.parse(t) as unknown)).toEqual(items);
          expect(rest).toBe(',"input":{"name":"a]"},"schema":"x"}');
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('reads an empty array', () => {
    expect(split([new TextEncoder().encode(`${PREFIX}]}`)])).toEqual({ items: [], rest: '}' });
  });

  it.each([
    ['a document that does not begin with the prefix', '{"entrees":[{}]}', 'byte 6: expected the document to begin with {"entries":['],
    ['a scalar item', `${PREFIX}1]}`, 'byte 12: expected an object or an array as the next item'],
    ['two items without a comma', `${PREFIX}{} {}]}`, 'byte 15: expected "," or "]" after an array item'],
    ['a trailing comma', `${PREFIX}{},]}`, 'byte 15: expected an object or an array as the next item'],
  ])('refuses %s, naming the byte', (_what, document, message) => {
    expect(() => split([new TextEncoder().encode(document)])).toThrow(JsonSplitError);
    expect(() => split([new TextEncoder().encode(document)])).toThrow(message);
  });

  it('refuses an array that never ends, and an item that is not UTF-8', () => {
    expect(() => split([new TextEncoder().encode(`${PREFIX}{"a":"b"}`)])).toThrow('byte 21: the array does not end');
    expect(() => split([new TextEncoder().encode(`${PREFIX}{"a":"`), new Uint8Array([0xff]), new TextEncoder().encode('"}]}')])).toThrow(
      'byte 12: an array item is not UTF-8',
    );
  });
});
