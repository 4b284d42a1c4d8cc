#!/usr/bin/env node
// svc-api: the HTTP API of svc (the `api` extra). See docs/api.md.
require('reflect-metadata');
const { main } = require('../dist/interfaces/http/main');

main(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
  resolve: (name) => require.resolve(name),
}).then((code) => {
  if (code !== undefined) process.exitCode = code;
});
