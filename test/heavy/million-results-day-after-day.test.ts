import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSvcApi } from '../support/api';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import { startSvc } from '../support/run-svc';

/*
 * Issue 35, heavy tier (`npm run test:heavy`; skipped unless SVC_HEAVY=1): two consecutive daily runs of 1,000,000
 * results with half of them failing, in the file store and in PostgreSQL, read back through svc-api. Before the
 * state was stored in pieces, the file store's second run died reading the 500,000-item POA&M state as one string,
 * and PostgreSQL's first run died storing it as one jsonb value. No timing is asserted; the test prints the times.
 */
const HEAVY = process.env.SVC_HEAVY === '1';
const RESULTS = Number(process.env.SVC_HEAVY_RESULTS ?? 1_000_000);
const DAYS = ['2026-11-20T06:00:00Z', '2026-11-21T06:00:00Z'];
const AUDITOR = { 'x-forwarded-user': 'alice@SVC.TEST' };

/** A normalized report of RESULTS results, every other one failing; on day 2, 1% change status (half of them to FAIL, half to PASS). */
function writeReport(file: string, day: number): void {
  const fd = openSync(file, 'w');
  try {
    let batch = `{"schema_version":"1","generated_at":"${DAYS[day]}","source":{"tool":"heavygen","version":"1.0"},"results":[\n`;
    for (let i = 0; i < RESULTS; i++) {
      const failing = (i % 2 === 0) !== (day === 1 && (i % 200 === 1 || i % 200 === 2));
      const id = `KSI-${String.fromCharCode(65 + (Math.floor(i / 100) % 26), 65 + (Math.floor(i / 2600) % 26), 65 + (Math.floor(i / 67600) % 26), 65 + (Math.floor(i / 1757600) % 26))}-${String(i % 100).padStart(2, '0')}`;
      const status = failing ? 'FAIL' : 'PASS';
      batch += `${i === 0 ? '' : ',\n'}${JSON.stringify({ ksi_id: id, status, title: `Check ${i}`, details: failing ? `Setting ${i % 97} differs from the baseline` : 'Matches the baseline', observed_at: DAYS[day], checks: [{ id: `CHK.${i % 1000}`, status }], evidence: { resource: `vm-${i}`, compliant: !failing } })}`;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, `${batch}\n]}`);
  } finally {
    closeSync(fd);
  }
}

(HEAVY ? describe : describe.skip)(`a million results, day after day (${RESULTS} results, half failing)`, () => {
  jest.setTimeout(4 * 60 * 60 * 1000);
  let dir: string;
  let postgres: PostgresServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-heavy-'));
    for (const day of [0, 1]) writeReport(join(dir, `day${day + 1}.json`), day);
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['file', 'postgres'] as const)('records two consecutive runs in the %s store, and svc-api serves them', async (kind) => {
    const env = { SVC_HOME: join(dir, `home-${kind}`), SVC_STORE: kind === 'file' ? '' : postgres.url, NODE_OPTIONS: '--max-old-space-size=8192' };
    for (const [day, at] of DAYS.entries()) {
      const started = Date.now();
      const run = await startSvc(['conmon', 'process', join(dir, `day${day + 1}.json`), '--now', at], { env }).done;
      process.stdout.write(`${kind} store, day ${day + 1}: conmon process exited ${run.status} after ${Math.round((Date.now() - started) / 1000)} s\n`);
      expect([run.status, run.stderr.replace(/^Warning: no signing key given .*\n/, '')]).toEqual([0, '']);
      expect(run.stdout).toContain(`\nRecorded run ${day + 1}: `);
      expect(run.stdout).toContain(`\nPOA&M: ${RESULTS / 2} open `);
    }
    const config = join(dir, `api-${kind}.json`);
    writeFileSync(
      config,
      JSON.stringify({ port: 0, auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } }, roles: { auditor: ['alice@SVC.TEST'] } }),
    );
    const api = await startSvcApi(['--config', config], env);
    try {
      const manifest = (await (await fetch(`${api.url}/auditor/manifest`, { headers: AUDITOR })).json()) as {
        run: { seq: number };
        counts: Record<string, number>;
        artifacts: { name: string; href: string; sha256: string }[];
      };
      expect([manifest.run.seq, manifest.counts.results, manifest.counts.fail]).toEqual([2, RESULTS, RESULTS / 2]);
      const poam = manifest.artifacts.find((a) => a.name === 'poam.json')!;
      const res = await fetch(`${api.url}${poam.href}`, { headers: AUDITOR });
      expect(res.status).toBe(200);
      const hash = createHash('sha256');
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
      expect(`sha256:${hash.digest('hex')}`).toBe(poam.sha256);
    } finally {
      await api.stop();
    }
  });
});
