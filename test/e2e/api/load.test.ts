import { connect } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { homeWithRecordedRun, startSvcApi, type StartedApi } from '../../support/api';
import { FIXTURES } from '../../support/run-svc';
import { TRUST_PROFILE } from '../../support/trust-center';

const ALICE = { 'x-forwarded-user': 'alice@SVC.TEST' };

describe('svc-api under load, with slow and oversized clients (the built binary on loopback)', () => {
  let home: { home: string; cleanup(): void };
  let dir: string;
  let api: StartedApi;
  beforeAll(async () => {
    home = homeWithRecordedRun();
    dir = mkdtempSync(join(tmpdir(), 'svc-api-load-'));
    const config = join(dir, 'api.json');
    writeFileSync(
      config,
      JSON.stringify({
        port: 0,
        auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
        roles: { auditor: ['alice@SVC.TEST'], operator: ['alice@SVC.TEST'] },
        limits: { requests_per_minute: 1_000_000 },
        graph: { export: join(FIXTURES, 'graph-export.json') },
        log: { file: join(dir, 'access.log') },
      }),
    );
    // The trust center builds the SDR from the offering's profile (a 20x Class B offering).
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: TRUST_PROFILE }));
    api = await startSvcApi(['--config', config], { SVC_HOME: home.home, SVC_CONFIG: join(dir, 'svc.config.json') });
  });
  afterAll(async () => {
    await api.stop();
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/auditor/evidence', '/auditor/findings?status=FAIL', '/auditor/oscal/sar', '/fedramp/sdr'])(
    'GET %s for 3 s at 10 connections: no error, no non-2xx; p50 and p99 recorded',
    async (path) => {
      const result = await autocannon({ url: `${api.url}${path}`, connections: 10, duration: 3, headers: ALICE });
      process.stdout.write(
        `load ${path}: ${Math.round(result.requests.average)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.total} requests\n`,
      );
      expect({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }).toEqual({ errors: 0, timeouts: 0, non2xx: 0 });
      expect(result.requests.total).toBeGreaterThan(100);
    },
  );

  it('GET /fedramp/sdr: the same bytes on every request while 10 connections load it for 3 s', async () => {
    const first = await fetch(`${api.url}/fedramp/sdr`, { headers: ALICE });
    expect(first.status).toBe(200);
    const body = await first.text();
    const result = await autocannon({ url: `${api.url}/fedramp/sdr`, connections: 10, duration: 3, headers: ALICE, expectBody: body });
    expect({ errors: result.errors, non2xx: result.non2xx, mismatches: result.mismatches }).toEqual({ errors: 0, non2xx: 0, mismatches: 0 });
    expect(result.requests.total).toBeGreaterThan(100);
  });

  it('answers a body larger than limits.body_bytes with 413 problem+json, and keeps serving', async () => {
    const big = JSON.stringify({ stale_days: 90, padding: 'x'.repeat(2 * 1024 * 1024) });
    const res = await fetch(`${api.url}/survey/run`, { method: 'POST', headers: { ...ALICE, 'Content-Type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(((await res.json()) as { detail: string }).detail).toBe('the request body is larger than 1048576 bytes (limits.body_bytes); send less');
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
  });

  it('closes a client that sends its headers too slowly (408 after the 10 s header timeout), and keeps serving others', async () => {
    const { port } = new URL(api.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    const started = Date.now();
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 1000);
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
    const at = await closed;
    clearInterval(drip);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(at - started).toBeGreaterThanOrEqual(9_000);
    expect(at - started).toBeLessThan(13_000);
  }, 20_000);
});
