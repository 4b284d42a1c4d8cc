#!/usr/bin/env node
'use strict';
/**
 * Derives svc's CCI → NIST SP 800-53 table from DISA's CCI list (DESIGN §13; docs/adapters.md, vendor ckl):
 *   node scripts/build-cci.js [reference-dir] [--check]
 * reference-dir defaults to ../shared/reference. Writes src/infrastructure/scans/data/cci-nist.json; with --check it
 * writes nothing and exits 1 when the checked-in file is out of date.
 * Each CCI takes the controls of its "NIST SP 800-53 Revision 5" references; a CCI without one takes those of its
 * Revision 4 references (listed apart, so the adapter can say so); a CCI with neither is listed as unmapped.
 * Run `npm run build` first: the reference reading (`AC-2 (1) (a)` → `ac-2.1`) is the compiled domain code, the same
 * every adapter uses.
 */
const fs = require('node:fs');
const path = require('node:path');
const { referenceDir, writeDerived } = require('./derived-data');
const crypto = require('node:crypto');
const { SaxesParser } = require('saxes');
const { controlFromReference } = require('../dist/domain/catalog/ksi-catalog');

const LIST = 'disa/U_CCI_List.2023-06-07.xml';
const TARGET = path.join(__dirname, '..', 'src', 'infrastructure', 'scans', 'data', 'cci-nist.json');
const REVISION = /^NIST SP 800-53 Revision ([45])$/;

/** The CCI items of the list: id and the `index` of each Revision 4 and 5 reference; and the list's metadata. */
function readList(xml, file) {
  const parser = new SaxesParser();
  const items = [];
  const metadata = {};
  const stack = [];
  let item;
  let text = '';
  parser.on('error', (error) => {
    throw new Error(`${file}: invalid XML: ${error.message}`);
  });
  parser.on('opentag', (tag) => {
    stack.push(tag.name);
    text = '';
    if (tag.name === 'cci_item') item = { id: tag.attributes.id, rev5: [], rev4: [] };
    else if (tag.name === 'reference' && item) {
      const revision = REVISION.exec(tag.attributes.title ?? '')?.[1];
      if (revision) item[`rev${revision}`].push(tag.attributes.index ?? '');
    }
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('closetag', (tag) => {
    if (stack[stack.length - 2] === 'metadata') metadata[tag.name] = text.trim();
    if (tag.name === 'cci_item') {
      if (!/^CCI-\d{6}$/.test(item.id ?? '')) throw new Error(`${file}: cci_item[${items.length + 1}]/@id: "${item.id}" is not a CCI id`);
      items.push(item);
      item = undefined;
    }
    stack.pop();
  });
  parser.write(xml).close();
  return { items, metadata };
}

/** `AC-2 (1) (a)`, `SC-37, SC-37 (1)` → `ac-2.1`; `sc-37`, `sc-37.1`; a reference that names no control stops the build. */
function controlsOf(indexes, cci) {
  const controls = new Set();
  for (const index of indexes) {
    for (const part of index.split(',')) {
      const control = controlFromReference(part);
      if (!control) throw new Error(`${cci}: the 800-53 reference "${index}" names no control; extend controlFromReference or handle it here`);
      controls.add(control);
    }
  }
  return [...controls];
}

/** `ac-2` < `ac-2.1` < `ac-10` < `at-1`. */
function compareControls(a, b) {
  const [fa, na, ea] = /^([a-z]{2})-(\d+)(?:\.(\d+))?$/.exec(a).slice(1);
  const [fb, nb, eb] = /^([a-z]{2})-(\d+)(?:\.(\d+))?$/.exec(b).slice(1);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return Number(na) - Number(nb) || Number(ea ?? -1) - Number(eb ?? -1);
}

/** { control: "CCI-… CCI-…" }, controls in catalog order, CCIs in list order. */
function byControl(entries) {
  const table = new Map();
  for (const [cci, controls] of entries) for (const control of controls) table.set(control, [...(table.get(control) ?? []), cci]);
  return Object.fromEntries([...table.keys()].sort(compareControls).map((control) => [control, table.get(control).join(' ')]));
}

/** The data file's content derived from the reference directory. */
function derive(ref) {
  const bytes = fs.readFileSync(path.join(ref, LIST));
  const file = path.basename(LIST);
  const { items, metadata } = readList(bytes.toString('utf8').replace(/^\uFEFF/, ''), file);
  const rev5 = [];
  const rev4 = [];
  const unmapped = [];
  for (const { id, rev5: five, rev4: four } of items) {
    if (five.length > 0) rev5.push([id, controlsOf(five, id)]);
    else if (four.length > 0) rev4.push([id, controlsOf(four, id)]);
    else unmapped.push(id);
  }
  return {
    about:
      "DISA's CCI list as NIST SP 800-53 controls in svc's form (statement parts dropped, enhancements kept: AC-2 (1) (a) → ac-2.1), written by scripts/build-cci.js. " +
      'rev5: the CCIs whose Revision 5 references name each control; rev4: for CCIs without a Revision 5 reference, those whose Revision 4 references name it; ' +
      'unmapped: CCIs with neither. Each list is space-separated CCI ids.',
    source: { file, version: metadata.version, publishdate: metadata.publishdate, sha256: crypto.createHash('sha256').update(bytes).digest('hex') },
    counts: { ccis: items.length, rev5: rev5.length, rev4: rev4.length, unmapped: unmapped.length },
    rev5: byControl(rev5),
    rev4: byControl(rev4),
    unmapped: unmapped.join(' '),
  };
}

function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const ref = referenceDir(args);
  const data = derive(ref);
  const text = `${JSON.stringify(data, null, 2)}\n`;
  const stale = writeDerived(TARGET, text, check);
  const { counts, source } = data;
  console.log(
    `CCI list ${source.version}: ${counts.ccis} CCIs; ${counts.rev5} by their Revision 5 reference, ${counts.rev4} by their Revision 4 reference, ${counts.unmapped} unmapped`,
  );
  process.exitCode = stale;
}

module.exports = { derive, LIST, TARGET };
if (require.main === module) main();
