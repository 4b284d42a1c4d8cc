import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { HttpProblem } from '../responses/problem-details';
import type { JsonSchema, RouteSpec } from '../routes/route';

export interface RequestValidator {
  /** The validated (and, for path and query, type-coerced) parts; throws HttpProblem 400 'invalid-request'. */
  validate(parts: { params: unknown; query: unknown; body: unknown }): { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown };
}

function objectSchema(schema: JsonSchema | undefined): JsonSchema {
  return schema ?? { type: 'object', additionalProperties: false, properties: {} };
}

/** Array-typed query parameters accept repeats (`?ksi=A&ksi=B`) and comma lists (`?ksi=A,B`). */
function splitLists(query: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    out[name] =
      properties[name]?.type === 'array'
        ? ([] as unknown[]).concat(value).flatMap((v) => (typeof v === 'string' ? v.split(',').filter((s) => s !== '') : [v]))
        : value;
  }
  return out;
}

function problem(where: 'params' | 'query' | 'body', errors: ErrorObject[]): HttpProblem {
  const list = errors.map((e) => {
    const extra = e.keyword === 'additionalProperties' ? `/${(e.params as { additionalProperty: string }).additionalProperty}` : '';
    const pointer = `/${where}${e.instancePath}${extra}`;
    const detail =
      e.keyword === 'additionalProperties'
        ? 'is not a known field'
        : e.keyword === 'enum'
          ? `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
          : (e.message ?? 'is invalid');
    return { pointer, detail };
  });
  const first = list[0];
  // A name the client sent may hold a line break or other control character: escaped, so the detail stays one line.
  const label = first.pointer
    .slice(1)
    .replace(/\//g, '.')
    .replace(/^params\./, 'path parameter ')
    .replace(/^query\./, 'query parameter ')
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return new HttpProblem(
    400,
    'invalid-request',
    `${label} ${first.detail}${list.length > 1 ? ` (and ${list.length - 1} more in errors)` : ''}; see /openapi.json for this route`,
    {},
    list,
  );
}

/** Compiles a route's schemas once: path and query with string coercion, the JSON body strictly. */
export function requestValidator(route: RouteSpec): RequestValidator {
  const coercing = new Ajv({ allErrors: true, coerceTypes: true, strict: false });
  const strict = new Ajv({ allErrors: true, strict: false });
  addFormats(coercing);
  addFormats(strict);
  const params = coercing.compile(objectSchema(route.params));
  const query = coercing.compile(objectSchema(route.query));
  const body: ValidateFunction | undefined = route.body ? strict.compile(route.body) : undefined;
  return {
    validate(parts) {
      const p = { ...(parts.params as Record<string, unknown>) };
      if (!params(p)) throw problem('params', params.errors ?? []);
      const q = splitLists({ ...(parts.query as Record<string, unknown>) }, objectSchema(route.query));
      if (!query(q)) throw problem('query', query.errors ?? []);
      if (body && !body(parts.body)) throw problem('body', body.errors ?? []);
      return { params: p, query: q, body: parts.body };
    },
  };
}
