import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpBoundaryProbe } from '../../../src/infrastructure/directory/http-boundary-probe';
import { HttpsTransport } from '../../../src/infrastructure/directory/https-transport';
import { OfflineBoundaryProbe } from '../../../src/infrastructure/directory/offline-boundary-probe';
import { createTestPki, type TestPki } from '../../support/pki';

let dir: string;
let pki: TestPki;
let server: Server;
let host: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-probe-'));
  pki = createTestPki(dir);
  server = createServer({ key: pki.server.keyPem, cert: pki.server.certPem }, (req, res) => {
    res.writeHead(req.url === '/v1.0/$metadata' ? 401 : 200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('HttpBoundaryProbe', () => {
  it('counts any HTTP answer as reachable and a refused connection as not', async () => {
    let t = 0;
    const probe = new HttpBoundaryProbe(new HttpsTransport({ caFile: pki.ca.cert }), { now: () => (t += 7) });
    const results = await probe.probe([
      { name: 'authority', url: `https://${host}/common/v2.0/.well-known/openid-configuration` },
      { name: 'graph', url: `https://${host}/v1.0/$metadata` },
      { name: 'graph', url: 'https://127.0.0.1:1/v1.0/$metadata' },
    ]);
    expect(results).toEqual([
      { name: 'authority', url: `https://${host}/common/v2.0/.well-known/openid-configuration`, reachable: true, status: 200, latency_ms: expect.any(Number) },
      { name: 'graph', url: `https://${host}/v1.0/$metadata`, reachable: true, status: 401, latency_ms: expect.any(Number) },
      { name: 'graph', url: 'https://127.0.0.1:1/v1.0/$metadata', reachable: false, status: null, latency_ms: null, error: 'connect ECONNREFUSED 127.0.0.1:1' },
    ]);
  });

  it('reports an endpoint whose certificate is not trusted as unreachable, with the TLS reason', async () => {
    const [result] = await new HttpBoundaryProbe(new HttpsTransport()).probe([{ name: 'graph', url: `https://${host}/` }]);
    expect(result).toMatchObject({ reachable: false, status: null });
    expect(result.error).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });
});

describe('OfflineBoundaryProbe', () => {
  it('contacts nothing and marks every endpoint not probed', async () => {
    expect(await new OfflineBoundaryProbe().probe([{ name: 'graph', url: 'https://graph.microsoft.us/v1.0/$metadata' }])).toEqual([
      { name: 'graph', url: 'https://graph.microsoft.us/v1.0/$metadata', reachable: null, status: null, latency_ms: null },
    ]);
  });
});
