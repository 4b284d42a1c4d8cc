'use strict';
/**
 * The floors of the agency pull benches (scripts/bench.js: agency; docs/performance.md, "The agency side"): what a
 * minimal node script does to fetch what `svc agency pull` fetches, from the trust centers of
 * scripts/bench/agency.js, `concurrency` providers at once (svc's default agency.pull.concurrency), each provider's
 * documents (PULLED_DOCUMENTS, all at once) over one keep-alive Agent, `Accept: application/json`, and the Origin
 * svc sends on the public information.
 *
 *   node scripts/bench/agency-floor.js unchanged <manifest.json> <concurrency>
 *     every document with If-None-Match of the ETag the manifest gives; each must answer 304.
 *   node scripts/bench/agency-floor.js full <manifest.json> <concurrency>
 *     every document without a validator; each must answer 200 with JSON, is parsed, and each one FedRAMP's schemas
 *     bind (a list item by item) is validated under the newest generation svc carries with svc's own validator alone
 *     (dist/infrastructure/schemas/ajv-schema-validator.js, its compiled validators cached in SVC_CACHE_DIR as svc's
 *     are); then the SDR's evidence links that svc samples (the first, the middle and the last) are fetched.
 * Exits 1 naming the first document that answered otherwise or was invalid.
 */
const http = require('node:http');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const DIST = path.join(__dirname, '..', '..', 'dist');
const { PULLED_DOCUMENTS } = require(path.join(DIST, 'domain', 'agency', 'pulled-documents.js'));
/** What svc sends as Origin with the public information's request (pull-providers.ts PULL_ORIGIN). */
const ORIGIN = 'https://agency-grc.invalid';

/** GET `url` on `agent`; resolves with the status and the body. */
function get(agent, url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { accept: 'application/json', ...headers } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The validator and the newest carried FedRAMP schema set, as svc's registration makes them (registration/core.ts). */
async function fedrampValidator() {
  const { AjvSchemaValidator, defaultFedrampCacheDir, defaultOscalCacheDir } = require(path.join(DIST, 'infrastructure', 'schemas', 'ajv-schema-validator.js'));
  const { CARRIED_SCHEMAS_DIR } = require(path.join(DIST, 'infrastructure', 'schemas', 'carried-schemas.js'));
  const validator = new AjvSchemaValidator({
    cacheDir: defaultOscalCacheDir(process.env, os.homedir()),
    fedrampCacheDir: defaultFedrampCacheDir(process.env, os.homedir()),
    carriedDir: CARRIED_SCHEMAS_DIR,
  });
  return { validator, set: await validator.locateFedramp() };
}

/** The evidence links under the trust center's base svc checks without --deep: the first, the middle and the last. */
function evidenceSample(sdr, base) {
  const links = [];
  for (const ksi of sdr.keySecurityIndicators ?? [])
    for (const e of ksi.ksiEvidence ?? []) if (e.evidenceLocation.startsWith(`${base}/`)) links.push(e.evidenceLocation);
  return links.length <= 3 ? links : [links[0], links[Math.floor(links.length / 2)], links.at(-1)];
}

async function pullProvider(provider, mode, validation) {
  const agent = new http.Agent({ keepAlive: true });
  try {
    const names = Object.keys(PULLED_DOCUMENTS);
    const answers = await Promise.all(
      names.map((name) => {
        const d = provider.documents[name];
        return get(agent, `${provider.url}${d.path}`, {
          ...(mode === 'unchanged' ? { 'if-none-match': d.etag } : {}),
          ...(name === 'public' ? { origin: ORIGIN } : {}),
        });
      }),
    );
    const expected = mode === 'unchanged' ? 304 : 200;
    answers.forEach((a, k) => {
      if (a.status !== expected) throw new Error(`${provider.url}${PULLED_DOCUMENTS[names[k]].path}: ${a.status}, not ${expected}`);
    });
    if (mode === 'unchanged') return;
    const { validator, set } = await validation;
    let sdr;
    for (const [k, name] of names.entries()) {
      const json = JSON.parse(answers[k].body.toString('utf8'));
      if (name === 'sdr') sdr = json;
      const entry = PULLED_DOCUMENTS[name];
      if (entry.schema === undefined) continue;
      for (const item of entry.list ? json : [json]) {
        const problems = await validator.validateFedramp(set, entry.schema, item);
        if (problems.length > 0) throw new Error(`${provider.url}${entry.path}: not valid (${problems[0].message})`);
      }
    }
    for (const link of evidenceSample(sdr, provider.url)) {
      const a = await get(agent, link, {});
      if (a.status !== 200) throw new Error(`${link}: ${a.status}`);
    }
  } finally {
    agent.destroy();
  }
}

async function main() {
  const [mode, manifestFile, concurrency] = process.argv.slice(2);
  if ((mode !== 'unchanged' && mode !== 'full') || manifestFile === undefined || !(Number(concurrency) >= 1)) {
    process.stderr.write('usage: node scripts/bench/agency-floor.js unchanged|full <manifest.json> <concurrency>\n');
    process.exit(64);
  }
  const { providers } = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const validation = mode === 'full' ? fedrampValidator() : undefined;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < providers.length; i = next++) await pullProvider(providers[i], mode, validation);
  };
  await Promise.all(Array.from({ length: Math.min(Number(concurrency), providers.length) }, worker));
}

main().catch((error) => {
  process.stderr.write(`agency floor: ${error.message}\n`);
  process.exitCode = 1;
});
