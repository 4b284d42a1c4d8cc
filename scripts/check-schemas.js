#!/usr/bin/env node
'use strict';
// Run by `npm run build`: every JSON Schema svc carries (schemas/, docs/schemas.md) must be the file its manifest
// records, byte for byte (sha256 and size), and hold the $schemaVersion (FedRAMP) or $id (NIST) the manifest gives;
// no file may be there that the manifest does not list. Any difference fails the build, naming the file.
const { createHash } = require('node:crypto');
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

// The directory to check: the project's schemas/, or another (a test's altered copy).
const ROOT = process.argv[2] ?? join(__dirname, '..', 'schemas');
const problems = [];

function listed() {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8'));
  const sets = [
    ...manifest.fedramp.generations.map((g) => ({ dir: join('fedramp', g.generation), files: g.files, field: '$schemaVersion' })),
    ...manifest.oscal.releases.map((r) => ({ dir: join('oscal', r.release), files: r.files, field: '$id' })),
  ];
  if (!manifest.fedramp.generations.some((g) => g.generation === manifest.fedramp.default))
    problems.push(`manifest.json: the default generation ${manifest.fedramp.default} is not listed`);
  return sets.flatMap((set) => set.files.map((f) => ({ path: join(set.dir, f.file), entry: f, field: set.field })));
}

function present(dir = ROOT) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? present(path) : [relative(ROOT, path)];
  });
}

const files = listed();
for (const { path, entry, field } of files) {
  let bytes;
  try {
    bytes = readFileSync(join(ROOT, path));
  } catch (error) {
    problems.push(`${path}: listed in manifest.json but unreadable (${error.code ?? error.message})`);
    continue;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== entry.sha256) problems.push(`${path}: sha256 is ${sha256}, manifest.json says ${entry.sha256}`);
  if (bytes.length !== entry.bytes) problems.push(`${path}: ${bytes.length} bytes, manifest.json says ${entry.bytes}`);
  let inside;
  try {
    inside = JSON.parse(bytes.toString('utf8'))[field];
  } catch (error) {
    problems.push(`${path}: not JSON (${error.message})`);
    continue;
  }
  if (inside !== entry[field]) problems.push(`${path}: ${field} is ${JSON.stringify(inside)}, manifest.json says ${JSON.stringify(entry[field])}`);
}
const known = new Set(['manifest.json', ...files.map((f) => f.path)]);
for (const path of present()) if (!known.has(path)) problems.push(`${path}: not listed in manifest.json`);

if (problems.length > 0) {
  process.stderr.write(
    `schemas/ does not match schemas/manifest.json; the carried schemas must be the published bytes (docs/schemas.md):\n${problems.map((p) => `  schemas/${p}`).join('\n')}\n`,
  );
  process.exit(1);
}
process.stdout.write(`schemas/: ${files.length} files match manifest.json\n`);
