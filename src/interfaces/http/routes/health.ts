import type { DependencyContainer } from 'tsyringe';
import { CheckReadiness } from '../../../application/health/check-readiness';
import type { ApiConfig } from '../api-config';
import { HttpProblem } from '../problem-details';
import type { RouteSpec } from '../route';

const CHECK = { type: 'object', required: ['ok', 'detail'], properties: { ok: { type: 'boolean' }, detail: { type: 'string' } } };

/** GET /health and GET /health/ready: open, for load balancers and IIS health monitoring. */
export function healthRoutes(container: DependencyContainer, config: ApiConfig, version: string): RouteSpec[] {
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
      responses: { 200: { description: 'Alive.', schema: { type: 'object', required: ['status', 'version'], properties: { status: { const: 'ok' }, version: { type: 'string' } } } } },
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
      description: 'Answers 200 with each check when the run store answers and the SAR signing key loads, else 503 naming the check that failed. Needs no authentication.',
      access: 'open',
      responses: { 200: { description: 'Ready.', schema: { type: 'object', required: ['status', 'checks'], properties: { status: { const: 'ready' }, checks: { type: 'object', properties: { store: CHECK, signer: CHECK } } } } } },
      async handle(_input, res) {
        const result = await readiness.execute({ key: config.signing_key });
        if (!result.ready) {
          const failed = Object.entries(result.checks).filter(([, c]) => !c.ok).map(([name, c]) => `${name}: ${c.detail}`);
          throw new HttpProblem(503, 'not-ready', `not ready: ${failed.join('; ')}`, { 'Retry-After': '10' });
        }
        res.json({ status: 'ready', checks: result.checks });
      },
    },
  ];
}
