'use strict';
/**
 * The agency benches' trust centers and stores (scripts/bench.js: agency; docs/performance.md, "The agency side").
 *
 * Provider i's documents (`documents(i, base, options, pull)`) are FedRAMP documents written as another tool would
 * write them (no svc extensions), valid under the newest generation of FedRAMP's schemas svc carries
 * (schemas/fedramp/<newest>/; `check` asserts it): public information, CPO, an SDR of 155 requirements and 46 KSIs
 * with `evidence` entries each (every evidenceLocation under the trust center's base), an OCR, a VDR of
 * `vulnerabilities` entries, an AVI, history, an SCN, two incident reports (one open and affecting the agency), metrics
 * and the snapshots list. `pull` (1 to 12, a month apart) changes what a month changes: the VDR, AVI, history and
 * metrics every pull (their report period moves), the OCR, the snapshots, the CPO and the public information (the next
 * OCR's date) every third (quarterly), the SDR every fourth.
 *
 * `node scripts/bench/agency.js serve <count> <evidence> <manifest.json>` starts `count` plain node:http trust centers
 * on loopback in this one process (each on its own port, `http://127.0.0.1:<port>`), serving every route without
 * authentication: the fixed JSON bytes of pull 12 with a strong ETag (the bytes' SHA-256), 304 to a matching
 * If-None-Match, nosniff, and CORS on the public information; `/fedramp/evidence/<name>.json` answers a small JSON
 * document for any name. It writes the manifest (each provider's name, URL, FedRAMP ID and each document's path, ETag
 * and size) and then prints `ready` on stdout.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
/** svc's PULLED_DOCUMENTS (the documents a pull asks for, their paths and schemas), from dist: read when first needed. */
const pulled = () => require(path.join(DIST, 'domain', 'agency', 'pulled-documents.js')).PULLED_DOCUMENTS;

/** The agency's name, as the incidents list it among those affected. */
const AGENCY = 'Department of Benchmarks';
/** Pull k is made at the end of month k of this series (pull 12: 2026-11-30). */
const PULLS = 12;
/** What `svc agency status` is asked to judge at (--now). */
const STATUS_NOW = '2026-12-01T00:00:00Z';
const JSON_TYPE = 'application/json; charset=utf-8';

const name = (i) => `tc${String(i).padStart(3, '0')}`;
const fedrampId = (i) => `FR2611${String(250000 + i).padStart(6, '0')}`;
const letters = (i) => String.fromCharCode(65 + (i % 26)) + String.fromCharCode(65 + Math.floor(i / 26));
/** The last day of month k of the series (k = 1: 2025-12-31), as a Date at 00:00Z. */
const monthEnd = (k) => new Date(Date.UTC(2025, 11 + k, 0));
const day = (d) => d.toISOString().slice(0, 10);
const at = (d, hour = 0) => `${day(d)}T${String(hour).padStart(2, '0')}:00:00Z`;
const addDays = (d, n) => new Date(d.getTime() + n * 86_400_000);

/** Provider i's documents after pull `pull`, as JSON values by PULLED_DOCUMENTS name. */
function documents(i, base, { evidence, vulnerabilities = 40 }, pull = PULLS, names = Object.keys(pulled())) {
  const cpoUri = `${base}/fedramp/cpo`;
  const quarter = Math.floor((pull - 1) / 3);
  const ocrTo = monthEnd(quarter * 3 + 3 > PULLS ? PULLS : quarter * 3 + 3);
  const ocrFrom = addDays(monthEnd(quarter * 3), 1);
  const sdrVersion = Math.floor((pull - 1) / 4);
  const aviVersion = Math.floor((pull - 1) / 6);
  const identification = {
    serviceName: `Bench Service ${i}`,
    providerName: `Bench Provider ${i}, Inc.`,
    fedRampPackageId: fedrampId(i),
    serviceAcronym: `BS${i}`,
    certificationType: '20x',
    serviceDescription: `A cloud service offering of provider ${i}, for the agency benches.`,
    logo: `https://provider-${i}.example/logo.svg`,
    website: `https://provider-${i}.example`,
  };
  const properties = {
    deploymentModel: 'Government-Only Cloud',
    serviceType: ['SaaS'],
    nextOngoingCertificationReportDate: day(addDays(monthEnd(quarter * 3 + 6), 0)),
    trustCenter: {
      url: `${base}/fedramp/public`,
      repositoryType: ['Trust Center'],
      authenticationRequired: true,
      repositoryDescription: `Provider ${i}'s trust center.`,
      accessRequestInstructions: `Agencies ask fedramp@provider-${i}.example for access.`,
    },
  };
  const contacts = [
    { contactName: `Provider ${i} Security Office`, contactEmail: `security@provider-${i}.example`, contactType: 'Security' },
    { contactName: `Provider ${i} Sales`, contactEmail: `sales@provider-${i}.example`, contactType: 'Sales' },
  ];
  const vulnerability = (v) => {
    const detected = addDays(monthEnd(pull), -((v * 7) % 120) - 1);
    return {
      providerTrackingId: `P${i}-V-${String(pull * 1000 + v).padStart(6, '0')}`,
      detection: { detectionSource: 'bench-scanner', detectedAt: at(detected, 9) },
      vulnerabilityDescription: `CVE-2026-${String(10000 + v)} in component ${v % 17} of provider ${i}`,
      potentialAgencyImpact: `N${1 + (v % 4)}: component ${v % 17} only`,
      evaluationCompletedAt: at(addDays(detected, 1), 9),
      isInternetReachable: v % 3 === 0,
      isLikelyExploitable: v % 5 === 0,
      currentRating: 1 + (v % 4),
      overdueStatus: { isOverdue: false },
    };
  };
  const accepted = () =>
    Array.from({ length: 3 + aviVersion }, (_, a) => ({
      acceptanceRationale: `No vendor fix for component ${a}; unreachable from outside the boundary.`,
      vulnerabilityDetail: {
        providerTrackingId: `P${i}-A-${a}`,
        detection: { detectionSource: 'bench-scanner', detectedAt: at(monthEnd(a + 1), 9) },
        vulnerabilityDescription: `CVE-2025-${String(20000 + a)} in a vendored library`,
      },
    }));
  const active = () => Array.from({ length: vulnerabilities }, (_, v) => vulnerability(v));
  const reportPeriod = { from: at(addDays(monthEnd(pull - 1), 1)), to: at(addDays(monthEnd(pull), 1)) };
  const updated = Array.from({ length: 28 }, (_, d) => day(addDays(monthEnd(sdrVersion * 4 + 1), -d)));
  const ksi = (k) => ({
    ksiId: `KSI-IAM-${letters(k)}X`,
    ksiImplementationStatus: k === 0 && sdrVersion % 2 === 1 ? 'Partially Implemented' : 'Implemented',
    ksiImplementation: [`Indicator ${k} is implemented by provider ${i}'s platform controls.`],
    ksiValidation: ['Checked daily by automated configuration scans.'],
    ksiAssessment: [],
    ksiTests: [`bench-scanner:check-${k}`],
    ksiEvidence: Array.from({ length: evidence }, (_, j) => ({
      evidenceType: 'Configuration',
      evidenceDescription: `Configuration scan ${j} of indicator ${k}`,
      evidenceLocation: `${base}/fedramp/evidence/ksi-${k}-${j}.json`,
      lastUpdated: updated[j % 28],
    })),
  });
  const snapshots = [];
  for (let q = 0; q <= quarter; q++) snapshots.push({ snapshot: day(monthEnd(Math.min(q * 3 + 3, PULLS))), url: `${base}/fedramp/snapshots/${q}` });
  const build = {
    public: () => ({ serviceIdentification: identification, serviceProperties: properties, contactInformation: contacts }),
    cpo: () => ({
      serviceIdentification: identification,
      serviceProperties: properties,
      contactInformation: contacts,
      certifiedServices: [{ serviceName: `Bench Service ${i} Core`, serviceDescription: 'The core service.', dateAvailable: '2026-03-01' }],
    }),
    sdr: () => ({
      certificationPackageOverviewUri: cpoUri,
      fedRampRequirements: Array.from({ length: 155 }, (_, r) => ({
        frrID: `VDR-CSO-${letters(r)}X`,
        frrImplementationStatus: 'Implemented',
        frrImplementation: [`Requirement ${r} is met by provider ${i}'s processes.`],
      })),
      keySecurityIndicators: Array.from({ length: 46 }, (_, k) => ksi(k)),
    }),
    ocr: () => ({
      certificationPackageOverviewUri: cpoUri,
      reportPeriod: { from: day(ocrFrom), to: day(ocrTo) },
      certificationDataChanges: [`KSI-IAM-AAX: evidence collected nightly since quarter ${quarter}`],
      plannedCertificationDataChanges: { changes: [], planningHorizonThrough: day(addDays(ocrTo, 90)) },
      acceptedVulnerabilities: `${base}/fedramp/avi`,
      transformativeChanges: [],
      updatedRecommendations: [],
      activeAgencies: [AGENCY],
      reportableIncidents: { incidents: [] },
    }),
    vdr: () => ({ certificationPackageOverviewUri: cpoUri, reportPeriod, vulnerabilities: active() }),
    avi: () => ({ certificationPackageOverviewUri: cpoUri, reportPeriod, acceptedVulnerabilities: accepted() }),
    history: () => ({
      certificationPackageOverviewUri: cpoUri,
      generatedAt: at(addDays(monthEnd(pull), 1)),
      activeVulnerabilities: active(),
      acceptedVulnerabilities: accepted(),
    }),
    scn: () => [
      {
        certificationPackageOverviewUri: cpoUri,
        changeType: 'Adaptive',
        changeDescription: 'Move the query tier to a second region.',
        planAndTimeline: { summary: 'Cut over region by region.', plannedStart: '2026-12-10', plannedCompletion: '2026-12-20' },
      },
    ],
    incidents: () => [
      {
        certificationPackageOverviewUri: cpoUri,
        reportType: 'Ongoing',
        providerTrackingId: `P${i}-INC-1`,
        incidentDescription: 'Credential stuffing against the customer portal.',
        timeline: { detectedAt: '2026-11-20T08:00:00Z', detectionSource: 'WAF alerts', evaluationCompletedAt: '2026-11-20T10:00:00Z' },
        potentialImpact: { currentRating: 2 },
        affectedAgencies: [AGENCY],
      },
      {
        certificationPackageOverviewUri: cpoUri,
        reportType: 'Final',
        providerTrackingId: `P${i}-INC-0`,
        incidentDescription: 'A misrouted support e-mail.',
        affectedAgencies: ['Department of Elsewhere'],
        resolvedAt: '2026-10-02T12:00:00Z',
      },
    ],
    metrics: () => ({
      generatedAt: at(addDays(monthEnd(pull), 1)),
      ksis: 46,
      implemented: sdrVersion % 2 === 1 ? 45 : 46,
      openVulnerabilities: vulnerabilities,
    }),
    snapshots: () => ({ snapshots }),
  };
  return Object.fromEntries(names.map((n) => [n, build[n]()]));
}

/** The pull at which each document last changed, as of pull `pull` (documents() of that pull gives the same bytes). */
function changedAt(pull) {
  const since = (every) => Math.floor((pull - 1) / every) * every + 1;
  return {
    public: since(3),
    cpo: since(3),
    sdr: since(4),
    ocr: since(3),
    vdr: pull,
    avi: pull,
    history: pull,
    scn: 1,
    incidents: 1,
    metrics: pull,
    snapshots: since(3),
  };
}

/** The bytes of each document, as a trust center serves them. */
function encode(docs) {
  return Object.fromEntries(Object.entries(docs).map(([n, value]) => [n, Buffer.from(JSON.stringify(value))]));
}

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * Checks every schema-bound document against the newest FedRAMP generation svc carries, with svc's own validator
 * (dist/infrastructure/schemas/ajv-schema-validator.js): the benches measure valid documents, never error paths.
 */
async function check(docs, cacheDir) {
  const { AjvSchemaValidator } = require(path.join(DIST, 'infrastructure', 'schemas', 'ajv-schema-validator.js'));
  const { CARRIED_SCHEMAS_DIR } = require(path.join(DIST, 'infrastructure', 'schemas', 'carried-schemas.js'));
  const validator = new AjvSchemaValidator({
    cacheDir: path.join(cacheDir, 'oscal'),
    fedrampCacheDir: path.join(cacheDir, 'fedramp'),
    carriedDir: CARRIED_SCHEMAS_DIR,
  });
  const set = await validator.locateFedramp();
  for (const [n, entry] of Object.entries(pulled())) {
    if (entry.schema === undefined) continue;
    for (const item of entry.list ? docs[n] : [docs[n]]) {
      const problems = await validator.validateFedramp(set, entry.schema, item);
      if (problems.length > 0) throw new Error(`agency bench: the generated ${n} is not valid under ${set.dir}: ${JSON.stringify(problems.slice(0, 3))}`);
    }
  }
}

/** Serves provider documents on `count` loopback ports; resolves with the manifest once every server listens. */
async function serve(count, evidence) {
  const providers = [];
  for (let i = 0; i < count; i++) {
    const routes = new Map();
    const server = http.createServer((req, res) => {
      const route = routes.get(req.url);
      if (route === undefined) {
        if (req.url.startsWith('/fedramp/evidence/')) {
          const body = Buffer.from(JSON.stringify({ evidence: req.url.slice('/fedramp/evidence/'.length), result: 'pass' }));
          res.writeHead(200, { 'content-type': JSON_TYPE, 'x-content-type-options': 'nosniff', 'content-length': body.length });
          res.end(body);
        } else {
          res.writeHead(404, { 'content-type': 'application/problem+json' });
          res.end('{"title":"Not Found","status":404}');
        }
        return;
      }
      const headers = { 'content-type': JSON_TYPE, 'x-content-type-options': 'nosniff', etag: route.etag, 'cache-control': 'no-cache', ...route.cors };
      const asked = req.headers['if-none-match'];
      if (asked !== undefined && asked.split(',').some((tag) => tag.trim() === route.etag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, { ...headers, 'content-length': route.body.length });
      res.end(route.body);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}`;
    const bytes = encode(documents(i, url, { evidence }));
    const manifest = { name: name(i), url, fedrampId: fedrampId(i), documents: {} };
    for (const [n, entry] of Object.entries(pulled())) {
      const body = bytes[n];
      const etag = `"${sha256(body)}"`;
      routes.set(entry.path, { body, etag, cors: n === 'public' ? { 'access-control-allow-origin': '*' } : {} });
      manifest.documents[n] = { path: entry.path, etag, bytes: body.length };
    }
    providers.push(manifest);
  }
  return { providers };
}

/**
 * Starts the trust centers in a child process; resolves with { manifest, stop }. The manifest is also written to
 * `manifestFile` for the floor script.
 */
function startTrustCenters(count, evidence, manifestFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, 'serve', String(count), String(evidence), manifestFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.on('exit', (code) => reject(new Error(`agency bench: the trust centers exited ${code} before they were ready`)));
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('ready')) {
        child.removeAllListeners('exit');
        resolve({
          manifest: JSON.parse(fs.readFileSync(manifestFile, 'utf8')),
          stop: () => child.kill('SIGTERM'),
        });
      }
    });
  });
}

/** svc.config.json of an agency following `providers` (auth none, Class B as the marketplace lists them). */
function agencyConfig(providers) {
  return {
    agency: {
      name: AGENCY,
      providers: providers.map((p) => ({ name: p.name, url: p.url, fedramp_id: p.fedrampId, class: 'B', auth: { kind: 'none' } })),
    },
  };
}

/** The base URL status-bench provider i is recorded as pulled from (nothing listens there: status reads the store). */
const statusUrl = (i) => `https://${name(i)}.bench.invalid`;

/**
 * Seeds an agency file store (dist's FileAgencyStore, the store svc uses) with `count` providers of `pulls` pulls each,
 * pull k holding the documents of month k: fetched where they changed since pull k-1, unchanged (304) where not, each
 * with the schema verdict of a valid document. Resolves with the providers (for agencyConfig).
 */
async function seedStatusStore(dir, count, { evidence, pulls = PULLS, concurrency = 8 }) {
  const { FileAgencyStore } = require(path.join(DIST, 'infrastructure', 'agency', 'file-agency-store.js'));
  // The facts svc keeps with each pull (the OCR's period end, each KSI's status), as PullProviders writes them.
  const { pullFacts } = require(path.join(DIST, 'domain', 'agency', 'provider-status.js'));
  const store = new FileAgencyStore(dir);
  const generation = newestGeneration();
  const providers = Array.from({ length: count }, (_, i) => ({ name: name(i), url: statusUrl(i), fedrampId: fedrampId(i) }));
  const seedOne = async (i) => {
    const { url } = providers[i];
    const held = new Map();
    const current = {};
    for (let k = 1; k <= pulls; k++) {
      const changed = Object.entries(changedAt(k)).flatMap(([n, since]) => (since === k ? [n] : []));
      const made = documents(i, url, { evidence }, k, changed);
      Object.assign(current, made);
      const bytes = encode(made);
      const finished = `${day(addDays(monthEnd(k), 1))}T06:00:00.000Z`;
      const docs = [];
      const schemas = [];
      for (const [n, entry] of Object.entries(pulled())) {
        let stored = held.get(n);
        const fetched = bytes[n] !== undefined;
        if (fetched) {
          const digest = await store.putDocument(bytes[n]);
          stored = {
            sha256: digest,
            bytes: bytes[n].length,
            url: `${url}${entry.path}`,
            fetchedAt: finished,
            etag: `"${digest}"`,
            delivery: { contentType: JSON_TYPE, nosniff: true, ...(n === 'public' ? { cors: '*' } : {}) },
          };
          held.set(n, stored);
        }
        docs.push({ name: n, url: `${url}${entry.path}`, outcome: fetched ? 'fetched' : 'unchanged', status: fetched ? 200 : 304, stored, attempts: 1 });
        if (entry.schema !== undefined) schemas.push({ document: n, sha256: stored.sha256, generation, current: true, problems: [] });
      }
      await store.appendPull({
        provider: providers[i].name,
        started: finished.replace('06:00:00', '05:59:58'),
        finished,
        url,
        outcome: 'ok',
        documents: docs,
        schemas,
        findings: [],
        facts: pullFacts(current.sdr, current.ocr),
      });
    }
  };
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await seedOne(i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return providers;
}

/** The newest FedRAMP schema generation svc carries (schemas/manifest.json's default). */
function newestGeneration() {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', 'manifest.json'), 'utf8')).fedramp.default;
}

module.exports = {
  AGENCY,
  PULLS,
  STATUS_NOW,
  documents,
  changedAt,
  encode,
  check,
  startTrustCenters,
  agencyConfig,
  seedStatusStore,
  name,
  fedrampId,
  statusUrl,
};

if (require.main === module) {
  const [mode, count, evidence, manifestFile] = process.argv.slice(2);
  if (mode !== 'serve' || !(Number(count) > 0) || !(Number(evidence) > 0) || manifestFile === undefined) {
    process.stderr.write('usage: node scripts/bench/agency.js serve <count> <evidence entries per KSI> <manifest.json>\n');
    process.exit(64);
  }
  serve(Number(count), Number(evidence)).then(
    (manifest) => {
      fs.writeFileSync(manifestFile, JSON.stringify(manifest));
      process.stdout.write('ready\n');
    },
    (error) => {
      process.stderr.write(`${error.stack}\n`);
      process.exit(70);
    },
  );
}
