import type { EndpointProbe, ProbeTarget } from '../../domain/directory/boundary-capabilities';
import type { BoundaryProbe } from '../../ports/boundary-probe';
import type { HttpsTransport } from './https-transport';
import { networkReason } from './https-transport';

/**
 * Probes endpoints with one GET each, all at once, within a timeout: any HTTP answer (even 401 or 404) means the
 * endpoint is reachable; a refused connection, a TLS failure or silence means it is not. No credentials are sent.
 */
export class HttpBoundaryProbe implements BoundaryProbe {
  constructor(
    private readonly transport: HttpsTransport,
    private readonly options: { timeoutMs?: number; now?: () => number } = {},
  ) {}

  probe(targets: readonly ProbeTarget[]): Promise<EndpointProbe[]> {
    const now = this.options.now ?? (() => performance.now());
    return Promise.all(
      targets.map(async ({ name, url }) => {
        const started = now();
        try {
          const answer = await this.transport.send({
            method: 'GET',
            url,
            headers: { accept: 'application/json' },
            timeoutMs: this.options.timeoutMs ?? 10_000,
          });
          return { name, url, reachable: true, status: answer.status, latency_ms: Math.round(now() - started) };
        } catch (error) {
          return { name, url, reachable: false, status: null, latency_ms: null, error: networkReason(error) };
        }
      }),
    );
  }
}
