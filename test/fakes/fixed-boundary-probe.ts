import type { EndpointProbe, ProbeTarget } from '../../src/domain/directory/boundary-capabilities';
import type { BoundaryProbe } from '../../src/ports/boundary-probe';

/** Answers each endpoint name with a fixed finding (reachable by default); records the targets it was given. */
export class FixedBoundaryProbe implements BoundaryProbe {
  readonly probed: ProbeTarget[][] = [];

  constructor(private readonly down: Record<string, string> = {}) {}

  async probe(targets: readonly ProbeTarget[]): Promise<EndpointProbe[]> {
    this.probed.push([...targets]);
    return targets.map(({ name, url }) =>
      this.down[name] === undefined
        ? { name, url, reachable: true, status: 200, latency_ms: 12 }
        : { name, url, reachable: false, status: null, latency_ms: null, error: this.down[name] },
    );
  }
}
