import type { DependencyContainer } from 'tsyringe';
import { ListBoundaryGaps } from '../../../application/boundary/list-boundary-gaps';
import { ProbeBoundary } from '../../../application/boundary/probe-boundary';
import { BOUNDARY_ENVIRONMENTS } from '../../../domain/directory/boundary-capabilities';
import type { ApiConfig } from '../config/api-config';
import { HttpProblem } from '../responses/problem-details';
import type { RouteSpec } from './route';
import { listOf, query } from './schemas';

const ENVIRONMENT = { enum: [...BOUNDARY_ENVIRONMENTS], description: 'Microsoft 365 / Entra environment; default boundary.environment of the config.' };
const ENDPOINT = {
  type: 'object',
  required: ['name', 'url', 'reachable', 'status', 'latency_ms'],
  properties: {
    name: { type: 'string' },
    url: { type: 'string' },
    reachable: { type: ['boolean', 'null'] },
    status: { type: ['integer', 'null'] },
    latency_ms: { type: ['number', 'null'] },
    error: { type: 'string' },
  },
};
const FEATURE = {
  type: 'object',
  required: ['id', 'name', 'offered', 'reachable', 'source'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    offered: { type: ['boolean', 'null'] },
    reachable: { type: ['boolean', 'null'] },
    source: { type: 'string' },
    note: { type: 'string' },
  },
};
const GAP = {
  type: 'object',
  required: ['feature', 'reason', 'detail'],
  properties: { feature: { type: 'string' }, reason: { enum: ['not-offered', 'unconfirmed', 'unreachable', 'unknown-feature'] }, detail: { type: 'string' } },
};

/** POST /boundary/run and GET /boundary/gaps: what a government cloud offers, and what the required set lacks. */
export function boundaryRoutes(container: DependencyContainer, config: ApiConfig): RouteSpec[] {
  const probe = container.resolve(ProbeBoundary);
  const gaps = container.resolve(ListBoundaryGaps);
  const environmentOf = (given: string | undefined): string => {
    const environment = given ?? config.boundary?.environment;
    if (environment === undefined)
      throw new HttpProblem(
        400,
        'environment-required',
        `name the environment (${BOUNDARY_ENVIRONMENTS.join(', ')}) in the request, or set boundary.environment in the API config`,
      );
    return environment;
  };
  return [
    {
      module: 'boundary',
      method: 'post',
      path: '/boundary/run',
      operationId: 'probeBoundary',
      summary: 'Probe which features a government cloud offers',
      description:
        "Lists the features of the environment (Commercial, GCC, GCC High, DoD) with their availability from Microsoft's service descriptions, and probes the environment's sign-in and Graph endpoints (offline from an export file: not probed).",
      access: ['operator'],
      body: { type: 'object', additionalProperties: false, properties: { environment: ENVIRONMENT } },
      responses: {
        200: {
          description: 'Features and endpoint probes.',
          schema: {
            type: 'object',
            required: ['environment', 'cloud', 'as_of', 'probed_at', 'endpoints', 'features'],
            properties: {
              environment: { type: 'string' },
              cloud: { type: 'string' },
              as_of: { type: 'string' },
              probed_at: { type: 'string' },
              endpoints: { type: 'array', items: ENDPOINT },
              features: { type: 'array', items: FEATURE },
            },
          },
        },
      },
      async handle({ body }, res) {
        res.json(await probe.execute({ environment: environmentOf(body.environment) }));
      },
    },
    {
      module: 'boundary',
      method: 'get',
      path: '/boundary/gaps',
      operationId: 'listBoundaryGaps',
      summary: 'Gaps of a cloud against the required features',
      description:
        'The required features (the query, else boundary.required of the config) that the environment does not offer, that the sources do not confirm, or (with probe=true) whose endpoints did not answer.',
      access: ['auditor', 'operator'],
      query: query({
        environment: ENVIRONMENT,
        required: listOf({ type: 'string', maxLength: 64 }, 'Feature ids (docs/graph.md lists them); default boundary.required.'),
        probe: { type: 'boolean', description: 'Probe the endpoints now.' },
      }),
      responses: {
        200: {
          description: 'Satisfied features and gaps.',
          schema: {
            type: 'object',
            required: ['environment', 'as_of', 'required', 'satisfied', 'gaps', 'endpoints'],
            properties: {
              environment: { type: 'string' },
              as_of: { type: 'string' },
              required: { type: 'array', items: { type: 'string' } },
              satisfied: { type: 'array', items: { type: 'string' } },
              gaps: { type: 'array', items: GAP },
              endpoints: { type: 'array', items: ENDPOINT },
            },
          },
        },
      },
      async handle({ query: q }, res) {
        const required = q.required ?? config.boundary?.required;
        if (required === undefined)
          throw new HttpProblem(
            400,
            'required-features-missing',
            'name the required features (?required=conditional-access,privileged-identity-management) or set boundary.required in the API config',
          );
        res.json(await gaps.execute({ environment: environmentOf(q.environment), required, probe: q.probe ?? false }));
      },
    },
  ];
}
