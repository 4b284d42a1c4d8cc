import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENDOR_PARSERS } from '../../src/infrastructure/scans/registry';

/**
 * Issue 36, "one list of everything": the parser registry is the only list of scanners. The docs say "every scanner
 * (`svc adapter run --list`)" rather than a count, and what docs/adapters.md lists per vendor is checked against it.
 */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const vendors = VENDOR_PARSERS.map((p) => p.info.vendor);

describe('docs/adapters.md against the parser registry', () => {
  const doc = read('docs/adapters.md');

  it('has one section per parser, no more', () => {
    const sections = [...doc.matchAll(/^## ([a-z-]+) — /gm)].map((m) => m[1]);
    expect([...sections].sort()).toEqual([...vendors].sort());
    expect(new Set(sections).size).toBe(sections.length);
  });

  it("says of each vendor's detections what its parser declares", () => {
    const table = doc.slice(doc.indexOf('| vendor | kind | CVSS |'));
    const rows = table.split('\n').slice(2).filter((line) => line.startsWith('| '));
    const kindOf = new Map<string, string>();
    for (const row of rows) {
      const [names, kind] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
      for (const name of names.split(', ')) kindOf.set(name, kind);
    }
    expect([...kindOf.keys()].sort()).toEqual([...vendors].sort());
    // The kind a failed check is by default: the last kind the row names (a row may first name the exceptions).
    for (const { info } of VENDOR_PARSERS) expect({ vendor: info.vendor, kind: kindOf.get(info.vendor)?.match(/(vulnerability|configuration)(?![\s\S]*(vulnerability|configuration))/)?.[1] }).toEqual({ vendor: info.vendor, kind: expectedKind(info.vendor, info.detections) });
  });
});

/** Rows naming exceptions first end with the other kind: Trivy's and Nessus's misconfigurations and audit items, Security Hub's plain findings. */
function expectedKind(vendor: string, declared: string): string {
  return ['trivy', 'nessus', 'aws-securityhub'].includes(vendor) ? 'configuration' : declared;
}

describe('no hand count of scanners or routes', () => {
  // Release notes (docs/release/) say what a release held and docs/performance.md what was measured on a day; everything
  // else names the list instead of counting it.
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'performance.md').map((f) => `docs/${f}`)];

  it.each(files)('%s counts no scanners, vendors, adapters or routes by hand: it names the list (svc adapter run --list, /openapi.json)', (file) => {
    const counts = read(file)
      .split('\n')
      .map((line, i) => ({ line: i + 1, text: line }))
      .filter(({ text }) => /\b\d+ (vendors|scanners|scanner adapters|vendor parsers|adapters|routes)\b/.test(text));
    expect(counts).toEqual([]);
  });
});
