#!/usr/bin/env node
'use strict';
/**
 * Derives the project's own catalog data from public FedRAMP files (docs/catalog.md explains the rules):
 *   node scripts/build-catalog.js [reference-dir] [--check]
 * reference-dir defaults to ../shared/reference. Writes src/domain/catalog/data/ksi-catalog.json and
 * ksi-crosswalk.json; with --check it writes nothing and exits 1 when the checked-in files are out of date.
 * Run `npm run build` first: the derivation rules are the compiled domain code, the same the tests use.
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { deriveCatalog } = require('../dist/domain/catalog/derive-catalog');
const { readFrmrRelease } = require('../dist/domain/catalog/frmr-release');

const BASELINE = 'oscal/content/fedramp-rev5/FedRAMP_rev5_MODERATE-baseline-resolved-profile_catalog-min.json';
/** Oldest first: the 25.11A draft carries no usable publication date, so the order is stated here. */
const RELEASES = [
  'fedramp/FRMR.KSI.key-security-indicators.25.05A.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.05B.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.05C.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.10A.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.11A.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.12A.json',
  'fedramp/FRMR.documentation.0.9.43-beta.json',
  'fedramp/fedramp-consolidated-rules.2026.07.14.01.json',
  'fedramp/fedramp-consolidated-rules.2026.09.13.02.json',
  'fedramp/fedramp-consolidated-rules.2026.10.05.01.json',
];
const OUT = path.join(__dirname, '..', 'src', 'domain', 'catalog', 'data');

function load(ref, rel) {
  const bytes = fs.readFileSync(path.join(ref, rel));
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  return { file: path.basename(rel), sha256: crypto.createHash('sha256').update(bytes).digest('hex'), json: JSON.parse(text) };
}

function derive(ref) {
  const baseline = load(ref, BASELINE);
  const metadata = baseline.json.catalog.metadata;
  const source = { baseline: metadata.title, file: baseline.file, sha256: baseline.sha256, version: metadata.version };
  const releases = RELEASES.map((rel) => {
    const f = load(ref, rel);
    return { file: f.file, sha256: f.sha256, release: readFrmrRelease(f.json, f.file) };
  });
  return deriveCatalog(baseline.json, source, releases);
}

function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const ref = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(__dirname, '..', '..', 'shared', 'reference'));
  const { catalog, crosswalk } = derive(ref);
  const files = { 'ksi-catalog.json': catalog, 'ksi-crosswalk.json': crosswalk };
  let stale = 0;
  for (const [name, data] of Object.entries(files)) {
    const target = path.join(OUT, name);
    const text = `${JSON.stringify(data, null, 2)}\n`;
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current === text) continue;
    if (check) {
      console.error(`${path.relative(process.cwd(), target)} is out of date: run npm run catalog`);
      stale += 1;
    } else {
      fs.mkdirSync(OUT, { recursive: true });
      fs.writeFileSync(`${target}.tmp`, text);
      fs.renameSync(`${target}.tmp`, target);
      console.log(`wrote ${path.relative(process.cwd(), target)}`);
    }
  }
  console.log(
    `${catalog.ksis.length} KSIs in ${catalog.families.length} families; ${crosswalk.official.length} official KSIs, current release ${crosswalk.current_release}`,
  );
  process.exitCode = stale ? 1 : 0;
}

module.exports = { derive, RELEASES, BASELINE };
if (require.main === module) main();
