#!/usr/bin/env node
'use strict';
// Run by `npm run build`, after tsc and before `oclif manifest` (which loads the commands and records their help):
// copies every Markdown help text of src/interfaces/cli/commands (src/interfaces/cli/help-text.ts) to the same place
// under dist/, where the built command reads it. The copies get the build's time, so dist/ stays newer than src/.
const { copyFileSync, mkdirSync, readdirSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');

const ROOT = join(__dirname, '..');
const FROM = join(ROOT, 'src', 'interfaces', 'cli', 'commands');
const TO = join(ROOT, 'dist', 'interfaces', 'cli', 'commands');

let copied = 0;
for (const file of readdirSync(FROM, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.md')) continue;
  const target = join(TO, file);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(FROM, file), target);
  copied += 1;
}
console.log(`help texts: ${copied} copied to ${relative(ROOT, TO)}/`);
