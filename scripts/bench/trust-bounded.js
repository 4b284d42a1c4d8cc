#!/usr/bin/env node
'use strict';
/**
 * The trust center's bounded work (docs/performance.md, "Trust center: bounded work per request"): a run store of N
 * runs of R results, each frozen by an OCR, served by the built svc-api.
 *   node scripts/bench/trust-bounded.js record <dir> [--runs 18] [--results 20000] [--root <svc checkout>]
 *   node scripts/bench/trust-bounded.js measure <dir> [--root <svc checkout>] [--lookups 20]
 *   node scripts/bench/trust-bounded.js index - [--results 1000000]
 * `record` writes the reports (the bench generator's, a few results changed per run so every run has entries of its
 * own), records each with `svc conmon process` and freezes it with `svc fedramp ocr`. `measure` starts svc-api on the
 * store and measures, one request at a time: GET /fedramp/evidence/<random hash> (the first after start, then the
 * others), a hit in the latest run and in the oldest frozen run; then every snapshot's SDR (`?snapshot=<period end>`)
 * asked for at once, twice, while /health is asked every 20 ms; svc-api's peak RSS. `--root` runs another checkout's
 * build (the code before a change). `index` makes the stored evidence index of that many random content hashes as
 * `conmon process` does (evidenceIndexSources) and times it, and a lookup's search of one bucket. Prints one JSON object.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { generate } = require('./generate-report.js');

const [phase, dir, ...rest] = process.argv.slice(2);
const option = (name, fallback) => {
  const at = rest.indexOf(`--${name}`);
  return at === -1 ? fallback : rest[at + 1];
};
const ROOT = path.resolve(option('root', path.join(__dirname, '..', '..')));
const HOME = path.join(dir ?? '', '.svc');
const DAY_MS = 86_400_000;
const FIRST = Date.parse('2026-01-05T00:00:00Z');
const dayOf = (k) => new Date(FIRST + 7 * (k - 1) * DAY_MS).toISOString().slice(0, 10);
const HEADERS = { 'x-forwarded-user': 'bench@SVC.TEST' };

function svc(args) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...args], {
    cwd: dir,
    env: { ...process.env, SVC_HOME: HOME, SVC_STORE: '' },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return Date.now() - started;
}

function record() {
  const runs = Number(option('runs', 18));
  const results = Number(option('results', 20000));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'svc.config.json'),
    JSON.stringify({
      fedramp: {
        type: '20x',
        class: 'B',
        fedramp_id: 'FR2611250001',
        package_uri: 'https://trust.example.com/fedramp/cpo.json',
        evidence_base_uri: 'https://trust.example.com/fedramp',
      },
    }),
  );
  const base = path.join(dir, 'base.json');
  generate(results, base);
  const report = JSON.parse(fs.readFileSync(base, 'utf8'));
  const times = [];
  for (let k = 1; k <= runs; k++) {
    const day = dayOf(k);
    // Every 50th result, offset by the run, carries evidence of this run alone.
    const changed = report.results.map((r, i) => (i % 50 === k % 50 ? { ...r, evidence: { ...r.evidence, value: r.evidence.value + k * 1e7 } } : r));
    const file = path.join(dir, `run-${String(k).padStart(2, '0')}.json`);
    fs.writeFileSync(file, JSON.stringify({ ...report, generated_at: `${day}T00:00:00Z`, results: changed }));
    const conmon = svc(['conmon', 'process', file]);
    const ocr = svc([
      'fedramp',
      'ocr',
      '--from',
      new Date(Date.parse(day) - 6 * DAY_MS).toISOString().slice(0, 10),
      '--to',
      day,
      '--now',
      `${day}T12:00:00Z`,
      '--out',
      path.join(dir, `ocr-${day}.json`),
    ]);
    times.push({ run: k, conmon_ms: conmon, ocr_ms: ocr });
    fs.rmSync(file);
  }
  console.log(JSON.stringify({ phase: 'record', root: ROOT, runs, results, times }, null, 1));
}

function get(port, route, headers = HEADERS) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    http
      .get({ host: '127.0.0.1', port, path: route, headers, agent: false }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - start) / 1e6, body: Buffer.concat(chunks), headers: res.headers }),
        );
      })
      .on('error', (error) => resolve({ status: 0, ms: Number(process.hrtime.bigint() - start) / 1e6, body: Buffer.from(String(error)), headers: {} }));
  });
}

function start() {
  const config = path.join(dir, 'svc-api.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      port: 0,
      auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
      roles: { auditor: ['bench@SVC.TEST'] },
      limits: { requests_per_minute: 100_000_000 },
      log: { file: path.join(dir, 'svc-api.log') },
    }),
  );
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc-api.js'), '--config', config], {
    cwd: dir,
    env: { ...process.env, SVC_HOME: HOME, SVC_STORE: '', SVC_CONFIG: path.join(dir, 'svc.config.json') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`svc-api exited ${code}: ${stderr}`)));
  });
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  return { n: sorted.length, p50: +at(0.5).toFixed(1), p99: +at(0.99).toFixed(1), max: +sorted.at(-1).toFixed(1) };
};

async function measure() {
  const lookups = Number(option('lookups', 20));
  const index = JSON.parse(fs.readFileSync(path.join(HOME, 'store', 'index.json'), 'utf8'));
  const ids = index.runs.map((r) => r.summary.id);
  const pageOf = (id) => JSON.parse(fs.readFileSync(path.join(HOME, 'store', 'documents', id, 'evidence.000000.json'), 'utf8'));
  // Result 1 changed in run 1 only (1 % 50 === 1); result k % 50 in run k.
  const onlyIn = (k) => pageOf(ids[k - 1])[k % 50].content_hash.slice('sha256:'.length);
  const { child, port } = await start();
  let peak = 0;
  const poll = setInterval(() => {
    try {
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024);
    } catch {
      /* gone */
    }
  }, 50);
  try {
    const random = () => require('node:crypto').randomBytes(32).toString('hex');
    const misses = [];
    for (let i = 0; i < lookups; i++) misses.push(await get(port, `/fedramp/evidence/${random()}`));
    const hitLatest = await get(port, `/fedramp/evidence/${onlyIn(ids.length)}`);
    const hitOldest = await get(port, `/fedramp/evidence/${onlyIn(1)}`);
    const snapshots = ids.map((_, i) => dayOf(i + 1));
    const latencies = [];
    const healthFailures = [];
    let loading = true;
    const health = (async () => {
      while (loading) {
        const r = await get(port, '/health', {});
        latencies.push(r.ms);
        if (r.status !== 200) healthFailures.push(r.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const rounds = [];
    for (let round = 0; round < 2; round++) {
      const started = Date.now();
      const answers = await Promise.all(snapshots.map((s) => get(port, `/fedramp/sdr?snapshot=${s}`)));
      rounds.push({
        wall_ms: Date.now() - started,
        statuses: Object.fromEntries([...new Set(answers.map((a) => a.status))].map((s) => [s, answers.filter((a) => a.status === s).length])),
        request_ms: stats(answers.map((a) => a.ms)),
        retry_after: [...new Set(answers.filter((a) => a.status === 503).map((a) => a.headers['retry-after']))],
        problems: [...new Set(answers.filter((a) => a.status !== 200).map((a) => a.body.toString('utf8').slice(0, 200)))].slice(0, 3),
      });
    }
    loading = false;
    await health;
    console.log(
      JSON.stringify(
        {
          phase: 'measure',
          root: ROOT,
          runs: ids.length,
          evidence: {
            first_miss_ms: +misses[0].ms.toFixed(1),
            later_misses_ms: stats(misses.slice(1).map((m) => m.ms)),
            statuses: [...new Set(misses.map((m) => m.status))],
            hit_latest: { status: hitLatest.status, ms: +hitLatest.ms.toFixed(1) },
            hit_oldest_frozen: { status: hitOldest.status, ms: +hitOldest.ms.toFixed(1) },
          },
          snapshots: { rounds, health: { ...stats(latencies), failures: healthFailures.length } },
          peak_rss_mib: +(peak / 2 ** 20).toFixed(0),
        },
        null,
        1,
      ),
    );
  } finally {
    clearInterval(poll);
    child.kill('SIGTERM');
  }
}

/** The stored index of `--results` random hashes: its size, how long making it takes, and a bucket's search. */
function index() {
  require(path.join(ROOT, 'node_modules', 'reflect-metadata'));
  const { evidenceIndexSources } = require(path.join(ROOT, 'dist', 'application', 'conmon', 'evidence-index-sources.js'));
  const { bucketOf, positionsInBucket } = require(path.join(ROOT, 'dist', 'domain', 'trust', 'evidence-index.js'));
  const n = Number(option('results', 1_000_000));
  const crypto = require('node:crypto');
  const hashes = Array.from({ length: n }, (_, i) => crypto.createHash('sha256').update(`entry ${i}`).digest('hex'));
  const started = process.hrtime.bigint();
  const sources = evidenceIndexSources({ length: n, hashAt: (i) => hashes[i] });
  const header = JSON.parse(sources[0].chunks[0]);
  const buckets = sources.slice(1).map((source) => [...source.chunks][0]);
  const made = Number(process.hrtime.bigint() - started) / 1e6;
  const sizes = buckets.map((b) => b.length);
  const probes = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? hashes[(i * 7919) % n] : crypto.randomBytes(32).toString('hex')));
  const searchStarted = process.hrtime.bigint();
  let found = 0;
  for (const hex of probes) {
    const bucket = bucketOf(hex, header.bucket_bits);
    found += positionsInBucket(buckets[bucket], hex, { bucket, bits: header.bucket_bits, entries: n, what: 'bench' }).length;
  }
  const search = Number(process.hrtime.bigint() - searchStarted) / 1e3 / probes.length;
  console.log(
    JSON.stringify(
      {
        phase: 'index',
        results: n,
        header,
        documents: sources.length,
        bytes: sizes.reduce((a, b) => a + b, 0),
        bucket_bytes: { min: Math.min(...sizes), max: Math.max(...sizes) },
        made_ms: +made.toFixed(0),
        search_us: +search.toFixed(1),
        found,
      },
      null,
      1,
    ),
  );
}

if (!dir || !['record', 'measure', 'index'].includes(phase)) {
  console.error('usage: trust-bounded.js record|measure|index <dir> [--runs N] [--results N] [--root <svc checkout>] [--lookups N]');
  process.exit(2);
}
(phase === 'record' ? Promise.resolve().then(record) : phase === 'index' ? Promise.resolve().then(index) : measure()).catch((error) => {
  console.error(error.stack ?? String(error));
  process.exit(1);
});
