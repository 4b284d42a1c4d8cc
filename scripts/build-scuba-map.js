#!/usr/bin/env node
'use strict';
/**
 * Writes src/infrastructure/scans/data/scubagear-nist.json, the project's own ScubaGear policy → NIST SP
 * 800-53 rev5 table, from the facts in ../shared/reference/raw-samples/scubagear/policy-nist-map.tsv (taken
 * by CISA's baseline documents' "FedRAMP High Baseline Mapping" lines).
 *   node scripts/build-scuba-map.js [reference-dir] [--check]
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const OUT = path.join(__dirname, '..', 'src', 'infrastructure', 'scans', 'data', 'scubagear-nist.json');

function derive(ref) {
  const file = path.join(ref, 'raw-samples', 'scubagear', 'policy-nist-map.tsv');
  const bytes = fs.readFileSync(file);
  const [header, ...rows] = bytes.toString('utf8').trim().split('\n');
  const columns = header.split('\t');
  const at = (name) => columns.indexOf(name);
  const policies = {};
  for (const row of rows) {
    const cells = row.split('\t');
    const id = cells[at('policy_id')];
    policies[id] = {
      criticality: cells[at('criticality')] === 'SHALL' ? 'must' : 'should',
      controls: cells[at('nist_controls')] ? cells[at('nist_controls')].split(',') : [],
      title: cells[at('title')],
    };
  }
  const sorted = Object.fromEntries(
    Object.keys(policies)
      .sort()
      .map((k) => [k, policies[k]]),
  );
  return { source: { file: 'policy-nist-map.tsv', sha256: crypto.createHash('sha256').update(bytes).digest('hex') }, policies: sorted };
}

function main() {
  const args = process.argv.slice(2);
  const ref = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(__dirname, '..', '..', 'shared', 'reference'));
  const text = `${JSON.stringify(derive(ref), null, 2)}\n`;
  const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  if (args.includes('--check')) {
    if (current !== text) {
      console.error(`${path.relative(process.cwd(), OUT)} is out of date: run node scripts/build-scuba-map.js`);
      process.exitCode = 1;
    }
    return;
  }
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, text);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}: ${Object.keys(JSON.parse(text).policies).length} policies`);
}

module.exports = { derive };
if (require.main === module) main();
