#!/usr/bin/env node
'use strict';

// `svc --version` answers without loading oclif: it is the command scripts call most, and oclif's
// config load costs more than the whole of Node's start. The text is what oclif itself prints.
const argv = process.argv.slice(2);
const isVersion = (arg) => arg === '--version' || arg === '-v';
if (argv.length === 1 && isVersion(argv[0])) {
  const { version } = require('../package.json');
  process.stdout.write(`svc/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else if (argv.length === 2 && argv.some(isVersion) && argv.includes('--json')) {
  // The same, and what this build carries: the CR26 rules release and the schema sets (docs/schemas.md). Read only here.
  const { version } = require('../package.json');
  const schemas = require('../schemas/manifest.json');
  const rules = require('../dist/domain/fedramp/data/cr26-rules.json');
  const current = schemas.fedramp.generations.find((g) => g.generation === schemas.fedramp.default);
  const carried = {
    rules: { version: rules.info.version, date: rules.info.date, file: rules.source.file, sha256: `sha256:${rules.source.sha256}` },
    fedramp_schemas: {
      generations: schemas.fedramp.generations.map((g) => g.generation),
      default: current.generation,
      schemas: current.files.map((f) => ({ type: f.type, schema_version: f.$schemaVersion, sha256: `sha256:${f.sha256}`, file: f.file })),
    },
    oscal_schemas: schemas.oscal.releases.map((r) => r.release),
  };
  const answer = { name: 'svc', version, platform: `${process.platform}-${process.arch}`, node: process.version, carries: carried };
  process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
} else {
  // oclif checks its own engine range with the whole of semver (47 modules) on every start; npm has checked ours.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true';
  const path = require('node:path');
  try {
    // V8's code cache of the modules a command loads, kept in the cache directory's modules/ between runs: compiling
    // oclif, tsyringe and the composition root is much of a command's start (dist/infrastructure/shared/compile-cache.js).
    const { svcCacheDir } = require('../dist/infrastructure/shared/cache-dir');
    const dir = path.resolve(svcCacheDir(process.env, require('node:os').homedir()), 'modules');
    require('../dist/infrastructure/shared/compile-cache').enableCompileCache({ dir, root: path.join(__dirname, '..') });
  } catch {
    // an optimisation only
  }
  // oclif's start imports an ES module to ask whether it runs in WSL; the answer is given without it where it is no.
  require('../dist/interfaces/cli/oclif-platform').answerPlatformWithoutImport(require.resolve('@oclif/core'));
  const oclif = require('@oclif/core');
  // svc runs its compiled dist/ only. Without this, NODE_ENV=development or test makes oclif look for TypeScript
  // sources and, in an installed package that has none, warn "Could not find typescript" on every command.
  oclif.settings.enableAutoTranspile = false;
  oclif.execute({ dir: __dirname });
}
