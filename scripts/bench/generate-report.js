'use strict';
/**
 * Writes a normalized report of n results for the benchmarks: every catalog KSI first, then unmapped ids
 * KSI-<4 letters>-<NN>, in ksi_id order, with the fields a scanner fills (title, details, time, source,
 * checks, evidence). Deterministic: the same n (and variant) gives the same bytes.
 *   node scripts/bench/generate-report.js <n> <out.json> [--variant b]
 * Variant b flips every 50th status and changes every 100th evidence payload, for the diff bench. Variant v is variant
 * a with `vulnerabilities[]`: n/10 detections (100k for 1M results) in n/100 groups (10k finding ids) from two sources,
 * for the conmon bench of DESIGN §11.
 */
const fs = require('node:fs');
const path = require('node:path');

const catalog = require('../../src/domain/catalog/data/ksi-catalog.json');
const STATUSES = ['PASS', 'PASS', 'WARN', 'FAIL'];

function ids(n) {
  const out = catalog.ksis.slice(0, n).map((k) => k.id);
  const letters = (i) => {
    let s = '';
    for (let k = 0; k < 4; k++, i = Math.floor(i / 26)) s = String.fromCharCode(65 + (i % 26)) + s;
    return s;
  };
  for (let i = 0; out.length < n; i++) out.push(`KSI-${letters(Math.floor(i / 100))}-${String(i % 100).padStart(2, '0')}`);
  return out.sort();
}

function result(id, i, variant) {
  const flip = variant === 'b' && i % 50 === 7;
  const status = STATUSES[(i * 7 + (flip ? 1 : 0)) % STATUSES.length];
  return {
    ksi_id: id,
    status,
    title: `Configuration check ${i} for ${id}`,
    details: status === 'PASS' ? 'All settings match the secure baseline.' : `Setting ${i % 97} differs from the secure baseline on ${1 + (i % 13)} resources.`,
    observed_at: `2026-11-0${1 + (i % 9)}T0${i % 10}:${String(i % 60).padStart(2, '0')}:00Z`,
    source: 'benchgen 1.0',
    checks: [{ id: `CHK.${i % 1000}.1`, status }],
    evidence: {
      resource: `/subscriptions/bench/resourceGroups/rg-${i % 500}/providers/vm-${i}`,
      value: variant === 'b' && i % 100 === 3 ? i + 1 : i,
      compliant: status === 'PASS',
    },
  };
}

function generate(n, file, variant = 'a') {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  let batch = `{"schema_version":"1","generated_at":"2026-11-10T00:00:00Z","source":{"tool":"benchgen","version":"1.0"},"results":[\n`;
  ids(n).forEach((id, i) => {
    batch += (i === 0 ? '' : ',\n') + JSON.stringify(result(id, i, variant));
    if (batch.length > 1 << 20) {
      fs.writeSync(fd, batch);
      batch = '';
    }
  });
  batch += '\n]';
  if (variant === 'v') {
    const groups = Math.max(1, Math.floor(n / 100));
    const severities = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
    batch += ',"vulnerabilities":[\n';
    for (let i = 0; i < Math.floor(n / 10); i++) {
      const finding = `CVE-2026-${String(10000 + (i % groups))}`;
      const detection = {
        id: `VULN-${i.toString(16).padStart(20, '0')}`,
        source: i % 2 === 0 ? 'Trivy' : 'Grype',
        finding_id: finding,
        resource: `registry.example.com/app-${i % 997}:1.${i % 7}: pkg-${i % 13}`,
        title: `${finding} in pkg-${i % 13}`,
        scanner_severity: severities[i % severities.length],
        detected_at: `2026-11-0${1 + (i % 9)}T00:00:00Z`,
        ...(i % 3 === 0 ? { cvss: 7.5, fix_available: true } : {}),
      };
      batch += (i === 0 ? '' : ',\n') + JSON.stringify(detection);
      if (batch.length > 1 << 20) {
        fs.writeSync(fd, batch);
        batch = '';
      }
    }
    batch += '\n]';
  }
  fs.writeSync(fd, `${batch}}\n`);
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

module.exports = { generate, ids, result };
if (require.main === module) {
  const [n, file] = process.argv.slice(2);
  const variant = process.argv.includes('--variant') ? process.argv[process.argv.indexOf('--variant') + 1] : 'a';
  console.log(`${file}: ${generate(Number(n), file, variant)} bytes`);
}
