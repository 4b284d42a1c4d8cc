import { createHash, generateKeyPairSync } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { openBrowser, withPage } from '../support/browser';
import { startPostgres, TEST_PASSWORD, type PostgresServer } from '../support/postgres-server';
import { BIN, ROOT, svc, type SvcRun } from '../support/run-svc';
import { seriesDay, writeRunSeries } from '../support/run-series';
import { editStoredState, readStoredDocument, storedDocumentFile, storedDocumentNames, writeStoredDocument } from '../support/stored-documents';

let tmp: string;
let series: string[];
/** The key the recorded runs' SARs are signed with, so no test but the one about it meets the development key. */
let signingKey: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-conmon-'));
  mkdirSync(join(tmp, 'series-input'));
  series = writeRunSeries(join(tmp, 'series-input'), 50);
  signingKey = join(tmp, 'signing-key.pem');
  writeFileSync(signingKey, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const home = (name: string) => join(tmp, name);
const conmon = (name: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  svc(['conmon', ...args], { env: { SVC_HOME: home(name), SVC_SINK_BACKOFF_MS: '5', SVC_SIGNING_KEY: signingKey, ...env } });
const events = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown> & { kind: string; ksi_id: string | null; summary: string });

/** The CLI as a child process that does not block this one, so listeners in the test can answer it. */
function svcAsync(args: string[], env: NodeJS.ProcessEnv): Promise<SvcRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600', SVC_SIGNING_KEY: signingKey, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ stdout, stderr, status }));
  });
}

describe('svc conmon over 50 generated runs (file store)', () => {
  const sink = () => join(tmp, 'series-events.ndjson');
  let outputs: SvcRun[];
  beforeAll(() => {
    outputs = series.map((file) => conmon('series', ['process', file, '--sink', `ndjson:${sink()}`]));
  }, 180_000);

  it('records every run in order, each once (exit 0)', () => {
    expect(outputs.map((o) => o.status)).toEqual(series.map(() => 0));
    expect(outputs[0].stdout.split('\n').slice(0, 7)).toEqual([
      `Recording ${series[0]} in ${home('series')}/store ...`,
      expect.stringMatching(/^Recorded run 1: [0-9a-f]{12} \(as of 2026-06-01T07:00:00Z\)$/),
      'Source: ScubaGear (contoso.onmicrosoft.com)',
      'KSIs: 41 (PASS 36, WARN 2, FAIL 3)',
      'POA&M: 5 open (5 opened, 0 closed, 0 overdue)',
      'Drift: 0 findings (P1 0, P2 0, P3 0, P4 0)',
      'Events: 6',
    ]);
    const index = JSON.parse(readFileSync(join(home('series'), 'store', 'index.json'), 'utf8')) as { runs: { summary: { seq: number; as_of: string } }[] };
    expect(index.runs.map((r) => r.summary.seq)).toEqual(series.map((_, i) => i + 1));
    expect(index.runs[49].summary.as_of).toBe(`${seriesDay(50)}T07:00:00Z`);
    const again = conmon('series', ['process', series[9], '--sink', `ndjson:${join(tmp, 'again.ndjson')}`]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Already recorded run 10: ');
    expect(events(join(tmp, 'again.ndjson')).map((e) => e.event_id)).toEqual(
      events(sink())
        .filter((e) => (e.run as { seq: number }).seq === 10)
        .map((e) => e.event_id),
    );
  });

  it('opens, keeps, marks overdue and closes POA&M items by the lifecycle rules, one event per change', () => {
    const ia = events(sink()).filter((e) => e.ksi_id === 'KSI-IA-02' && e.kind.startsWith('poam.'));
    expect(ia.map((e) => `${(e.run as { seq: number }).seq} ${e.kind}`)).toEqual(['5 poam.opened', '8 poam.overdue', '13 poam.closed']);
    expect(ia.map((e) => (e.data as { original_detection_date: string }).original_detection_date)).toEqual([seriesDay(5), seriesDay(5), seriesDay(5)]);
    expect((ia[2].data as { completion_date: string }).completion_date).toBe(seriesDay(13));
    const ac = events(sink()).filter((e) => e.ksi_id === 'KSI-AC-02' && e.kind.startsWith('poam.'));
    expect(ac.map((e) => `${(e.run as { seq: number }).seq} ${e.kind}`)).toEqual([
      '20 poam.opened',
      '21 poam.risk-changed',
      '23 poam.overdue',
      '30 poam.closed',
    ]);
    expect(events(sink()).filter((e) => e.ksi_id === 'KSI-ZZ-01' && e.kind === 'poam.opened')).toHaveLength(1);
  });

  it('classifies the drift between consecutive runs', () => {
    const drift = events(sink()).filter((e) => e.kind === 'drift.detected');
    const at = (seq: number) =>
      drift
        .filter((e) => (e.run as { seq: number }).seq === seq)
        .map((e) => `${(e.data as { severity: string }).severity} ${(e.data as { class: string }).class} ${e.ksi_id}`);
    expect(at(5)).toContain('P1 DRIFT-IDENTITY KSI-IA-02');
    expect(at(13)).toContain('P4 DRIFT-SEMANTIC KSI-IA-02');
    expect(at(21)).toContain('P1 DRIFT-AUTHZ KSI-AC-02');
    expect(at(25)).toContain('P3 DRIFT-PROVENANCE null');
    expect(at(30)).toContain('P3 DRIFT-SCHEMA KSI-AU-03');
    expect(drift.every((e) => (e.run as { seq: number }).seq > 1)).toBe(true);
  });

  it('writes the Ongoing Authorization Report of a period as Markdown and JSON', () => {
    const out = join(tmp, 'oa', 'report-q3.md');
    const result = conmon('series', ['export-oa', '--from', seriesDay(4), '--to', seriesDay(14), '--out', out]);
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toBe(`Ongoing Authorization Report written to ${out} and ${join(tmp, 'oa', 'report-q3.json')} (11 runs)\n`);
    const report = JSON.parse(readFileSync(join(tmp, 'oa', 'report-q3.json'), 'utf8'));
    expect(report.runs).toMatchObject({ count: 11, first: { seq: 4 }, last: { seq: 14 } });
    expect(report.poam.opened.map((p: { poam_id: string }) => p.poam_id)).toContain('POAM-KSI-IA-02');
    expect(report.poam.closed.map((p: { poam_id: string; date: string }) => `${p.poam_id} ${p.date}`)).toContain(`POAM-KSI-IA-02 ${seriesDay(13)}`);
    expect(report.poam.overdue.map((p: { poam_id: string; run: number }) => `${p.poam_id} ${p.run}`)).toContain('POAM-KSI-IA-02 8');
    const markdown = readFileSync(out, 'utf8');
    expect(markdown.startsWith('# FedRAMP 20x Ongoing Authorization Report\n\nPeriod: ')).toBe(true);
    expect(markdown).toContain(`| ${seriesDay(5)}T07:00:00Z | 5 | KSI-IA-02 | PASS | FAIL | DRIFT-IDENTITY | P1 |`);
    const printed = conmon('series', ['export-oa', '--from', seriesDay(4), '--to', seriesDay(14)]);
    expect(printed.stdout).toBe(markdown.replace(/Generated: .*\n/, printed.stdout.match(/Generated: .*\n/)?.[0] ?? ''));
  });

  it('runs the ir monitoring commands on the generated runs too', () => {
    const drift = svc(['ir', 'drift-detect', series[3], series[4], '--fail-on', 'P1', '--json']);
    expect(drift.status).toBe(1);
    expect(JSON.parse(drift.stdout).findings).toContainEqual(expect.objectContaining({ ksi_id: 'KSI-IA-02', class: 'DRIFT-IDENTITY', severity: 'P1' }));
    const fresh = svc(['ir', 'freshness', series[49], '--now', `${seriesDay(50)}T12:00:00Z`]);
    expect([fresh.status, fresh.stdout.split('\n')[3]]).toEqual([0, 'Stale: 0']);
    expect(svc(['ir', 'freshness', series[49], '--now', `${seriesDay(52)}T12:00:00Z`]).status).toBe(1);
    const poam = svc(['ir', 'poam-export', series[49], '--format', 'xlsx', '--out', join(tmp, 'run-50.xlsx')]);
    expect(poam.status).toBe(0);
    expect(svc(['ir', 'dashboard', series[49], '--out', join(tmp, 'run-50.html')]).status).toBe(0);
  });

  it('draws the trends of all 50 runs in one self-contained page that Chromium renders without errors', async () => {
    const out = join(tmp, 'trends.html');
    const result = conmon('series', ['dashboard', '--out', out]);
    expect([result.status, result.stdout]).toEqual([0, `Dashboard of 50 runs written to ${out}\n`]);
    const browser: Browser = await openBrowser();
    try {
      await withPage(async (page) => {
        const problems: string[] = [];
        const requests: string[] = [];
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('request', (r) => requests.push(r.url()));
        await page.goto(`file://${out}`);
        expect(await page.locator('table tbody tr').count()).toBe(50);
        expect(await page.locator('h1').innerText()).toBe('Continuous monitoring trends: contoso.onmicrosoft.com');
        await page.screenshot({ path: join(tmp, 'trends.png'), fullPage: true });
        expect(problems).toEqual([]);
        expect(requests).toEqual([`file://${out}`]);
      }, browser);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('svc conmon process: sinks, concurrency and bad input', () => {
  const fixture = 'fixtures/sample-baseline.json';

  it('records the run at --now, which wins over SOURCE_DATE_EPOCH; a report without generated_at is as of it too', () => {
    const bare = join(tmp, 'bare-report.json');
    writeFileSync(bare, JSON.stringify([{ ksi_id: 'KSI-AC-02', status: 'PASS' }]));
    const run = conmon('now', ['process', fixture, '--now', '2026-12-01T06:30:00Z', '--json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).run).toMatchObject({ seq: 1, recorded_at: '2026-12-01T06:30:00Z', as_of: '2026-11-02T14:05:00Z' });
    const second = conmon('now', ['process', bare, '--now', '2026-12-02', '--json']);
    expect(JSON.parse(second.stdout).run).toMatchObject({ seq: 2, recorded_at: '2026-12-02T00:00:00Z', as_of: '2026-12-02T00:00:00Z' });
    expect(JSON.parse(conmon('now-epoch', ['process', bare, '--json']).stdout).run).toMatchObject({ recorded_at: '2026-01-01T00:00:00Z' });
  });

  it('refuses a --now that is not a time, exit 2, recording nothing', () => {
    expect(conmon('bad-now', ['process', fixture, '--now', 'yesterday'])).toEqual({
      stdout: '',
      stderr: 'Error: --now yesterday: expected an ISO-8601 time such as 2026-11-21T09:00:00Z or a date such as 2026-11-21\n',
      status: 2,
    });
    expect(conmon('bad-now', ['process', fixture, '--now', '2027-02-29'])).toMatchObject({
      stderr: 'Error: --now 2027-02-29: not a day of the calendar; write a date such as 2026-11-21\n',
      status: 2,
    });
    expect(existsSync(join(home('bad-now'), 'store'))).toBe(false);
  });

  it('sends every event to a syslog TCP listener (RFC 6587 octet counting), a UDP one and an HTTP collector', async () => {
    const frames: string[] = [];
    const tcp: Server = createServer((socket) => {
      let buffer = Buffer.alloc(0);
      socket.on('data', (d) => {
        buffer = Buffer.concat([buffer, d]);
        for (
          let m = /^(\d+) /.exec(buffer.toString('latin1'));
          m && buffer.length >= m[0].length + Number(m[1]);
          m = /^(\d+) /.exec(buffer.toString('latin1'))
        ) {
          frames.push(buffer.subarray(m[0].length, m[0].length + Number(m[1])).toString('utf8'));
          buffer = buffer.subarray(m[0].length + Number(m[1]));
        }
      });
    });
    const datagrams: string[] = [];
    const udp = createSocket('udp4');
    udp.on('message', (m) => datagrams.push(m.toString('utf8')));
    const bodies: { auth: string | undefined; body: string }[] = [];
    const http: HttpServer = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        bodies.push({ auth: req.headers.authorization, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"Success","code":0}');
      });
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const port = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
      const result = await svcAsync(
        [
          'conmon',
          'process',
          fixture,
          '--sink',
          `syslog+tcp://127.0.0.1:${port(tcp)}`,
          '--sink',
          `syslog+udp://127.0.0.1:${port(udp)}`,
          '--sink',
          `http://127.0.0.1:${port(http)}/services/collector/event`,
        ],
        { SVC_HOME: home('sinks'), SVC_SINK_TOKEN: 'hec-token-123' },
      );
      expect([result.status, result.stderr]).toEqual([0, '']);
      expect(result.stdout).toContain(`- syslog+tcp://127.0.0.1:${port(tcp)}: delivered 4\n`);
      expect(result.stdout).not.toContain('hec-token-123');
      await new Promise((r) => setTimeout(r, 200));
      expect(frames).toHaveLength(4);
      expect(frames[0]).toMatch(
        /^<134>1 2026-11-02T14:05:00Z \S+ svc \d+ run\.recorded \[svc@32473 event_id="[0-9a-f-]{36}" kind="run\.recorded" run="[0-9a-f]{64}"\] \{/,
      );
      expect(frames.map((f) => JSON.parse(f.slice(f.indexOf('] ') + 2)).kind)).toEqual(['run.recorded', 'poam.opened', 'poam.opened', 'poam.opened']);
      expect(frames[1]).toMatch(/^<130>1 /); // local0 + critical: POAM-KSI-AC-02 opened at Critical risk
      expect(datagrams.map((d) => d.split(' ')[5])).toEqual(['run.recorded', 'poam.opened', 'poam.opened', 'poam.opened']);
      expect(bodies).toHaveLength(1);
      expect(bodies[0].auth).toBe('Splunk hec-token-123');
      const hec = bodies[0].body.split('\n').map((l) => JSON.parse(l));
      expect(hec.map((h) => [h.sourcetype, h.source, h.event.kind])).toEqual([
        ['svc:conmon', 'svc', 'run.recorded'],
        ['svc:conmon', 'svc', 'poam.opened'],
        ['svc:conmon', 'svc', 'poam.opened'],
        ['svc:conmon', 'svc', 'poam.opened'],
      ]);
    } finally {
      tcp.close();
      udp.close();
      http.close();
    }
  }, 30_000);

  it('keeps the run when a sink fails (exit 5), and the same command later delivers its events', () => {
    const dead = conmon('dead-sink', ['process', fixture, '--sink', 'syslog+tcp://127.0.0.1:9', '--sink', `ndjson:${join(tmp, 'dead.ndjson')}`]);
    expect(dead.status).toBe(5);
    expect(dead.stdout).toContain('Recorded run 1: ');
    expect(dead.stdout).toContain('- syslog+tcp://127.0.0.1:9: failed after 4 attempts: ');
    expect(dead.stderr).toBe(
      `Error: syslog+tcp://127.0.0.1:9: could not deliver the 4 events of run 1; the run is recorded in ${home('dead-sink')}/store. Fix the sink and run the same command again to send them\n`,
    );
    const retry = conmon('dead-sink', ['process', fixture, '--sink', `ndjson:${join(tmp, 'dead-retry.ndjson')}`]);
    expect(retry.status).toBe(0);
    expect(retry.stdout).toContain('Already recorded run 1: ');
    expect(events(join(tmp, 'dead-retry.ndjson'))).toEqual(events(join(tmp, 'dead.ndjson')));
  });

  it('serializes two processes recording at once: both runs recorded, seq 1 and 2', async () => {
    const env = { SVC_HOME: home('race') };
    const [a, b] = await Promise.all([svcAsync(['conmon', 'process', series[0]], env), svcAsync(['conmon', 'process', series[1]], env)]);
    // The one that waits for the other may say so, when the wait passes a second (a loaded machine).
    const waited = /^(Waiting for the run store lock held by process \d+ on \S+ since \S+ \.\.\.\n)?$/;
    expect([a.status, b.status, a.stderr, b.stderr]).toEqual([0, 0, expect.stringMatching(waited), expect.stringMatching(waited)]);
    const index = JSON.parse(readFileSync(join(home('race'), 'store', 'index.json'), 'utf8')) as { runs: { summary: { seq: number } }[] };
    expect(index.runs.map((r) => r.summary.seq)).toEqual([1, 2]);
  }, 30_000);

  it('refuses a bad sink before recording anything (exit 2)', () => {
    const result = conmon('bad-sink', ['process', fixture, '--sink', 'kafka://broker:9092']);
    expect([result.status, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toBe(
      'Error: --sink kafka://broker:9092: not a sink; use ndjson:<file>, syslog+tcp://host:port, syslog+udp://host:port or https://host/path\n',
    );
    expect(existsSync(join(home('bad-sink'), 'store'))).toBe(false);
  });

  it('names the file and the JSON path of a bad input (exit 3) and records nothing', () => {
    const bad = join(tmp, 'bad-status.json');
    writeFileSync(bad, JSON.stringify([{ ksi_id: 'KSI-AC-02', status: 'GREEN' }]));
    const result = conmon('bad-input', ['process', bad]);
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/^Error: .*bad-status\.json: \[0\]\.status: "GREEN" is not a status; use exactly PASS, WARN or FAIL \(upper case\)\n$/);
    expect(existsSync(join(home('bad-input'), 'store', 'index.json'))).toBe(false);
  });

  it('refuses an unknown store scheme (exit 5) without showing its password', () => {
    const result = conmon('x', ['process', fixture], { SVC_STORE: 'mysql://admin:hunter2@db/svc' });
    expect(result.status).toBe(5);
    expect(result.stderr).toBe('Error: SVC_STORE: mysql://***@db/svc is not a run store; use postgres://user@host/db, or a directory for the file store\n');
  });

  it("detects a stored run's record or evidence bundle changed outside svc (exit 4), naming it", () => {
    expect(conmon('tamper', ['process', fixture]).status).toBe(0);
    const [id] = readdirSync(join(home('tamper'), 'store', 'documents'));
    // The next run's drift is taken against run 1's stored bundle: it is read, and refused.
    const documents = join(home('tamper'), 'store', 'documents', id);
    const bundle = storedDocumentFile(documents, 'evidence-bundle.json');
    const good = readStoredDocument(documents, 'evidence-bundle.json').toString('utf8');
    writeStoredDocument(documents, 'evidence-bundle.json', good.replace('"FAIL"', '"PASS"'));
    const result = conmon('tamper', ['process', 'fixtures/sample-baseline-b.json']);
    expect(result.status).toBe(4);
    expect(result.stderr).toBe(
      `Error: ${bundle}: the document evidence-bundle.json no longer matches the SHA-256 its run's link in the hash chain names; the store was modified outside svc. Restore it from backup\n`,
    );
    writeStoredDocument(documents, 'evidence-bundle.json', good);
    const record = join(home('tamper'), 'store', 'runs', `${id}.json`);
    writeFileSync(record, readFileSync(record, 'utf8').replace('"1"', '"2"'));
    const again = conmon('tamper', ['process', 'fixtures/sample-baseline-b.json']);
    expect(again.status).toBe(4);
    expect(again.stderr).toBe(
      `Error: ${record}: the hash chain does not match the record of run 1 (${id}); the store was modified outside svc. Restore it from backup\n`,
    );
  });

  it('detects a POA&M state edited outside svc (exit 4), naming the file', () => {
    expect(conmon('tamper-state', ['process', fixture]).status).toBe(0);
    const states = join(home('tamper-state'), 'store', 'states');
    const [file] = readdirSync(states);
    const edited = editStoredState(join(home('tamper-state'), 'store'), 1, file.slice(9, 73), (state) => (state.poam[0].status = 'Closed'));
    // The next run moves the lifecycle on from run 1's POA&M state: it is read, and refused.
    const next = conmon('tamper-state', ['process', 'fixtures/sample-baseline-b.json']);
    expect(next.status).toBe(4);
    expect(next.stderr).toBe(
      `Error: ${edited}: the hash chain does not match the POA&M state of run 1 (${file.slice(9, 73)}); the store was modified outside svc. Restore it from backup\n`,
    );
    // The trend dashboard reads only the summaries in the index, which are intact.
    expect(conmon('tamper-state', ['dashboard', '--out', join(tmp, 'tampered-dashboard.html')]).status).toBe(0);
  });

  it('rejects a period that ends before it starts, or is not a date (exit 2)', () => {
    expect(conmon('series', ['export-oa', '--from', '2026-07-01', '--to', '2026-06-01']).stderr).toBe(
      'Error: --from 2026-07-01 is after --to 2026-06-01; give the start of the period first\n',
    );
    const bad = conmon('series', ['export-oa', '--from', 'last week', '--to', '2026-06-01']);
    expect([bad.status, bad.stderr]).toEqual([2, 'Error: --from last week: expected a date (2026-10-01) or a date-time with a zone (2026-10-01T00:00:00Z)\n']);
  });
});

/** The Merkle root a run's manifest names. */
const manifestRoot = (dir: string) =>
  (JSON.parse(readStoredDocument(dir, 'manifest.json').toString('utf8')) as { run: { merkle_root: string } }).run.merkle_root;

describe('svc conmon process stores the documents svc-api serves for the run', () => {
  it('writes the OSCAL documents, the signed SAR and a manifest of their digests into the store with the run', () => {
    const run = conmon('documents', ['process', 'fixtures/sample-baseline.json', '--key', signingKey], { SVC_SIGNING_KEY: '' });
    expect([run.status, run.stderr]).toEqual([0, '']);
    const [id] = readdirSync(join(home('documents'), 'store', 'documents'));
    const dir = join(home('documents'), 'store', 'documents', id);
    const stored = storedDocumentNames(dir);
    expect(stored).toEqual(expect.arrayContaining(['.list.json', 'manifest.json', 'poam.json', 'sap.json', 'sar.json', 'sar.json.dsse.json', 'ssp.json']));
    // One graph per control of the baseline (GET /auditor/graph/{control_id}), its evidence nodes with inclusion proofs.
    // The list routes' pages (GET /auditor/evidence, /findings, /poam): five results, three findings, three POA&M items.
    expect(stored.filter((name) => /^(evidence|findings|poam)\.(\d{6}|index)\.json$/.test(name)).sort()).toEqual([
      'evidence.000000.json',
      'evidence.index.json',
      'findings.000000.json',
      'findings.index.json',
      'poam.000000.json',
      'poam.index.json',
    ]);
    expect(JSON.parse(readStoredDocument(dir, 'findings.index.json').toString('utf8'))).toMatchObject({
      schema: 'svc.paged-list/v1',
      list: 'findings',
      total: 3,
      page_size: 1000,
      pages: [{ first: 'KSI-AC-02', count: 3 }],
    });
    const graphs = stored.filter((name) => name.startsWith('graph.'));
    expect(graphs).toHaveLength(323);
    const ia2 = JSON.parse(readStoredDocument(dir, 'graph.ia-2.json').toString('utf8'));
    expect(ia2).toMatchObject({ control: 'ia-2', run: { seq: 1, id } });
    expect(ia2.nodes.find((n: { type: string }) => n.type === 'evidence').proof).toMatchObject({ merkle_root: manifestRoot(dir) });
    const manifest = JSON.parse(readStoredDocument(dir, 'manifest.json').toString('utf8'));
    const sha = (file: string) => `sha256:${createHash('sha256').update(readStoredDocument(dir, file)).digest('hex')}`;
    expect(manifest.artifacts.map((a: { name: string; href: string; sha256: string }) => [a.name, a.href, a.sha256])).toEqual(
      [
        ['ssp.json', '/auditor/oscal/ssp'],
        ['sar.json', '/auditor/oscal/sar'],
        ['sar.json.dsse.json', '/auditor/oscal/sar?envelope=1'],
        ['sap.json', '/auditor/oscal/sap'],
        ['poam.json', '/auditor/oscal/poam'],
      ].map(([name, href]) => [name, href, sha(name)]),
    );
    expect(manifest.run).toMatchObject({ seq: 1, id });
    // The SAR and its envelope as an assessor saves them verify, signed by the key given.
    const saved = join(tmp, 'saved-sar');
    mkdirSync(saved);
    for (const file of ['sar.json', 'sar.json.dsse.json', 'ssp.json', 'sap.json', 'poam.json']) writeFileSync(join(saved, file), readStoredDocument(dir, file));
    const validate = svc(['ir', 'validate', join(saved, 'sar.json'), '--json']);
    expect(validate.status).toBe(0);
    expect(JSON.parse(validate.stdout)).toMatchObject({ kind: 'sar', canonical: true, algorithm: 'ES256' });
    for (const model of ['ssp', 'sap', 'poam']) {
      expect(svc(['oscal', 'validate', join(saved, `${model}.json`), '--schemas', join(ROOT, '..', 'shared', 'reference', 'oscal', 'schemas')]).status).toBe(0);
    }
  });

  it('creates the development key when no key is given, and says so once', () => {
    const first = conmon('dev-key', ['process', series[0]], { SVC_SIGNING_KEY: '' });
    expect([first.status, first.stderr]).toEqual([
      0,
      `Warning: no signing key given (--key or SVC_SIGNING_KEY): created the development key ${join(home('dev-key'), 'dev-signing-key.pem')}, which signs the SAR of each recorded run; use your own key for a real assessment\n`,
    ]);
    const second = conmon('dev-key', ['process', series[1]], { SVC_SIGNING_KEY: '' });
    expect([second.status, second.stderr]).toEqual([0, '']);
  });

  it('records nothing when the key cannot sign', () => {
    const bad = join(tmp, 'not-a-key.pem');
    writeFileSync(bad, 'not a key');
    const run = conmon('bad-key', ['process', series[0], '--key', bad]);
    expect([run.status, run.stderr]).toEqual([
      5,
      `Error: ${bad}: not a usable signing key (no PEM private key found); give a PEM private key: EC P-256, Ed25519, or RSA of 2048 bits or more\n`,
    ]);
    expect(existsSync(join(home('bad-key'), 'store', 'index.json'))).toBe(false);
  });
});

describe('svc conmon with the PostgreSQL run store (SVC_STORE=postgres://...)', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 90_000);
  afterAll(async () => server?.stop());

  it('records runs, tracks the lifecycle and reports the period like the file store does', async () => {
    const env = { SVC_STORE: server.url, SVC_HOME: home('pg-home'), SVC_SIGNING_KEY: signingKey };
    const file = series.slice(0, 14).map((f) => svc(['conmon', 'process', f], { env }));
    expect(file.map((r) => [r.status, r.stderr])).toEqual(series.slice(0, 14).map(() => [0, '']));
    expect(file[0].stdout).toContain(`Recording ${series[0]} in ${server.url.replace(TEST_PASSWORD, '***')} ...`);
    expect(file.map((r) => r.stdout).join('')).not.toContain(TEST_PASSWORD);
    const fileStore = conmon('series', ['export-oa', '--from', seriesDay(1), '--to', seriesDay(14), '--json']);
    const pgStore = svc(['conmon', 'export-oa', '--from', seriesDay(1), '--to', seriesDay(14), '--json'], { env });
    const strip = (text: string) => ({ ...JSON.parse(text), generated_at: undefined, store: undefined });
    expect(strip(pgStore.stdout)).toEqual(strip(fileStore.stdout));
    expect(existsSync(join(home('pg-home'), 'store'))).toBe(false);
    const [a, b] = await Promise.all([svcAsync(['conmon', 'process', series[14]], env), svcAsync(['conmon', 'process', series[15]], env)]);
    expect([a.status, b.status]).toEqual([0, 0]);
    expect([a.stdout, b.stdout].join('')).toMatch(/Recorded run 15: [\s\S]*Recorded run 16: |Recorded run 16: [\s\S]*Recorded run 15: /);
  }, 120_000);

  it('says which store it cannot reach (exit 5), without the password', () => {
    const result = svc(['conmon', 'process', 'fixtures/sample-baseline.json'], {
      env: { SVC_STORE: `postgresql://svc:${TEST_PASSWORD}@127.0.0.1:9/svc`, SVC_HOME: home('pg-down'), SVC_SIGNING_KEY: signingKey },
    });
    expect(result.status).toBe(5);
    expect(result.stderr).toMatch(
      /^Error: postgresql:\/\/svc:\*\*\*@127\.0\.0\.1:9\/svc: cannot reach the PostgreSQL run store \(.*\); check SVC_STORE and that the server is running\n$/,
    );
  });
});
