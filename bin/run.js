#!/usr/bin/env node
'use strict';

// `svc --version` answers without loading oclif: it is the command scripts call most, and oclif's
// config load costs more than the whole of Node's start. The text is what oclif itself prints.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { version } = require('../package.json');
  process.stdout.write(`svc/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  // oclif checks its own engine range with the whole of semver (47 modules) on every start; npm has checked ours.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true';
  const oclif = require('@oclif/core');
  // svc runs its compiled dist/ only. Without this, NODE_ENV=development or test makes oclif look for TypeScript
  // sources and, in an installed package that has none, warn "Could not find typescript" on every command.
  oclif.settings.enableAutoTranspile = false;
  oclif.execute({ dir: __dirname });
}
