import { inject, injectable } from 'tsyringe';
import {
  BOUNDARY_AS_OF,
  type BoundaryEnvironment,
  type BoundaryGap,
  boundaryEndpoints,
  boundaryGaps,
  type EndpointProbe,
} from '../../domain/directory/boundary-capabilities';
import { InvalidInputError } from '../../domain/errors';
import { describe } from '../../domain/encoding/json-values';
import { BOUNDARY_PROBE, type BoundaryProbe } from '../../ports/boundary-probe';
import { readEnvironment } from './probe-boundary';

export interface ListBoundaryGapsInput {
  environment: unknown;
  /** Feature ids the system needs (docs/graph.md lists them). */
  required: unknown;
  /** Probe the endpoints now, so unreachable ones become gaps; default false. */
  probe?: unknown;
  /** JSON path of the input in messages; default `query`. */
  at?: string;
}

export interface ListBoundaryGapsResult {
  environment: BoundaryEnvironment;
  as_of: string;
  required: string[];
  /** Required features with no gap. */
  satisfied: string[];
  gaps: BoundaryGap[];
  /** The probe's findings when `probe` was true; empty otherwise. */
  endpoints: EndpointProbe[];
}

/**
 * Required features an environment lacks (GET /boundary/gaps): unknown to svc, not offered, not confirmed by the
 * sources, or (with probe) unreachable now. Throws InvalidInputError (invalid-boundary-request) for bad input.
 */
@injectable()
export class ListBoundaryGaps {
  constructor(@inject(BOUNDARY_PROBE) private readonly prober: BoundaryProbe) {}

  async execute(input: ListBoundaryGapsInput): Promise<ListBoundaryGapsResult> {
    const at = input.at ?? 'query';
    const environment = readEnvironment(input.environment, `${at}.environment`);
    const required = input.required;
    if (!Array.isArray(required) || required.length === 0)
      throw new InvalidInputError(
        'invalid-boundary-request',
        `${at}.required: expected a non-empty list of feature ids, got ${describe(required)}; e.g. ["conditional-access", "privileged-identity-management"]`,
      );
    required.forEach((id, i) => {
      if (typeof id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(id))
        throw new InvalidInputError(
          'invalid-boundary-request',
          `${at}.required[${i}]: expected a feature id in kebab case, got ${describe(id)}; e.g. "conditional-access"`,
        );
    });
    if (input.probe !== undefined && typeof input.probe !== 'boolean')
      throw new InvalidInputError('invalid-boundary-request', `${at}.probe: expected true or false, got ${describe(input.probe)}`);
    const endpoints = input.probe === true ? await this.prober.probe(boundaryEndpoints(environment)) : [];
    const ids = [...new Set(required as string[])];
    const gaps = boundaryGaps(environment, ids, endpoints);
    const missing = new Set(gaps.map((g) => g.feature));
    return { environment, as_of: BOUNDARY_AS_OF, required: ids, satisfied: ids.filter((id) => !missing.has(id)), gaps, endpoints };
  }
}
