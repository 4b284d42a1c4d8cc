#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: the performance targets of DESIGN §11, each as a ratio against a floor measured in the
 * same run on the same machine (docs/performance.md says what each floor is).
 *   node scripts/bench.js [--quick] [--runs N] [--only startup,oscal,fedramp,fedramp-sdr,conmon-vuln,pipeline,diff,api,trust,scale,agency]
 * --quick skips the million-result runs. Each timing is the median of N runs (default 3), svc and floor
 * taking turns so that a slow spell of the machine hits both. Peak RSS is read from /proc (VmHWM).
 * agency (issue 37): `svc agency pull` of N loopback trust centers (BENCH_AGENCY_PROVIDERS, default 50, --quick 10;
 *   SDRs of 46 KSIs × BENCH_AGENCY_EVIDENCE entries, default 1,000, --quick 100) into an empty store and with nothing
 *   changed, against scripts/bench/agency-floor.js; `svc agency status` over BENCH_AGENCY_STATUS providers (default
 *   500, --quick 100) of 12 pulls each, and over a fifth of them.
 *
 * Issue 35's daily-run benches run only when named (they take from minutes to hours here, and start a throwaway
 * PostgreSQL server; without its binaries their PostgreSQL rows say so and are skipped):
 *   node scripts/bench.js [--quick] [--runs N] [--days D] --only daily-bytes,sdr-days,conmon-scale
 * daily-bytes: bytes a daily run with 1% of results changed adds to the file store and to PostgreSQL, against the first
 *   run's (BENCH_DAILY_RESULTS, default 100,000, --quick 10,000; BENCH_DAILY_DAYS, default 14, --quick 5).
 * sdr-days: `fedramp sdr` with D recorded days against 1 (BENCH_SDR_RESULTS, default 2,000; --days D, default 30,
 *   --quick 10).
 * conmon-scale: `conmon process` of N results into an empty store against `ir auditor-bundle`, and a second run with 1%
 *   changed against reading and parsing the report (BENCH_CONMON_RESULTS, default 1,000,000, --quick 100,000).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { generate } = require('./bench/generate-report');
const daily = require('./bench/daily-runs');
const agencyData = require('./bench/agency');

const ROOT = path.join(__dirname, '..');
const DATA = path.join(ROOT, 'bench-data');
const SVC = path.join(ROOT, 'bin', 'run.js');
const FLOOR = path.join(__dirname, 'bench', 'floor.js');
const AGENCY_FLOOR = path.join(__dirname, 'bench', 'agency-floor.js');
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 3;
/** --only startup,oscal runs just those benches. */
const ONLY = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : undefined;
/** Benches that run only when --only names them. */
const NAMED_ONLY = new Set(['daily-bytes', 'sdr-days', 'conmon-scale']);
const wanted = (bench) => (ONLY === undefined ? !NAMED_ONLY.has(bench) : ONLY.has(bench));
/** --days D: the days of the sdr-days bench. */
const DAYS = args.includes('--days') ? Number(args[args.indexOf('--days') + 1]) : undefined;
if (DAYS !== undefined && !(Number.isInteger(DAYS) && DAYS >= 2)) throw new Error('--days wants a whole number of days, 2 or more');

/**
 * Runs a command; resolves with wall time (ms) and peak resident memory (bytes). `exitCodes`: the exit codes that mean
 * it ran (`svc agency status` exits 1 when something is to act on); any other rejects.
 */
function measure(command, argv, env = {}, exitCodes = [0]) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let peak = 0;
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
      } catch {
        /* the process has just ended */
      }
    }, 10);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (!exitCodes.includes(code)) reject(new Error(`${command} ${argv.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ ms, peak });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs each of the commands `runs` times, taking turns; returns median ms and max peak per command. */
async function alternate(runs, commands) {
  const results = commands.map(() => ({ ms: [], peak: 0 }));
  for (let r = 0; r < runs; r++) {
    for (const [i, c] of commands.entries()) {
      if (c.before) c.before();
      const { ms, peak } = await measure(c.command, c.args, c.env, c.exitCodes);
      results[i].ms.push(ms);
      results[i].peak = Math.max(results[i].peak, peak);
    }
  }
  return results.map((x) => ({ ms: median(x.ms), peak: x.peak }));
}

function report(n, variant) {
  const target = path.join(DATA, `report-${n}${variant === 'b' || variant === 'v' ? `-${variant}` : ''}.json`);
  if (!fs.existsSync(target)) {
    process.stderr.write(`generating ${path.relative(ROOT, target)} (${n} results) ...\n`);
    generate(n, target, variant);
  }
  return target;
}

function dirBytes(dir) {
  return fs.readdirSync(dir).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
}

const rows = [];
const row = (bench, what, svc, floor, ratio, target, ok) => rows.push({ bench, what, svc, floor, ratio, target, ok });
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;
const gb = (bytes) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

async function pipeline() {
  const sizes = QUICK ? [100_000] : [100_000, 1_000_000];
  const times = {};
  for (const n of sizes) {
    const input = report(n);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
    const bundle = path.join(out, 'bundle');
    const floorOut = path.join(out, 'floor');
    const clean = () => fs.rmSync(bundle, { recursive: true, force: true });
    clean();
    await measure(process.execPath, [SVC, 'ir', 'auditor-bundle', input, '--out-dir', bundle]); // warm the page cache
    const bytes = dirBytes(bundle);
    const [svc, floor] = await alternate(n >= 1_000_000 ? RUNS : RUNS + 2, [
      { command: process.execPath, args: [SVC, 'ir', 'auditor-bundle', input, '--out-dir', bundle], before: clean },
      {
        command: process.execPath,
        args: [FLOOR, 'bundle', input, floorOut, String(bytes)],
        before: () => fs.rmSync(floorOut, { recursive: true, force: true }),
      },
    ]);
    fs.rmSync(out, { recursive: true, force: true });
    times[n] = svc.ms;
    const label = n >= 1_000_000 ? '1M' : `${n / 1000}k`;
    const ratio = svc.ms / floor.ms;
    row(
      'pipeline',
      `ir auditor-bundle, ${label} results`,
      secs(svc.ms),
      secs(floor.ms),
      `${ratio.toFixed(2)}×`,
      n >= 1_000_000 ? '≤ 2.0×' : '',
      n >= 1_000_000 ? ratio <= 2 : undefined,
    );
    const inputSize = fs.statSync(input).size;
    const rss = svc.peak / inputSize;
    row(
      'pipeline',
      `peak RSS, ${label} (input ${gb(inputSize)})`,
      gb(svc.peak),
      gb(floor.peak),
      `${rss.toFixed(2)}× input`,
      n >= 1_000_000 ? '≤ 4× input' : '',
      n >= 1_000_000 ? rss <= 4 : undefined,
    );
  }
  if (times[1_000_000]) {
    const scale = times[1_000_000] / times[100_000];
    row('pipeline', 't(1M) / t(100k)', '', '', scale.toFixed(2), '≤ 11', scale <= 11);
  }
}

async function startup() {
  const runs = 15;
  const [node, version, list] = await alternate(runs, [
    { command: process.execPath, args: ['-e', '0'] },
    { command: process.execPath, args: [SVC, '--version'] },
    { command: process.execPath, args: [SVC, 'ksi', 'list'] },
  ]);
  for (const [what, r] of [
    ['svc --version', version],
    ['svc ksi list', list],
  ]) {
    const ratio = r.ms / node.ms;
    row('startup', `${what} vs node -e 0`, `${r.ms.toFixed(0)} ms`, `${node.ms.toFixed(0)} ms`, `${ratio.toFixed(2)}×`, '≤ 3×', ratio <= 3);
  }
}

async function diff() {
  const n = QUICK ? 100_000 : 1_000_000;
  const a = report(n);
  const b = report(n, 'b');
  const [svc, floor] = await alternate(RUNS, [
    { command: process.execPath, args: [SVC, 'ir', 'diff', a, b] },
    { command: process.execPath, args: [FLOOR, 'parse', a, b] },
  ]);
  const ratio = svc.ms / floor.ms;
  row(
    'diff',
    `ir diff of two ${n >= 1_000_000 ? '1M' : '100k'} runs vs parsing both`,
    secs(svc.ms),
    secs(floor.ms),
    `${ratio.toFixed(2)}×`,
    '≤ 2.0×',
    ratio <= 2,
  );
}

/**
 * DESIGN §11 oscal: whole-process `svc oscal validate` of the largest example SSP against `node` parsing it, with
 * the precompiled-validator cache warm (the target) and cold (every run compiles: what the cache saves).
 */
async function oscal() {
  const examples = path.join(ROOT, '..', 'shared', 'reference', 'oscal', 'examples');
  const schemas = path.join(ROOT, '..', 'shared', 'reference', 'oscal', 'schemas');
  if (!fs.existsSync(examples)) {
    row('oscal', 'skipped: ../shared/reference/oscal is missing', '', '', '', '≤ 3×', undefined);
    return;
  }
  const ssps = fs
    .readdirSync(examples)
    .filter((f) => f.startsWith('ssp'))
    .map((f) => path.join(examples, f));
  const largest = ssps.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  const cache = path.join(DATA, 'oscal-cache');
  const cold = path.join(DATA, 'oscal-cache-cold');
  const env = { SVC_OSCAL_SCHEMAS: schemas, SVC_CACHE_DIR: cache };
  await measure(process.execPath, [SVC, 'oscal', 'validate', largest], env); // fills the cache
  const runs = 15;
  const [node, warm, compiling] = await alternate(runs, [
    { command: process.execPath, args: ['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(largest)}, 'utf8'))`] },
    { command: process.execPath, args: [SVC, 'oscal', 'validate', largest], env },
    {
      command: process.execPath,
      args: [SVC, 'oscal', 'validate', largest],
      env: { ...env, SVC_CACHE_DIR: cold },
      before: () => fs.rmSync(cold, { recursive: true, force: true }),
    },
  ]);
  const name = path.basename(largest);
  const ratio = warm.ms / node.ms;
  row(
    'oscal',
    `oscal validate ${name}, cached, vs node parsing it`,
    `${warm.ms.toFixed(0)} ms`,
    `${node.ms.toFixed(0)} ms`,
    `${ratio.toFixed(2)}×`,
    '≤ 3×',
    ratio <= 3,
  );
  row(
    'oscal',
    `the same, compiling the schema (no cache)`,
    `${compiling.ms.toFixed(0)} ms`,
    `${node.ms.toFixed(0)} ms`,
    `${(compiling.ms / node.ms).toFixed(2)}×`,
    '',
    undefined,
  );
}

/**
 * DESIGN §11 fedramp: whole-process `svc fedramp validate` of a full-size Security Decision Record (155 requirements,
 * 46 KSIs with 2,000 evidence entries each, 16 MB, built from the project's minimal fixture) against `node` parsing
 * it, with the compiled validator cached.
 */
async function fedramp() {
  const schemas = path.join(ROOT, '..', 'shared', 'reference', 'fedramp', 'cr26-schemas');
  if (!fs.existsSync(schemas)) {
    row('fedramp', 'skipped: ../shared/reference/fedramp/cr26-schemas is missing', '', '', '', '≤ 3×', undefined);
    return;
  }
  const sdr = path.join(DATA, 'sdr-large.json');
  if (!fs.existsSync(sdr))
    fs.writeFileSync(sdr, JSON.stringify(largeSdr(JSON.parse(fs.readFileSync(path.join(ROOT, 'fixtures', 'fedramp', 'sdr-minimal.json'), 'utf8')))));
  const env = { SVC_FEDRAMP_SCHEMAS: schemas, SVC_CACHE_DIR: path.join(DATA, 'fedramp-cache') };
  await measure(process.execPath, [SVC, 'fedramp', 'validate', sdr], env); // fills the cache
  const [node, svc] = await alternate(15, [
    { command: process.execPath, args: ['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(sdr)}, 'utf8'))`] },
    { command: process.execPath, args: [SVC, 'fedramp', 'validate', sdr], env },
  ]);
  const ratio = svc.ms / node.ms;
  const mb = (fs.statSync(sdr).size / 2 ** 20).toFixed(0);
  row(
    'fedramp',
    `fedramp validate of a ${mb} MB SDR, cached, vs node parsing it`,
    `${svc.ms.toFixed(0)} ms`,
    `${node.ms.toFixed(0)} ms`,
    `${ratio.toFixed(2)}×`,
    '≤ 3×',
    ratio <= 3,
  );
}

/**
 * DESIGN §11 fedramp: `svc fedramp sdr` of the 1M-result report (46 KSIs reached through shared controls, one evidence
 * entry per contributing result) against `svc ir baseline-transform` of the same report, with an empty run store.
 */
async function fedrampSdr() {
  const n = QUICK ? 100_000 : 1_000_000;
  const input = report(n);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-sdr-'));
  const config = path.join(home, 'svc.config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      fedramp: { type: '20x', class: 'B', package_uri: 'https://trust.example.com/fedramp/cpo.json', evidence_base_uri: 'https://trust.example.com/fedramp' },
    }),
  );
  const out = path.join(home, 'sdr.json');
  const env = { SVC_CONFIG: config, SVC_HOME: home };
  await measure(process.execPath, [SVC, 'fedramp', 'sdr', input, '--out', out], env); // warm the page cache
  const sdrBytes = fs.statSync(out).size;
  const [sdr, transform] = await alternate(RUNS, [
    { command: process.execPath, args: [SVC, 'fedramp', 'sdr', input, '--out', out], env },
    { command: process.execPath, args: [SVC, 'ir', 'baseline-transform', input], env },
  ]);
  fs.rmSync(home, { recursive: true, force: true });
  const label = n >= 1_000_000 ? '1M' : '100k';
  const ratio = sdr.ms / transform.ms;
  row(
    'fedramp',
    `fedramp sdr of ${label} results (${gb(sdrBytes)} SDR) vs ir baseline-transform`,
    secs(sdr.ms),
    secs(transform.ms),
    `${ratio.toFixed(2)}×`,
    '≤ 1.5×',
    ratio <= 1.5,
  );
  row('fedramp', `peak RSS of fedramp sdr, ${label}`, gb(sdr.peak), gb(transform.peak), `${(sdr.peak / transform.peak).toFixed(2)}×`, '', undefined);
}

/**
 * DESIGN §11 conmon with detections: `svc conmon process` of the 1M-result bench report carrying 100k detections in
 * 10k groups (variant v) against the same report without them, each into an empty run store.
 */
async function conmonVulnerabilities() {
  const n = QUICK ? 100_000 : 1_000_000;
  const plain = report(n);
  const withDetections = report(n, 'v');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-vuln-'));
  const a = path.join(home, 'a');
  const b = path.join(home, 'b');
  const fresh = (dir) => () => fs.rmSync(dir, { recursive: true, force: true });
  const [vuln, floor] = await alternate(RUNS, [
    { command: process.execPath, args: [SVC, 'conmon', 'process', withDetections], env: { SVC_HOME: a }, before: fresh(a) },
    { command: process.execPath, args: [SVC, 'conmon', 'process', plain], env: { SVC_HOME: b }, before: fresh(b) },
  ]);
  fs.rmSync(home, { recursive: true, force: true });
  const label = n >= 1_000_000 ? '1M' : '100k';
  const ratio = vuln.ms / floor.ms;
  row(
    'conmon',
    `conmon process of ${label} results with ${n / 10} detections in ${n / 100} groups vs without`,
    secs(vuln.ms),
    secs(floor.ms),
    `${ratio.toFixed(2)}×`,
    '≤ 1.5×',
    ratio <= 1.5,
  );
}

/** The minimal SDR grown to full size, every requirement and KSI id distinct (svc fedramp validate must find it valid). */
function largeSdr(minimal) {
  const [requirement] = minimal.fedRampRequirements;
  const [ksi] = minimal.keySecurityIndicators;
  const [evidence] = ksi.ksiEvidence;
  const letters = (i) => String.fromCharCode(65 + (i % 26)) + String.fromCharCode(65 + Math.floor(i / 26));
  return {
    ...minimal,
    fedRampRequirements: Array.from({ length: 155 }, (_, i) => ({ ...requirement, frrID: `VDR-CSO-${letters(i)}X` })),
    keySecurityIndicators: Array.from({ length: 46 }, (_, i) => ({
      ...ksi,
      ksiId: `KSI-IAM-${letters(i)}X`,
      ksiEvidence: Array.from({ length: 2000 }, (_, j) => ({ ...evidence, evidenceLocation: `${evidence.evidenceLocation}/${j}` })),
    })),
  };
}

/** Starts a child that prints its port on stdout (svc-api prints its URL on stderr); resolves with the port. */
function serve(command, argv, env, stream) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${argv.join(' ')} did not start: ${text}`)), 15_000);
    child[stream].on('data', (d) => {
      text += d;
      const m = /(?:127\.0\.0\.1:)?(\d+)\s*(?:\(|$)/m.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`${argv.join(' ')} exited ${code}: ${text}`)));
  });
}

function fetchBody(port, route, headers) {
  return new Promise((resolve, reject) => {
    require('node:http')
      .get({ host: '127.0.0.1', port, path: route, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`GET ${route}: ${res.statusCode} ${Buffer.concat(chunks)}`)),
        );
      })
      .on('error', reject);
  });
}

/**
 * Requests per second of GET `route` through svc-api (authenticated by the trusted-proxy header, access log written,
 * rate limit on) against a bare node:http server sending the same bytes; autocannon drives both from this process,
 * 10 connections, taking turns. Every svc-api response must be the bytes first fetched (autocannon's expectBody:
 * a differing body counts as a mismatch). `env` is svc-api's environment beyond SVC_HOME.
 */
async function throughput(bench, route, env = {}) {
  const autocannon = require('autocannon');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-api-'));
  const input = report(1000);
  await measure(process.execPath, [SVC, 'conmon', 'process', input], { SVC_HOME: home, ...env });
  const config = path.join(home, 'svc-api.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      port: 0,
      auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
      roles: { auditor: ['bench@SVC.TEST'] },
      limits: { requests_per_minute: 100_000_000 },
      log: { file: path.join(home, 'access.log') },
    }),
  );
  const headers = { 'x-forwarded-user': 'bench@SVC.TEST' };
  const svcApi = await serve(process.execPath, [path.join(ROOT, 'bin', 'svc-api.js'), '--config', config], { SVC_HOME: home, ...env }, 'stderr');
  const bare = { port: 0, child: undefined };
  try {
    const body = await fetchBody(svcApi.port, route, headers);
    const bodyFile = path.join(home, 'body.json');
    fs.writeFileSync(bodyFile, body);
    Object.assign(bare, await serve(process.execPath, [path.join(__dirname, 'bench', 'bare-server.js'), bodyFile], {}, 'stdout'));
    const load = (port) =>
      autocannon({ url: `http://127.0.0.1:${port}${route}`, connections: 10, duration: QUICK ? 3 : 8, headers, expectBody: body.toString('utf8') });
    await load(svcApi.port); // warm both: JIT, caches
    await load(bare.port);
    const rates = { svc: [], bare: [] };
    let requests = 0;
    for (let r = 0; r < RUNS; r++) {
      for (const [who, port] of [
        ['svc', svcApi.port],
        ['bare', bare.port],
      ]) {
        const result = await load(port);
        if (result.errors || result.non2xx || result.mismatches)
          throw new Error(`${bench} bench: ${who} had ${result.errors} errors, ${result.non2xx} non-2xx responses and ${result.mismatches} other bodies`);
        rates[who].push(result.requests.average);
        if (who === 'svc') requests += result.requests.total;
      }
    }
    const [svc, floor] = [median(rates.svc), median(rates.bare)];
    const ratio = svc / floor;
    row(
      bench,
      `GET ${route} (${body.length} B) req/s vs bare node:http; ${requests.toLocaleString('en-US')} responses, all the same bytes`,
      `${svc.toFixed(0)}/s`,
      `${floor.toFixed(0)}/s`,
      `${ratio.toFixed(2)}×`,
      '≥ 0.6×',
      ratio >= 0.6,
    );
  } finally {
    svcApi.child.kill('SIGTERM');
    bare.child?.kill('SIGTERM');
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** DESIGN §11 api: GET /auditor/evidence. */
function api() {
  return throughput('api', '/auditor/evidence');
}

/**
 * DESIGN §11 trust center: GET /fedramp/sdr of the recorded 1,000-result run, read by an auditor (the agency role's
 * route), with a 20x Class B profile: the SDR is built once for the store's state and then served as bytes.
 */
async function trustCenter() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-trust-'));
  const profile = path.join(dir, 'svc.config.json');
  fs.writeFileSync(
    profile,
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
  try {
    await throughput('trust center', '/fedramp/sdr', { SVC_CONFIG: profile });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * DESIGN §11 api at scale: a recorded run of BENCH_SCALE_RESULTS results (1,000,000; --quick 100,000). conmon process
 * records it (peak RSS against the report's size); then svc-api serves it while the heaviest routes are read over and
 * over (the SAR streamed whole, evidence pages of 1,000, a filtered findings page, a graph) and /health is asked every
 * 20 ms: every route must answer, svc-api's peak RSS stay within 1 GiB and /health's p99 within 100 ms.
 */
async function apiAtScale() {
  const n = Number(process.env.BENCH_SCALE_RESULTS) || (QUICK ? 100_000 : 1_000_000);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-scale-'));
  const input = report(n);
  try {
    const recorded = await measure(process.execPath, [SVC, 'conmon', 'process', input], { SVC_HOME: home });
    const size = fs.statSync(input).size;
    row(
      'api at scale',
      `conmon process of ${n.toLocaleString('en-US')} results: peak RSS vs input (${gb(size)})`,
      gb(recorded.peak),
      gb(size),
      `${(recorded.peak / size).toFixed(2)}×`,
      '≤ 4×',
      recorded.peak / size <= 4,
    );
    const config = path.join(home, 'svc-api.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        port: 0,
        auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'] } },
        roles: { auditor: ['bench@SVC.TEST'] },
        limits: { requests_per_minute: 100_000_000 },
        log: { file: path.join(home, 'access.log') },
      }),
    );
    const server = await serve(process.execPath, [path.join(ROOT, 'bin', 'svc-api.js'), '--config', config], { SVC_HOME: home }, 'stderr');
    let peak = 0;
    const poll = setInterval(() => {
      try {
        peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024);
      } catch {
        /* gone: the routes below fail */
      }
    }, 50);
    const heavy = [
      '/auditor/oscal/sar',
      '/auditor/evidence?limit=1000',
      '/auditor/evidence?status=FAIL&limit=1000',
      '/auditor/findings?severity=Critical&limit=1000',
      '/auditor/poam?limit=1000',
      '/auditor/graph/ac-2',
      '/auditor/manifest',
    ];
    const failures = [];
    const latencies = [];
    let loading = true;
    const get = (route) =>
      new Promise((resolve) => {
        require('node:http')
          .get({ host: '127.0.0.1', port: server.port, path: route, headers: { 'x-forwarded-user': 'bench@SVC.TEST' } }, (res) => {
            res.on('data', () => undefined);
            res.on('end', () => resolve(res.statusCode));
          })
          .on('error', () => resolve(0));
      });
    const health = (async () => {
      while (loading) {
        const start = process.hrtime.bigint();
        const status = await get('/health');
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (status !== 200) failures.push(`/health ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const rounds = QUICK ? 1 : 3;
    for (let r = 0; r < rounds; r++) {
      const statuses = await Promise.all(heavy.map((route) => get(route).then((status) => [route, status])));
      for (const [route, status] of statuses) if (status !== 200) failures.push(`${route} ${status}`);
    }
    loading = false;
    await health;
    clearInterval(poll);
    server.child.kill('SIGTERM');
    const p99 = [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length * 0.99)] ?? Infinity;
    row(
      'api at scale',
      `svc-api serving it: every route answers (${heavy.length} heavy routes × ${rounds}, ${failures.length} failed)`,
      failures.length === 0 ? 'all 200' : failures.slice(0, 3).join(', '),
      '',
      '',
      'all answer',
      failures.length === 0,
    );
    row('api at scale', 'svc-api peak RSS', gb(peak), '', '', '≤ 1 GiB', peak <= 2 ** 30);
    row('api at scale', `/health p99 while they load (${latencies.length} probes)`, `${p99.toFixed(1)} ms`, '', '', '≤ 100 ms', p99 <= 100);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Issue 35: the throwaway PostgreSQL server of the daily-run benches, started once (scripts/bench/daily-runs.js);
 * resolves with { pg } or, when it cannot start, { skipped: <why> }.
 */
let postgres;
function postgresServer() {
  postgres ??= daily.startPostgres().then(
    (pg) => ({ pg }),
    (error) => ({ skipped: error.message }),
  );
  return postgres;
}

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const size = (bytes) => (bytes >= 2 ** 30 ? gb(bytes) : mib(bytes));
const count = (n) => n.toLocaleString('en-US');
/** The file store of an svc home, as the bench runs it (SVC_STORE empty: `<home>/store`, whatever the caller set). */
const fileEnv = (home) => ({ SVC_HOME: home, SVC_STORE: '' });
const conmonArgs = (file, day) => [SVC, 'conmon', 'process', file, '--now', daily.recordedAt(day)];

/**
 * Issue 35 daily-bytes: days 1..D of the daily series (scripts/bench/daily-runs.js: each day 1% of the N results
 * changed) recorded by `svc conmon process --now <day>` into an empty file store and an empty PostgreSQL database,
 * day by day in turn. After each run: the file store's bytes (every file under <home>/store), PostgreSQL's
 * `pg_database_size` and the svc_ tables' `pg_total_relation_size` after VACUUM and CHECKPOINT. The ratio is the median
 * bytes a later run added over the bytes the first run added; the target (≤ 0.05) is issue 35's.
 */
async function dailyBytes() {
  const n = Number(process.env.BENCH_DAILY_RESULTS) || (QUICK ? 10_000 : 100_000);
  const days = Number(process.env.BENCH_DAILY_DAYS) || (QUICK ? 5 : 14);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-daily-'));
  const home = path.join(dir, 'file');
  const pgHome = path.join(dir, 'pg');
  const server = await postgresServer();
  const sizes = { file: [], database: [], tables: [] };
  try {
    let url;
    if (server.pg) {
      url = await server.pg.database('svc_daily_bytes');
      const empty = await server.pg.sizes('svc_daily_bytes');
      sizes.database.push(empty.database);
      sizes.tables.push(empty.tables);
    }
    sizes.file.push(0);
    let reportBytes = 0;
    let changed = 0;
    for (let day = 1; day <= days; day++) {
      const file = path.join(dir, `day-${day}.json`);
      changed = Math.max(changed, daily.generateDay(n, day, file));
      if (day === 1) reportBytes = fs.statSync(file).size;
      await measure(process.execPath, conmonArgs(file, day), fileEnv(home));
      sizes.file.push(daily.treeBytes(path.join(home, 'store')));
      if (server.pg) {
        await measure(process.execPath, conmonArgs(file, day), { SVC_HOME: pgHome, SVC_STORE: url });
        const s = await server.pg.sizes('svc_daily_bytes');
        sizes.database.push(s.database);
        sizes.tables.push(s.tables);
      }
      fs.rmSync(file);
      process.stderr.write(`daily-bytes: day ${day}/${days} recorded\n`);
    }
    const what = (store) =>
      `${store}: bytes a run adds, ${count(n)} results (${size(reportBytes)}), ${((100 * changed) / n).toFixed(1)}% changed a day, median of days 2–${days} vs day 1`;
    const judge = (store, series) => {
      const added = series.slice(1).map((b, i) => b - series[i]);
      const [first, later] = [added[0], median(added.slice(1))];
      const ratio = later / first;
      row(
        'daily-bytes',
        what(store),
        `${mib(later)} (${(later / n / 1024).toFixed(2)} KiB/result)`,
        `${mib(first)}`,
        ratio.toFixed(3),
        '≤ 0.05',
        ratio <= 0.05,
      );
    };
    judge('file store (files under store/)', sizes.file);
    if (server.pg) {
      await server.pg.drop('svc_daily_bytes');
      judge('PostgreSQL (pg_database_size)', sizes.database);
      judge('PostgreSQL (svc_ tables)', sizes.tables);
    } else row('daily-bytes', `PostgreSQL skipped: ${server.skipped}`, '', '', '', '≤ 0.05', undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 35 sdr-days: the daily series of N results (BENCH_SDR_RESULTS, default 2,000) recorded for D days (--days,
 * default 30, --quick 10; issue 35 asks 365) into a file store and a PostgreSQL database, each copied after day 1. Then
 * `svc fedramp sdr <day's report> --now <day>` (20x Class B profile: ksiMetrics reads every recorded day) with the store
 * of D days against the store of 1 day, taking turns. Target ≤ 1.2×.
 */
async function sdrDays() {
  const n = Number(process.env.BENCH_SDR_RESULTS) || 2_000;
  const days = DAYS ?? (QUICK ? 10 : 30);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-sdr-days-'));
  const config = path.join(dir, 'svc.config.json');
  fs.writeFileSync(
    config,
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
  const server = await postgresServer();
  const stores = [{ name: 'file store', one: { ...fileEnv(path.join(dir, 'file-1')) }, many: { ...fileEnv(path.join(dir, 'file-d')) } }];
  if (server.pg) {
    stores.push({
      name: 'PostgreSQL',
      one: { SVC_HOME: path.join(dir, 'pg'), SVC_STORE: server.pg.urlOf('svc_sdr_1') },
      many: { SVC_HOME: path.join(dir, 'pg'), SVC_STORE: await server.pg.database('svc_sdr_d') },
    });
  }
  const reportOf = (day) => path.join(dir, `day-${day}.json`);
  try {
    for (let day = 1; day <= days; day++) {
      daily.generateDay(n, day, reportOf(day));
      for (const store of stores) await measure(process.execPath, conmonArgs(reportOf(day), day), store.many);
      if (day === 1) {
        fs.cpSync(stores[0].many.SVC_HOME, stores[0].one.SVC_HOME, { recursive: true });
        if (server.pg) await server.pg.database('svc_sdr_1', 'svc_sdr_d');
      } else if (day < days) fs.rmSync(reportOf(day));
      if (day % 10 === 0) process.stderr.write(`sdr-days: day ${day}/${days} recorded\n`);
    }
    const sdrOf = (store, day) => {
      const out = path.join(dir, `sdr-${store.name.replace(/ /g, '-')}-${day}.json`);
      return {
        command: process.execPath,
        args: [SVC, 'fedramp', 'sdr', reportOf(day), '--now', `${daily.dateOf(day)}T12:00:00Z`, '--out', out],
        env: { ...(day === 1 ? store.one : store.many), SVC_CONFIG: config },
        out,
      };
    };
    const commands = stores.flatMap((store) => [sdrOf(store, 1), sdrOf(store, days)]);
    const timings = await alternate(RUNS + 2, commands);
    // What the SDR read: ksiMetrics' lastYear.days of its first KSI (1 and min(D, 365) when the store's days are read).
    const metricDays = (c) => Object.values(JSON.parse(fs.readFileSync(c.out, 'utf8')).ksiMetrics ?? {})[0]?.lastYear?.days ?? 'none';
    stores.forEach((store, k) => {
      const [one, many] = [timings[2 * k], timings[2 * k + 1]];
      const ratio = many.ms / one.ms;
      row(
        'sdr-days',
        `${store.name}: fedramp sdr, ${count(n)} results, ${days} days recorded vs 1 (ksiMetrics lastYear.days ${metricDays(commands[2 * k + 1])} vs ${metricDays(commands[2 * k])}; median of ${RUNS + 2})`,
        `${many.ms.toFixed(0)} ms`,
        `${one.ms.toFixed(0)} ms`,
        `${ratio.toFixed(2)}×`,
        '≤ 1.2×',
        ratio <= 1.2,
      );
    });
    if (!server.pg) row('sdr-days', `PostgreSQL skipped: ${server.skipped}`, '', '', '', '≤ 1.2×', undefined);
    else for (const db of ['svc_sdr_1', 'svc_sdr_d']) await server.pg.drop(db);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 35 conmon-scale: `svc conmon process` of day 1 of the daily series (N results: BENCH_CONMON_RESULTS, default
 * 1,000,000, --quick 100,000) into an empty file store and an empty PostgreSQL database against `svc ir auditor-bundle`
 * of the same report (target ≤ 3×); then day 2 (1% changed) recorded on top of that run against reading and
 * `JSON.parse`-ing day 2's report (scripts/bench/floor.js parse; target ≤ 1.5×). All taking turns; each store is put
 * back to its day-1 state (a copy taken once) before every day-2 run after the first. Peak RSS is svc's process (the
 * PostgreSQL server's memory is not in it).
 */
async function conmonScale() {
  const n = Number(process.env.BENCH_CONMON_RESULTS) || (QUICK ? 100_000 : 1_000_000);
  const label = n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : count(n);
  const reportOf = (day) => {
    const file = path.join(DATA, `daily-${n}-day-${day}.json`);
    if (!fs.existsSync(file)) {
      process.stderr.write(`generating ${path.relative(ROOT, file)} (${n} results, day ${day}) ...\n`);
      daily.generateDay(n, day, file);
    }
    return file;
  };
  const [day1, day2] = [reportOf(1), reportOf(2)];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-conmon-scale-'));
  const bundle = path.join(dir, 'bundle');
  const server = await postgresServer();
  const stores = [
    {
      name: 'file store',
      env: fileEnv(path.join(dir, 'file')),
      wipe: async () => fs.rmSync(path.join(dir, 'file', 'store'), { recursive: true, force: true }),
      keep: async () => fs.cpSync(path.join(dir, 'file', 'store'), path.join(dir, 'file-day-1'), { recursive: true }),
      restore: async () => {
        fs.rmSync(path.join(dir, 'file', 'store'), { recursive: true, force: true });
        fs.cpSync(path.join(dir, 'file-day-1'), path.join(dir, 'file', 'store'), { recursive: true });
      },
      bytes: async () => daily.treeBytes(path.join(dir, 'file', 'store')),
    },
  ];
  if (server.pg) {
    const { pg } = server;
    stores.push({
      name: 'PostgreSQL',
      env: { SVC_HOME: path.join(dir, 'pg'), SVC_STORE: pg.urlOf('svc_scale') },
      wipe: () => pg.database('svc_scale'),
      keep: () => pg.database('svc_scale_day_1', 'svc_scale'),
      restore: () => pg.database('svc_scale', 'svc_scale_day_1'),
      bytes: async () => (await pg.sizes('svc_scale')).tables,
    });
  }
  // alternate() runs `before` synchronously: the async wipes and restores are awaited by running each turn ourselves.
  const turns = async (runs, commands) => {
    const results = commands.map(() => ({ ms: [], peak: 0 }));
    for (let r = 0; r < runs; r++) {
      for (const [i, c] of commands.entries()) {
        if (c.before) await c.before(r);
        const { ms, peak } = await measure(c.command, c.args, c.env);
        results[i].ms.push(ms);
        results[i].peak = Math.max(results[i].peak, peak);
      }
    }
    return results.map((x) => ({ ms: median(x.ms), peak: x.peak }));
  };
  try {
    const inputSize = fs.statSync(day1).size;
    const first = await turns(RUNS, [
      ...stores.map((store) => ({ command: process.execPath, args: conmonArgs(day1, 1), env: store.env, before: store.wipe })),
      {
        command: process.execPath,
        args: [SVC, 'ir', 'auditor-bundle', day1, '--out-dir', bundle],
        before: async () => fs.rmSync(bundle, { recursive: true, force: true }),
      },
    ]);
    fs.rmSync(bundle, { recursive: true, force: true });
    const auditor = first.at(-1);
    const firstBytes = [];
    for (const [k, store] of stores.entries()) {
      const ratio = first[k].ms / auditor.ms;
      firstBytes.push(await store.bytes());
      row(
        'conmon-scale',
        `${store.name}: conmon process of ${label} results into an empty store vs ir auditor-bundle`,
        secs(first[k].ms),
        secs(auditor.ms),
        `${ratio.toFixed(2)}×`,
        '≤ 3×',
        ratio <= 3,
      );
      row(
        'conmon-scale',
        `${store.name}: its peak RSS vs the report's size (auditor-bundle's: ${size(auditor.peak)})`,
        size(first[k].peak),
        size(inputSize),
        `${(first[k].peak / inputSize).toFixed(2)}× input`,
        '',
        undefined,
      );
      if (RUNS > 1) await store.keep();
    }
    const second = await turns(RUNS, [
      ...stores.map((store) => ({
        command: process.execPath,
        args: conmonArgs(day2, 2),
        env: store.env,
        before: (r) => (r > 0 ? store.restore() : undefined),
      })),
      { command: process.execPath, args: [FLOOR, 'parse', day2] },
    ]);
    const parse = second.at(-1);
    for (const [k, store] of stores.entries()) {
      const ratio = second[k].ms / parse.ms;
      const added = (await store.bytes()) - firstBytes[k];
      row(
        'conmon-scale',
        `${store.name}: the next day's run (1% changed) onto it vs reading and parsing its report`,
        secs(second[k].ms),
        secs(parse.ms),
        `${ratio.toFixed(2)}×`,
        '≤ 1.5×',
        ratio <= 1.5,
      );
      row(
        'conmon-scale',
        `${store.name}: its peak RSS; bytes it added / day 1 added (${store.name === 'file store' ? 'files under store/' : 'svc_ tables'})`,
        size(second[k].peak),
        `${mib(added)} / ${mib(firstBytes[k])}`,
        `${(added / firstBytes[k]).toFixed(3)}`,
        '',
        undefined,
      );
    }
    if (!server.pg) row('conmon-scale', `PostgreSQL skipped: ${server.skipped}`, '', '', '', '≤ 3×, ≤ 1.5×', undefined);
    else for (const db of ['svc_scale', 'svc_scale_day_1']) await server.pg.drop(db);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The agency benches' compiled-validator and module cache (SVC_CACHE_DIR of svc and of the floor alike). */
const AGENCY_CACHE = path.join(DATA, 'agency-cache');

/**
 * DESIGN §11 agency pull (issue 37): N trust centers on loopback (scripts/bench/agency.js: plain node:http, fixed JSON
 * bytes with strong ETags, every route served without auth; BENCH_AGENCY_PROVIDERS, default 50, --quick 10) whose SDRs
 * hold 46 KSIs × E evidence entries (BENCH_AGENCY_EVIDENCE, default 1,000, --quick 100), every document valid under
 * the newest FedRAMP schemas svc carries. First `svc agency pull` into an empty agency store against the floor fetching
 * the same bytes and validating them with svc's validator alone (scripts/bench/agency-floor.js full; target ≤ 2×); then,
 * the store holding that pull, `svc agency pull` with nothing changed (every document 304 to If-None-Match) against the
 * same conditional GETs (agency-floor.js unchanged; target ≤ 1.5×). Both floors run agency.pull.concurrency's default
 * number of providers at once, as svc does.
 */
async function agencyPull() {
  const n = Number(process.env.BENCH_AGENCY_PROVIDERS) || (QUICK ? 10 : 50);
  const evidence = Number(process.env.BENCH_AGENCY_EVIDENCE) || (QUICK ? 100 : 1000);
  const { DEFAULT_PULL_SETTINGS } = require(path.join(ROOT, 'dist', 'domain', 'agency', 'providers.js'));
  const concurrency = String(DEFAULT_PULL_SETTINGS.concurrency);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-agency-'));
  const manifestFile = path.join(dir, 'manifest.json');
  const home = path.join(dir, 'home');
  const config = path.join(dir, 'svc.config.json');
  process.stderr.write(`agency: starting ${n} trust centers (SDRs of 46 KSIs × ${evidence} evidence entries) ...\n`);
  const centers = await agencyData.startTrustCenters(n, evidence, manifestFile);
  try {
    const { providers } = centers.manifest;
    fs.writeFileSync(config, JSON.stringify(agencyData.agencyConfig(providers)));
    const env = { SVC_CONFIG: config, SVC_HOME: home, SVC_STORE: '', SVC_CACHE_DIR: AGENCY_CACHE };
    const floorEnv = { SVC_CACHE_DIR: AGENCY_CACHE };
    const wipe = () => fs.rmSync(home, { recursive: true, force: true });
    const pull = { command: process.execPath, args: [SVC, 'agency', 'pull'], env };
    const floor = (mode) => ({ command: process.execPath, args: [AGENCY_FLOOR, mode, manifestFile, concurrency], env: floorEnv });
    // Warm both (the compiled validators, the module cache, the page cache); svc's pull must have found every document valid.
    wipe();
    await measure(pull.command, pull.args, pull.env);
    await measure(process.execPath, floor('full').args, floorEnv);
    await agencyPullsValid(path.join(home, 'agency'), providers);
    const bytes = providers.reduce((sum, p) => sum + Object.values(p.documents).reduce((s, d) => s + d.bytes, 0), 0);
    const [full, fullFloor] = await alternate(RUNS, [{ ...pull, before: wipe }, floor('full')]);
    const fullRatio = full.ms / fullFloor.ms;
    row(
      'agency',
      `agency pull of ${n} trust centers into an empty store (SDRs of 46 KSIs × ${count(evidence)} evidence entries, ${mib(bytes)}) vs fetching and schema-validating the same bytes`,
      secs(full.ms),
      secs(fullFloor.ms),
      `${fullRatio.toFixed(2)}×`,
      '≤ 2×',
      fullRatio <= 2,
    );
    row(
      'agency',
      `peak RSS of that pull (the floor's: ${mib(fullFloor.peak)})`,
      mib(full.peak),
      mib(fullFloor.peak),
      `${(full.peak / fullFloor.peak).toFixed(2)}×`,
      '',
      undefined,
    );
    // The store holds the last full pull: from here on every document answers 304.
    await measure(pull.command, pull.args, pull.env);
    await measure(process.execPath, floor('unchanged').args, floorEnv);
    const gets = n * Object.keys(providers[0].documents).length;
    const [unchanged, unchangedFloor] = await alternate(RUNS + 2, [pull, floor('unchanged')]);
    const ratio = unchanged.ms / unchangedFloor.ms;
    row(
      'agency',
      `agency pull of ${n} trust centers, nothing changed (${count(gets)} GETs, each 304 to If-None-Match) vs the same conditional GETs`,
      `${unchanged.ms.toFixed(0)} ms`,
      `${unchangedFloor.ms.toFixed(0)} ms`,
      `${ratio.toFixed(2)}×`,
      '≤ 1.5×',
      ratio <= 1.5,
    );
  } finally {
    centers.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Refuses to time a pull that did not fetch every provider's documents and find each valid under the newest schemas. */
async function agencyPullsValid(storeDir, providers) {
  const { FileAgencyStore } = require(path.join(ROOT, 'dist', 'infrastructure', 'agency', 'file-agency-store.js'));
  const store = new FileAgencyStore(storeDir);
  for (const p of providers) {
    const [latest] = await store.pulls(p.name, { last: 1 });
    const wrong =
      latest === undefined
        ? 'no pull recorded'
        : latest.outcome !== 'ok'
          ? `pull ${latest.outcome}: ${latest.error ?? latest.documents.find((d) => d.error)?.error}`
          : latest.schemas.find((v) => v.problems.length > 0 || !v.current);
    if (wrong) throw new Error(`agency bench: svc's pull of ${p.name} is not a clean full pull: ${typeof wrong === 'string' ? wrong : JSON.stringify(wrong)}`);
  }
}

/**
 * DESIGN §11 agency status (issue 37): `svc agency status --now <after the last pull>` over N providers (BENCH_AGENCY_STATUS,
 * default 500, --quick 100) of 12 monthly pulls each, recorded straight into an agency file store by svc's own
 * FileAgencyStore (scripts/bench/agency.js seedStatusStore; SDRs of 46 KSIs × 100 evidence entries), and over the
 * first N/5 of them. Target: ≤ 2 s of the whole process per 100 providers at N, and peak RSS at N at most 32 MiB above
 * its peak at N/5 (memory bounded by one provider's documents: not growing with the provider count beyond a
 * constant). The seeded store is kept in bench-data, named by what made it (the seeding code and svc's store code),
 * and made again when either changes.
 */
async function agencyStatus() {
  const n = Number(process.env.BENCH_AGENCY_STATUS) || (QUICK ? 100 : 500);
  const fewer = Math.max(1, Math.round(n / 5));
  const evidence = 100;
  const home = await agencyStatusStore(n, evidence);
  const providers = Array.from({ length: n }, (_, i) => ({ name: agencyData.name(i), url: agencyData.statusUrl(i), fedrampId: agencyData.fedrampId(i) }));
  const configs = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-agency-status-'));
  try {
    const status = (k) => {
      const config = path.join(configs, `svc.config-${k}.json`);
      fs.writeFileSync(config, JSON.stringify(agencyData.agencyConfig(providers.slice(0, k))));
      return {
        command: process.execPath,
        args: [SVC, 'agency', 'status', '--now', agencyData.STATUS_NOW],
        env: { SVC_CONFIG: config, SVC_HOME: home, SVC_STORE: '', SVC_CACHE_DIR: AGENCY_CACHE },
        exitCodes: [0, 1],
      };
    };
    const [few, many] = [status(fewer), status(n)];
    for (const c of [few, many]) await measure(c.command, c.args, c.env, c.exitCodes); // warm
    const [small, large] = await alternate(RUNS, [few, many]);
    const per100 = large.ms / (n / 100);
    const one = Object.values(agencyData.encode(agencyData.documents(0, agencyData.statusUrl(0), { evidence }))).reduce((s, b) => s + b.length, 0);
    row(
      'agency',
      `agency status over ${count(n)} providers × 12 pulls: whole process per 100 providers (marginal: ${((large.ms - small.ms) / ((n - fewer) / 100) / 1000).toFixed(2)} s)`,
      secs(large.ms),
      '',
      `${(per100 / 1000).toFixed(2)} s / 100`,
      '≤ 2 s / 100',
      per100 <= 2000,
    );
    // Memory bounded by one provider's documents: what 4/5 more providers add to the peak must stay a small constant.
    const growth = large.peak - small.peak;
    row(
      'agency',
      `agency status peak RSS, ${count(n)} vs ${count(fewer)} providers (one provider's current documents: ${mib(one)})`,
      mib(large.peak),
      mib(small.peak),
      `${growth < 0 ? '−' : '+'}${mib(Math.abs(growth))}`,
      '≤ +32 MiB',
      growth <= 32 * 2 ** 20,
    );
  } finally {
    fs.rmSync(configs, { recursive: true, force: true });
  }
}

/** The svc home of the seeded status store (its agency store in `agency/`), seeded unless bench-data holds it already. */
async function agencyStatusStore(n, evidence) {
  const made = require('node:crypto').createHash('sha256');
  for (const file of [path.join(__dirname, 'bench', 'agency.js'), path.join(ROOT, 'dist', 'infrastructure', 'agency', 'file-agency-store.js')])
    made.update(fs.readFileSync(file));
  const stem = `agency-status-${n}-${evidence}-`;
  const home = path.join(DATA, `${stem}${made.digest('hex').slice(0, 12)}`);
  if (fs.existsSync(home)) return home;
  for (const old of fs.readdirSync(DATA)) if (old.startsWith(stem)) fs.rmSync(path.join(DATA, old), { recursive: true, force: true });
  const partial = `${home}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  process.stderr.write(`agency: seeding ${path.relative(ROOT, home)} (${n} providers × ${agencyData.PULLS} pulls) ...\n`);
  const start = Date.now();
  await agencyData.seedStatusStore(path.join(partial, 'agency'), n, { evidence });
  fs.renameSync(partial, home);
  process.stderr.write(`agency: seeded in ${secs(Date.now() - start)}\n`);
  return home;
}

async function agency() {
  await agencyPull();
  await agencyStatus();
}

function print() {
  const head = { bench: 'bench', what: 'measure', svc: 'svc', floor: 'floor', ratio: 'ratio', target: 'target', ok: 'met' };
  const cells = [head, ...rows].map((r) => ({ ...r, ok: r === head ? r.ok : r.ok === undefined ? '' : r.ok ? 'yes' : 'NO' }));
  const keys = Object.keys(head);
  const width = Object.fromEntries(keys.map((k) => [k, Math.max(...cells.map((c) => String(c[k]).length))]));
  for (const c of cells)
    console.log(
      keys
        .map((k) => String(c[k]).padEnd(width[k]))
        .join('  ')
        .trimEnd(),
    );
  console.log(
    `\n${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), ${gb(os.totalmem())} memory, node ${process.version}; medians of ${RUNS} runs (15 for startup, oscal and fedramp)`,
  );
}

(async () => {
  fs.mkdirSync(DATA, { recursive: true });
  if (!fs.existsSync(path.join(ROOT, 'dist'))) throw new Error('run npm run build first (npm run bench does)');
  const benches = [
    ['startup', startup],
    ['oscal', oscal],
    ['fedramp', fedramp],
    ['fedramp-sdr', fedrampSdr],
    ['conmon-vuln', conmonVulnerabilities],
    ['pipeline', pipeline],
    ['diff', diff],
    ['api', api],
    ['trust', trustCenter],
    ['scale', apiAtScale],
    ['agency', agency],
  ];
  benches.push(['daily-bytes', dailyBytes], ['sdr-days', sdrDays], ['conmon-scale', conmonScale]);
  try {
    for (const [name, bench] of benches) if (wanted(name)) await bench();
  } finally {
    const server = postgres && (await postgres);
    server?.pg?.stop();
  }
  print();
  if (postgres) console.log(`PostgreSQL: ${(await postgres).pg?.version ?? 'skipped'} (throwaway cluster, fsync=off)`);
  fs.writeFileSync(path.join(DATA, 'results.json'), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
  process.exitCode = rows.some((r) => r.ok === false) ? 1 : 0;
})().catch((error) => {
  console.error(error);
  process.exitCode = 70;
});
