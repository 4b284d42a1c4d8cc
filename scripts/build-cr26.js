#!/usr/bin/env node
'use strict';
/**
 * Derives the project's CR26 rules data from FedRAMP's consolidated rules file and the FRMR releases (docs/fedramp.md):
 *   node scripts/build-cr26.js [reference-dir] [--check]
 * reference-dir defaults to ../shared/reference. Writes src/domain/fedramp/data/cr26-rules.json; with --check it
 * writes nothing and exits 1 when the checked-in file is out of date.
 * Run `npm run build` first: the parser and the alias rules are the compiled domain code, the same svc runs.
 */
const fs = require('node:fs');
const path = require('node:path');
const { referenceDir, writeDerived } = require('./derived-data');
const crypto = require('node:crypto');
const { readCr26Rules } = require('../dist/domain/fedramp/cr26-rules');
const { cr26DataDocument } = require('../dist/domain/fedramp/cr26-data');
const { deriveCr26Aliases, readAliasSource } = require('../dist/domain/fedramp/cr26-aliases');

/** The newest release in the reference directory: the rules data svc ships (docs/fedramp.md, "FedRAMP releases"). */
const RULES = 'fedramp/fedramp-consolidated-rules.2026.10.05.01.json';
/** The FRMR releases whose ids and `fka` links give the aliases, oldest first (the last is the newest before CR26). */
const RELEASES = [
  'fedramp/FRMR.KSI.key-security-indicators.25.05A.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.05B.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.05C.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.10A.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.11A.json',
  'fedramp/FRMR.KSI.key-security-indicators.25.12A.json',
  'fedramp/FRMR.documentation.0.9.43-beta.json',
];
const TARGET = path.join(__dirname, '..', 'src', 'domain', 'fedramp', 'data', 'cr26-rules.json');

function load(ref, rel) {
  const bytes = fs.readFileSync(path.join(ref, rel));
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  return { file: path.basename(rel), sha256: crypto.createHash('sha256').update(bytes).digest('hex'), json: JSON.parse(text) };
}

/** The data file's content derived from the reference directory. */
function derive(ref) {
  const official = load(ref, RULES);
  const rules = readCr26Rules(official.json, official.file);
  const sources = RELEASES.map((rel) => {
    const f = load(ref, rel);
    return readAliasSource(f.json, f.file);
  });
  const { aliases, retired } = deriveCr26Aliases(sources, rules);
  return cr26DataDocument({ ...rules, aliases, retired }, { file: official.file, version: rules.info.version, sha256: official.sha256 });
}

function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const ref = referenceDir(args);
  const data = derive(ref);
  const text = `${JSON.stringify(data, null, 2)}\n`;
  const stale = writeDerived(TARGET, text, check);
  const subsets = data.families.reduce((n, f) => n + f.subsets.length, 0);
  console.log(
    `CR26 ${data.info.version}: ${data.rules.length} rules in ${data.families.length} families (${subsets} subsets), ${data.ksis.length} KSIs in ${data.themes.length} themes; ` +
      `${Object.keys(data.aliases).length} aliases, ${data.retired.length} retired ids`,
  );
  process.exitCode = stale;
}

module.exports = { derive, RULES, RELEASES, TARGET };
if (require.main === module) main();
