import { inject, injectable } from 'tsyringe';
import {
  BOUNDARY_AS_OF,
  BOUNDARY_ENVIRONMENTS,
  type BoundaryEnvironment,
  boundaryEndpoints,
  type EndpointProbe,
  ENVIRONMENT_CLOUD,
  type FeatureAvailability,
  featureAvailability,
  isBoundaryEnvironment,
} from '../../domain/directory/boundary-capabilities';
import type { GraphCloud } from '../../domain/directory/graph-cloud';
import { InvalidInputError } from '../../domain/errors';
import { describe } from '../../domain/encoding/json-values';
import { BOUNDARY_PROBE, type BoundaryProbe } from '../../ports/boundary-probe';
import { CLOCK, type Clock } from '../../ports/clock';

export interface ProbeBoundaryInput {
  environment: unknown;
  /** JSON path of the input in messages; default `body`. */
  at?: string;
}

export interface ProbeBoundaryResult {
  environment: BoundaryEnvironment;
  cloud: GraphCloud;
  as_of: string;
  probed_at: string;
  endpoints: EndpointProbe[];
  features: FeatureAvailability[];
}

/**
 * Which features an environment (Commercial, GCC, GCCHigh, DoD) offers by Microsoft's documentation, and whether
 * its sign-in and Graph endpoints answer now (POST /boundary/run). Offline, endpoints are `reachable: null`.
 * Throws InvalidInputError (invalid-boundary-request) for an unknown environment.
 */
@injectable()
export class ProbeBoundary {
  constructor(
    @inject(BOUNDARY_PROBE) private readonly prober: BoundaryProbe,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(input: ProbeBoundaryInput): Promise<ProbeBoundaryResult> {
    const environment = readEnvironment(input.environment, `${input.at ?? 'body'}.environment`);
    const probedAt = this.clock.now().toISOString();
    const endpoints = await this.prober.probe(boundaryEndpoints(environment));
    return {
      environment,
      cloud: ENVIRONMENT_CLOUD[environment],
      as_of: BOUNDARY_AS_OF,
      probed_at: probedAt,
      endpoints,
      features: featureAvailability(environment, endpoints),
    };
  }
}

export function readEnvironment(value: unknown, at: string): BoundaryEnvironment {
  if (!isBoundaryEnvironment(value))
    throw new InvalidInputError('invalid-boundary-request', `${at}: expected one of ${BOUNDARY_ENVIRONMENTS.join(', ')}, got ${describe(value)}`);
  return value;
}
