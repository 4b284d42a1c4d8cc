#!/usr/bin/env node
/**
 * The trust center's access log under a hostile client (CDS-TRC-ACL; docs/performance.md, "Access log"): a store
 * holding a day of 1,000,000 logged requests (one no-role principal's denials, 95%, and 50 agency users' reads, 5%)
 * and six months of ordinary days before it, then the built svc-api serving GET /fedramp/access from it while
 * `/health` is asked every 20 ms and the hostile client goes on being refused.
 *
 *   node scripts/bench/access-log.js [--events N] [--dist DIR] [--bin FILE] [--seconds S] [--store postgres://…]
 *
 * --dist and --bin run another build (an earlier svc's dist/ and bin/svc-api.js) on the same input: its store's
 * appendAccess writes the day however that svc does. --store runs on PostgreSQL (an empty database) instead of a
 * file store. Prints what it measured: the write time and bytes on disk, the first and later /fedramp/access answers
 * (latency percentiles, body bytes), /health's latency percentiles while /fedramp/access is hammered by 4 clients,
 * and svc-api's peak RSS (VmHWM). Needs `npm run build` first.
 */
'use strict';
require('reflect-metadata');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const EVENTS = Number(arg('events', '1000000'));
const DIST = path.resolve(arg('dist', path.join(ROOT, 'dist')));
const BIN = path.resolve(arg('bin', path.join(ROOT, 'bin', 'svc-api.js')));
const SECONDS = Number(arg('seconds', '10'));
const STORE = arg('store', undefined);
/** The measured day: svc-api's clock is fixed to its noon (SOURCE_DATE_EPOCH). */
const DAY = '2027-01-20';
const HOSTILE = 'mallory@EVIL.TEST';

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const addDays = (day, n) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const time = (day, second) => `${day}T${new Date(second * 1000).toISOString().slice(11, 19)}Z`;

/** The day's events in logging order, a batch of 100 at a time: 95% the hostile principal's denials. */
function* batches(day, events) {
  let batch = [];
  for (let i = 0; i < events; i += 1) {
    const second = Math.floor((i / events) * 86_400);
    batch.push(
      i % 20 === 0
        ? {
            at: time(day, second),
            principal: `user${i % 50}@examples.gov`,
            agency: 'Department of Examples',
            document: ['cpo', 'sdr', 'vdr', 'ocr'][i % 4],
            outcome: 'served',
            status: 200,
          }
        : { at: time(day, second), principal: HOSTILE, document: 'cpo', outcome: 'denied', status: 403 },
    );
    if (batch.length === 100) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function openStore(dir) {
  if (STORE) return new (require(path.join(DIST, 'infrastructure', 'store', 'postgres-run-store.js')).PostgresRunStore)({ url: STORE });
  return new (require(path.join(DIST, 'infrastructure', 'store', 'file-run-store.js')).FileRunStore)({ dir });
}

function duSize(dir) {
  let total = 0;
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) total += fs.statSync(path.join(dir, name)).size;
  return total;
}

function start(home, config) {
  const child = spawn(process.execPath, [BIN, '--config', config], {
    env: { ...process.env, SVC_HOME: home, SVC_STORE: STORE ?? '', SOURCE_DATE_EPOCH: String(Date.parse(`${DAY}T12:00:00Z`) / 1000) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /svc-api listening on (\S+)/.exec(stderr);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`svc-api exited ${code}: ${stderr}`)));
  });
}

/**
 * `clients` clients asking GET /fedramp/access (the default 185 days) back to back for SECONDS, a hostile client
 * refused meanwhile, and /health asked every 20 ms: the latencies of both.
 */
async function hammered(url, headers, clients) {
  let running = true;
  const health = [];
  const access = [];
  let denials = 0;
  const prober = (async () => {
    while (running) {
      const t = performance.now();
      const res = await fetch(`${url}/health`).catch(() => undefined);
      await res?.arrayBuffer();
      health.push(res?.status === 200 ? performance.now() - t : Infinity);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  let failed = 0;
  const hammer = async () => {
    while (running) {
      const r = await timed(`${url}/fedramp/access`, headers).catch(() => ({ status: 0, ms: 0 }));
      if (r.status === 200) access.push(r.ms);
      else failed += 1;
    }
  };
  const hostile = async () => {
    while (running) {
      const res = await fetch(`${url}/fedramp/cpo`, { headers: { 'x-forwarded-user': HOSTILE } }).catch(() => undefined);
      await res?.arrayBuffer();
      denials += 1;
    }
  };
  const all = [...Array.from({ length: clients }, hammer), hostile()];
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  running = false;
  await Promise.all([prober, ...all]);
  console.log(
    `${SECONDS} s of ${clients} client(s) asking GET /fedramp/access (185 days) back to back, a hostile client refused ${denials.toLocaleString('en-US')} times meanwhile:`,
  );
  console.log(
    `  /fedramp/access: ${access.length} answers${failed ? ` (${failed} failed: no 200 or connection reset)` : ''}, p50 ${ms(pct(access, 50))}, p99 ${ms(pct(access, 99))}, max ${ms(Math.max(...access))}`,
  );
  console.log(`  /health every 20 ms: ${health.length} answers, p50 ${ms(pct(health, 50))}, p99 ${ms(pct(health, 99))}, max ${ms(Math.max(...health))}`);
}

function peakRss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

async function timed(url, headers) {
  const t = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t, bytes: body.byteLength };
}

async function main() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-access-'));
  const store = openStore(path.join(home, 'store'));
  try {
    // Six months of ordinary days: 200 reads a day by 20 agency users.
    for (let d = 184; d >= 1; d -= 1) {
      const day = addDays(DAY, -d);
      await store.appendAccess(
        Array.from({ length: 200 }, (_, i) => ({
          at: time(day, i * 400),
          principal: `user${i % 20}@examples.gov`,
          agency: 'Department of Examples',
          document: 'cpo',
          outcome: 'served',
          status: 200,
        })),
      );
    }
    const written = performance.now();
    for (const batch of batches(DAY, EVENTS)) await store.appendAccess(batch);
    const writeMs = performance.now() - written;
    const accessDir = path.join(home, 'store', 'access');
    const files = STORE
      ? {}
      : Object.fromEntries(
          fs
            .readdirSync(accessDir)
            .filter((n) => n.startsWith(DAY))
            .map((n) => [n, fs.statSync(path.join(accessDir, n)).size]),
        );
    console.log(
      `events: ${EVENTS.toLocaleString('en-US')} on ${DAY} (95% denials of ${HOSTILE}) + 184 days × 200, written in batches of 100 in ${(writeMs / 1000).toFixed(1)} s (${Math.round(EVENTS / (writeMs / 1000)).toLocaleString('en-US')} events/s)`,
    );
    if (!STORE)
      console.log(
        `on disk for ${DAY}: ${Object.entries(files)
          .map(([n, b]) => `${n} ${mib(b)}`)
          .join(', ')}; access/ in all ${mib(duSize(accessDir))}`,
      );
    await store.close();

    const config = path.join(home, 'api.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        port: 0,
        auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
        roles: { operator: ['bob@SVC.TEST'] },
        limits: { requests_per_minute: 100_000_000 },
        log: { level: 'error', file: path.join(home, 'api.log') },
      }),
    );
    const api = await start(home, config);
    const bob = { 'x-forwarded-user': 'bob@SVC.TEST' };
    try {
      const first = await timed(`${api.url}/fedramp/access`, bob);
      const day = await timed(`${api.url}/fedramp/access?from=${DAY}&to=${DAY}`, bob);
      console.log(`svc-api RSS after start: ${mib(peakRss(api.child.pid))}`);
      console.log(
        `first GET /fedramp/access (185 days, cold): ${first.status} in ${ms(first.ms)}, ${first.bytes} B; the day alone: ${day.status} in ${ms(day.ms)}`,
      );

      const idle = [];
      for (let i = 0; i < 50; i += 1) {
        const t = performance.now();
        await (await fetch(`${api.url}/health`)).arrayBuffer();
        idle.push(performance.now() - t);
      }
      console.log(`/health idle: p50 ${ms(pct(idle, 50))}, p99 ${ms(pct(idle, 99))}`);
      for (const clients of [1, 4]) await hammered(api.url, bob, clients);
      console.log(`svc-api peak RSS (VmHWM): ${mib(peakRss(api.child.pid))}`);
    } finally {
      const exited = new Promise((resolve) => api.child.on('exit', resolve));
      api.child.kill('SIGTERM');
      await exited;
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
