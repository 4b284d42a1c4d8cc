import fc from 'fast-check';
import { AppError } from '../../src/domain/errors';

/** Every property of these suites runs with one seed, so a failure in CI reproduces on any machine. */
export const SEED = 42;

/** Keys a parser may trip over: prototype members, the empty key, a key with a line break. */
const AWKWARD_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', 'a\nb', 'length'];

/** A JSON key: mostly short words, sometimes an awkward one. */
export const jsonKey = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 1, arbitrary: fc.constantFrom(...AWKWARD_KEYS) });

/** Any JSON value, awkward keys and extreme numbers included, as JSON.parse would give it. */
export const jsonValue = (maxDepth = 3): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth }) },
    { weight: 1, arbitrary: fc.dictionary(jsonKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }).map(asJson) },
    { weight: 1, arbitrary: fc.anything({ maxDepth }).map(asJson) },
    { weight: 1, arbitrary: fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 20 })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, '', ' ', '\n', '\u0000', 'null', '[]', '{}', true, false, null, [], {}),
    },
  );

/** A value made JSON: what JSON.parse(JSON.stringify(value)) gives (undefined becomes null). */
export function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}

type Segment = string | number;

/** Every path to a value inside `document` (the root included), in document order. */
export function pathsOf(document: unknown, at: Segment[] = [], out: Segment[][] = []): Segment[][] {
  out.push(at);
  if (Array.isArray(document)) document.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (document !== null && typeof document === 'object') for (const [k, v] of Object.entries(document)) pathsOf(v, [...at, k], out);
  return out;
}

/** One change to a JSON document: where (a depth, then the n-th path of that depth), what to do and with what value. */
export interface Mutation {
  depth: number;
  at: number;
  op: 'replace' | 'delete' | 'duplicate' | 'insert' | 'rename' | 'stringify';
  value: unknown;
  key: string;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  depth: fc.nat(),
  at: fc.nat(),
  op: fc.constantFrom<Mutation['op']>('replace', 'replace', 'delete', 'duplicate', 'insert', 'rename', 'stringify'),
  value: jsonValue(2),
  key: jsonKey,
});

/** 1 to `max` mutations, applied in order to a copy of the document. */
export const mutations = (max = 3) => fc.array(mutation, { minLength: 1, maxLength: max });

/**
 * A copy of `document` with the mutations applied: a value replaced by another (or by its own JSON text), a member
 * or element deleted, an element duplicated in place, a member added, a key renamed.
 */
export function mutate(document: unknown, changes: readonly Mutation[]): unknown {
  let root = structuredClone(document);
  for (const change of changes) {
    // Depth first, then a path of that depth: a change lands near the root as often as deep in a large document.
    const paths = pathsOf(root);
    const depths = [...new Set(paths.map((p) => p.length))];
    const depth = depths[change.depth % depths.length];
    const atDepth = paths.filter((p) => p.length === depth);
    const path = atDepth[change.at % atDepth.length];
    if (path.length === 0) {
      if (change.op === 'replace') root = structuredClone(change.value);
      else if (change.op === 'stringify') root = JSON.stringify(root);
      continue;
    }
    const parent = path.slice(0, -1).reduce<any>((node, segment) => node[segment], root);
    const last = path[path.length - 1];
    if (Array.isArray(parent)) {
      const i = last as number;
      if (change.op === 'delete') parent.splice(i, 1);
      else if (change.op === 'duplicate') parent.splice(i, 0, structuredClone(parent[i]));
      else if (change.op === 'insert') parent.splice(i, 0, structuredClone(change.value));
      else if (change.op === 'stringify') parent[i] = JSON.stringify(parent[i]);
      else parent[i] = structuredClone(change.value);
    } else {
      const key = last as string;
      if (change.op === 'delete') delete parent[key];
      else if (change.op === 'insert' || change.op === 'duplicate')
        Object.defineProperty(parent, change.key, {
          value: structuredClone(change.op === 'insert' ? change.value : parent[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else if (change.op === 'rename') {
        const value = parent[key];
        delete parent[key];
        Object.defineProperty(parent, change.key, { value, enumerable: true, writable: true, configurable: true });
      } else if (change.op === 'stringify') parent[key] = JSON.stringify(parent[key]);
      else parent[key] = structuredClone(change.value);
    }
  }
  return root;
}

/** JSON text of a document: compact, indented, or with a BOM in front. */
export const jsonText = (document: unknown, style: number): string => {
  const text = JSON.stringify(document, null, style % 3 === 1 ? 2 : undefined) ?? 'null';
  return style % 3 === 2 ? `\uFEFF${text}` : text;
};

/** Text that is JSON cut short, with a byte changed, or not JSON at all (XML, CSV, binary). */
export const brokenText = (valid: string): fc.Arbitrary<string | Buffer> =>
  fc.oneof(
    fc.nat({ max: valid.length }).map((n) => valid.slice(0, n)),
    fc
      .tuple(fc.nat({ max: Math.max(valid.length - 1, 0) }), fc.constantFrom('{', '}', '[', ']', ',', '"', ':', '\\', '\n', 'x', '\u0000', '\u2028', "'"))
      .map(([n, c]) => valid.slice(0, n) + c + valid.slice(n + 1)),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 100 }),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    fc.constantFrom('', ' ', '\n', '\uFEFF', 'null', '<?xml version="1.0"?><a>', 'a,b,c\n1,2', '{"a":1}{"b":2}', '[1,]', '{"a":1,}', 'NaN', '1e99999'),
  );

/** The failure message when `error` is not a typed, one-line AppError naming `place` (one of them); undefined when it is. */
export function untypedProblem(error: unknown, place?: string | readonly string[]): string | undefined {
  if (!(error instanceof AppError)) return `not an AppError: ${error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error)}`;
  if (/[\r\n]/.test(error.message)) return `a message of several lines: ${JSON.stringify(error.message)}`;
  if (/\s{2,}at /.test(error.message)) return `a stack trace in the message: ${JSON.stringify(error.message)}`;
  const places = typeof place === 'string' ? [place] : place;
  if (places !== undefined && !places.some((p) => error.message.includes(p)))
    return `a message that does not name ${places.join(' or ')}: ${JSON.stringify(error.message)}`;
  return undefined;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** Runs `read`; an AppError with a one-line message naming `place` is an allowed outcome, anything else thrown fails the property. */
export async function typedOutcome<T>(read: () => Promise<T> | T, place?: string | readonly string[]): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return typedFailure(error, place);
  }
}

/** typedOutcome for a synchronous parser. */
export function typedResult<T>(read: () => T, place?: string | readonly string[]): Outcome<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    return typedFailure(error, place);
  }
}

function typedFailure(error: unknown, place: string | readonly string[] | undefined): { ok: false; error: AppError } {
  const problem = untypedProblem(error, place);
  if (problem !== undefined) throw new Error(problem);
  return { ok: false, error: error as AppError };
}
