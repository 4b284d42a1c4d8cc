import type { JsonSchema, RouteSpec } from './route';

/** Problem responses every route may give, with when. */
const PROBLEMS: Record<number, string> = {
  400: 'The request does not match the route schema (the body lists each field), or a parameter is malformed.',
  401: 'No credentials, or credentials that did not verify (Negotiate, client certificate, trusted proxy).',
  403: "The principal does not hold a role this route needs (for /fedramp/*: agency, by name or by its agency's realm, certificate issuer or domain, or auditor; operator as well for /fedramp/access).",
  404: 'Nothing to answer with: no recorded run yet, an unknown control, or no Ongoing Certification Report recorded.',
  409: 'A paging cursor of an earlier run.',
  413: 'The request body is larger than limits.body_bytes.',
  415: 'A request body that is not application/json.',
  422: 'A stored run no longer hashes to its id, or Graph answered what it must not (a foreign nextLink).',
  429: 'Too many requests from this address in the last minute; retry after Retry-After seconds.',
  500: 'The server lacks configuration the route needs (graph, the signing key, a Graph permission; the detail says which), or an internal error (the request id finds the log line).',
  503: 'The run store or Microsoft Graph did not answer, after retries where Graph throttled; or `busy`: more requests wait for trust-center builds (`?snapshot=` documents, the index of a run recorded before svc stored one) than are queued (Retry-After).',
};

/** The three ways to authenticate (docs/api.md), any one of which suffices. */
const SECURITY = [{ negotiate: [] }, { mutualTLS: [] }, { trustedProxy: [] }];

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details.',
  required: ['type', 'code', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', format: 'uri', description: '`urn:svc:problem:<code>`' },
    code: { type: 'string', description: 'Stable kebab id of the problem (docs/api.md lists them).' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'One line: what was wrong, where, and the fix.' },
    instance: { type: 'string', description: 'The request path.' },
    request_id: { type: 'string', description: 'Also in the X-Request-Id header.' },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['pointer', 'detail'], properties: { pointer: { type: 'string' }, detail: { type: 'string' } } },
    },
  },
};

function parameters(schema: JsonSchema | undefined, where: 'path' | 'query'): object[] {
  if (!schema) return [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(rest.type === 'array' ? { style: 'form', explode: true } : {}),
    };
  });
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  [key: string]: unknown;
}

/** The OpenAPI 3.1 document of the API, generated from the route specs (nothing in it is written by hand twice). */
export function buildOpenApi(routes: readonly RouteSpec[], version: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const responses: Record<string, object> = {};
    for (const [status, r] of Object.entries(route.responses)) {
      responses[status] = {
        description: r.description,
        ...(r.headers ? { headers: r.headers } : {}),
        content: r.content
          ? Object.fromEntries(Object.entries(r.content).map(([type, schema]) => [type, { schema }]))
          : { [r.contentType ?? 'application/json']: { schema: r.schema ?? {} } },
      };
    }
    const problems =
      route.access !== 'open' ? [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] : route.identifies ? [400, 401, 429, 500, 503] : [400, 429, 500, 503];
    for (const status of problems) {
      if (route.method === 'get' && (status === 413 || status === 415)) continue;
      responses[String(status)] ??= { $ref: `#/components/responses/Problem${status}` };
    }
    (paths[route.path] ??= {})[route.method] = {
      operationId: route.operationId,
      tags: [route.module],
      summary: route.summary,
      description: route.access === 'open' ? route.description : `${route.description}\n\nRoles: ${route.access.join(' or ')}.`,
      // `{}` first: anonymous is enough, and the listed schemes are read when a request brings one.
      ...(route.access === 'open' ? { security: route.identifies ? [{}, ...SECURITY] : [] } : { 'x-svc-roles': route.access }),
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc API — Compliance Evidence Service',
      version,
      description:
        "Read access to the current run's auditor artifacts, the FedRAMP trust center (/fedramp/*: public information openly, certification data to agencies and auditors, as JSON or HTML), and the directory routes (survey, orgpath, boundary). Errors are RFC 9457 problem+json.",
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/' }],
    // A tag per module, in the order the routes come.
    tags: [...new Set(routes.map((r) => r.module))].map((name) => ({ name })),
    security: SECURITY,
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA },
      responses: Object.fromEntries(
        Object.entries(PROBLEMS).map(([status, description]) => [
          `Problem${status}`,
          { description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        ]),
      ),
      securitySchemes: {
        negotiate: { type: 'http', scheme: 'negotiate', description: 'Kerberos through SPNEGO (RFC 4559) with the service keytab.' },
        mutualTLS: {
          type: 'mutualTLS',
          description:
            "A client certificate from the configured CA; its SAN UPN, else e-mail, else CN is the principal, and its issuer may make it an agency's.",
        },
        trustedProxy: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Forwarded-User',
          description: 'The user a trusted proxy (IIS) authenticated; accepted only from the configured proxy addresses (the header name is configurable).',
        },
      },
    },
  };
}
