#!/usr/bin/env node
'use strict';
/**
 * Derives the FedRAMP rev5 baseline control lists from FedRAMP's OSCAL profiles:
 *   node scripts/build-baselines.js [reference-dir] [--check]
 * reference-dir defaults to ../shared/reference. Writes src/domain/catalog/data/fedramp-baselines.json;
 * with --check it writes nothing and exits 1 when the checked-in file is out of date.
 * Self-contained (no dist/): listing the ids a profile selects needs no domain rules.
 */
const fs = require('node:fs');
const path = require('node:path');
const { referenceDir, writeDerived } = require('./derived-data');
const crypto = require('node:crypto');

const PROFILES = {
  low: 'oscal/content/fedramp-rev5/FedRAMP_rev5_LOW-baseline_profile.json',
  moderate: 'oscal/content/fedramp-rev5/FedRAMP_rev5_MODERATE-baseline_profile.json',
  high: 'oscal/content/fedramp-rev5/FedRAMP_rev5_HIGH-baseline_profile.json',
};
const TARGET = path.join(__dirname, '..', 'src', 'domain', 'catalog', 'data', 'fedramp-baselines.json');
const CONTROL_ID = /^([a-z]{2})-(\d+)(?:\.(\d+))?$/;

/** NIST catalog order: family, control number, then the base control before its enhancements in number order. */
function compareControls(a, b) {
  const [, fa, ca, ea] = CONTROL_ID.exec(a);
  const [, fb, cb, eb] = CONTROL_ID.exec(b);
  if (fa !== fb) return fa < fb ? -1 : 1;
  if (Number(ca) !== Number(cb)) return Number(ca) - Number(cb);
  return (ea === undefined ? 0 : Number(ea)) - (eb === undefined ? 0 : Number(eb));
}

function selectedControls(profile, file) {
  const ids = new Set();
  for (const [i, imp] of (profile.imports ?? []).entries()) {
    // Only an explicit id list can be read without resolving the imported catalog; FedRAMP's profiles use nothing else.
    if (imp['include-all'] !== undefined || imp['exclude-controls'] !== undefined) {
      throw new Error(
        `${file}: profile.imports[${i}] uses include-all or exclude-controls, which this script does not resolve; list the controls in include-controls[].with-ids`,
      );
    }
    for (const include of imp['include-controls'] ?? []) {
      for (const raw of include['with-ids'] ?? []) {
        const id = String(raw).trim().toLowerCase();
        if (!CONTROL_ID.test(id))
          throw new Error(
            `${file}: profile.imports[${i}]: control id ${JSON.stringify(raw)} is not of the form ac-2 or ac-2.1; fix the profile or this script's CONTROL_ID`,
          );
        ids.add(id);
      }
    }
  }
  if (ids.size === 0) throw new Error(`${file}: no controls in profile.imports[].include-controls[].with-ids; is this a FedRAMP baseline profile?`);
  return [...ids].sort(compareControls);
}

function derive(ref) {
  const source = [];
  const baselines = {};
  for (const [level, rel] of Object.entries(PROFILES)) {
    const bytes = fs.readFileSync(path.join(ref, rel));
    const profile = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')).profile;
    const file = path.basename(rel);
    const { title, version } = profile.metadata;
    source.push({ level, file, sha256: crypto.createHash('sha256').update(bytes).digest('hex'), title, version });
    baselines[level] = { title, controls: selectedControls(profile, file) };
  }
  return { source, baselines };
}

function render(data) {
  return `${JSON.stringify(data, null, 2)}\n`;
}

function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const ref = referenceDir(args);
  const data = derive(ref);
  const text = render(data);
  const stale = writeDerived(TARGET, text, check);
  console.log(
    Object.entries(data.baselines)
      .map(([level, b]) => `${level} ${b.controls.length}`)
      .join(', '),
  );
  process.exitCode = stale;
}

module.exports = { derive, render, compareControls, PROFILES };
if (require.main === module) main();
