import type { InjectionToken } from 'tsyringe';
import type { EndpointProbe, ProbeTarget } from '../domain/directory/boundary-capabilities';

/**
 * Checks whether endpoints answer. Never throws for an endpoint that does not answer: that is the result
 * (`reachable: false` with the reason). An offline probe answers `reachable: null` (not probed) for each target.
 */
export interface BoundaryProbe {
  probe(targets: readonly ProbeTarget[]): Promise<EndpointProbe[]>;
}

export const BOUNDARY_PROBE: InjectionToken<BoundaryProbe> = Symbol('BoundaryProbe');
