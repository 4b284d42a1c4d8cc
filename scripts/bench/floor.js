'use strict';
/**
 * The floor the pipeline bench compares svc with: the least any tool must do for the same job. It reads
 * the report, parses it with JSON.parse, hashes each result once (SHA-256 of its JSON text) and writes as
 * many bytes as svc's six artifacts hold (`bytes`), in 1 MiB writes with an fsync per file like svc.
 *   node scripts/bench/floor.js bundle <report.json> <out-dir> <bytes>
 *   node scripts/bench/floor.js parse <a.json> [<b.json> ...]      (the diff floor: parse only)
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

function parse(file) {
  const bytes = fs.readFileSync(file);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const doc = JSON.parse(bytes.toString('utf8', bom));
  return Array.isArray(doc) ? doc : doc.results;
}

function bundle(file, outDir, total) {
  const results = parse(file);
  fs.mkdirSync(outDir, { recursive: true });
  const fd = fs.openSync(path.join(outDir, 'floor.out'), 'w');
  let written = 0;
  let batch = '';
  const flush = () => {
    const buffer = Buffer.from(batch.slice(0, total - written));
    fs.writeSync(fd, buffer);
    written += buffer.length;
    batch = '';
  };
  for (const result of results) {
    const text = JSON.stringify(result);
    crypto.hash('sha256', text, 'hex');
    if (written < total) {
      batch += text;
      if (batch.length >= 1 << 20) flush();
    }
  }
  if (batch) flush();
  const pad = Buffer.alloc(1 << 20, 0x20);
  while (written < total) written += fs.writeSync(fd, pad, 0, Math.min(pad.length, total - written));
  fs.fsyncSync(fd);
  fs.closeSync(fd);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'bundle') bundle(args[0], args[1], Number(args[2]));
else if (mode === 'parse') for (const f of args) parse(f);
else throw new Error('usage: floor.js bundle <report> <out-dir> <bytes> | parse <files...>');
