'use strict';
/**
 * What the scripts that derive the project's data from ../shared/reference share (build-cr26.js, build-cci.js,
 * build-baselines.js): where the reference is, and writing a data file atomically, or with --check only saying it
 * is stale.
 */
const fs = require('node:fs');
const path = require('node:path');

/** The reference directory: the first argument that is no flag, else ../shared/reference beside the checkout. */
function referenceDir(args) {
  return path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(__dirname, '..', '..', 'shared', 'reference'));
}

/**
 * Writes `text` to `target` when it differs (through a temporary file renamed into place); with `check`, writes
 * nothing and says the file is stale. Returns 1 when a --check found it stale, else 0 (the exit code).
 */
function writeDerived(target, text, check) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (current === text) return 0;
  if (check) {
    console.error(`${path.relative(process.cwd(), target)} is out of date: run npm run catalog`);
    return 1;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(`${target}.tmp`, text);
  fs.renameSync(`${target}.tmp`, target);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
  return 0;
}

module.exports = { referenceDir, writeDerived };
