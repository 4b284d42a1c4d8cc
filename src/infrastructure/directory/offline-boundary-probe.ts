import type { EndpointProbe, ProbeTarget } from '../../domain/directory/boundary-capabilities';
import type { BoundaryProbe } from '../../ports/boundary-probe';

/** The probe of offline (export file) mode: nothing is contacted, every endpoint is "not probed". */
export class OfflineBoundaryProbe implements BoundaryProbe {
  async probe(targets: readonly ProbeTarget[]): Promise<EndpointProbe[]> {
    return targets.map(({ name, url }) => ({ name, url, reachable: null, status: null, latency_ms: null }));
  }
}
