#!/usr/bin/env node
'use strict';
/**
 * The api bench's floor: a bare node:http server that answers every request with the bytes of one response of
 * GET /auditor/evidence, read from a file, and prints its port.   node bare-server.js <body-file>
 */
const http = require('node:http');
const fs = require('node:fs');

const body = fs.readFileSync(process.argv[2]);
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
