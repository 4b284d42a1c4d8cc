import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { CheckReadiness } from '../../../application/health/check-readiness';
import type { ApiConfig } from '../config/api-config';
import { holdsRole } from '../app';
import { HttpProblem } from '../responses/problem-details';
import type { RouteSpec } from './route';

const CHECK = { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' }, detail: { type: 'string' } } };

/**
 * GET /health and GET /health/ready: open, for load balancers and IIS health monitoring. Readiness tells anyone
 * only ready or not per check: the details (store location, key id, why a check failed) go to the log, and to a
 * request authenticated as an operator.
 */
export function healthRoutes(container: DependencyContainer, config: ApiConfig, version: string, logger: Logger): RouteSpec[] {
  const readiness = container.resolve(CheckReadiness);
  return [
    {
      module: 'health',
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Liveness',
      description: 'Answers 200 while the process serves requests. Needs no authentication.',
      access: 'open',
      responses: {
        200: {
          description: 'Alive.',
          schema: { type: 'object', required: ['status', 'version'], properties: { status: { const: 'ok' }, version: { type: 'string' } } },
        },
      },
      handle(_input, res) {
        res.json({ status: 'ok', version });
      },
    },
    {
      module: 'health',
      method: 'get',
      path: '/health/ready',
      operationId: 'getReadiness',
      summary: 'Readiness: the run store is readable and the signing key loads',
      description:
        "Answers 200 with each check when the run store answers and the SAR signing key loads, else 503 naming the check that failed. Needs no authentication, and then says only ok or not per check; a request authenticated as an operator also gets each check's detail (the store location, the key id, why a check failed).",
      access: 'open',
      identifies: true,
      responses: {
        200: {
          description: 'Ready.',
          schema: {
            type: 'object',
            required: ['status', 'checks'],
            properties: { status: { const: 'ready' }, checks: { type: 'object', properties: { store: CHECK, signer: CHECK } } },
          },
        },
      },
      async handle(input, res) {
        const result = await readiness.execute({ key: config.signing_key });
        const operator = input.principal !== undefined && holdsRole(input.principal, ['operator'], config.roles);
        const checks = Object.entries(result.checks);
        if (!result.ready) {
          const failed = checks.filter(([, c]) => !c.ok);
          logger.warn({ req_id: input.requestId, checks: Object.fromEntries(failed) }, 'not ready');
          const named = failed.map(([name, c]) => (operator ? `${name}: ${c.detail}` : name));
          throw new HttpProblem(503, 'not-ready', `not ready: ${named.join('; ')}${operator ? '' : ' (the server log has the details)'}`, {
            'Retry-After': '10',
          });
        }
        res.json({ status: 'ready', checks: Object.fromEntries(checks.map(([name, c]) => [name, operator ? c : { ok: c.ok }])) });
      },
    },
  ];
}
