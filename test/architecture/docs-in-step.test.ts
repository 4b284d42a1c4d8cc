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
    const rows = table
      .split('\n')
      .slice(2)
      .filter((line) => line.startsWith('| '));
    const kindOf = new Map<string, string>();
    for (const row of rows) {
      const [names, kind] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
      for (const name of names.split(', ')) kindOf.set(name, kind);
    }
    expect([...kindOf.keys()].sort()).toEqual([...vendors].sort());
    // The kind a failed check is by default: the last kind the row names (a row may first name the exceptions).
    for (const { info } of VENDOR_PARSERS)
      expect({
        vendor: info.vendor,
        kind: kindOf.get(info.vendor)?.match(/(vulnerability|configuration)(?![\s\S]*(vulnerability|configuration))/)?.[1],
      }).toEqual({ vendor: info.vendor, kind: expectedKind(info.vendor, info.detections) });
  });
});

/** Rows naming exceptions first end with the other kind: Trivy's and Nessus's misconfigurations and audit items, Security Hub's plain findings. */
function expectedKind(vendor: string, declared: string): string {
  return ['trivy', 'nessus', 'aws-securityhub'].includes(vendor) ? 'configuration' : declared;
}

describe('no hand count of scanners or routes', () => {
  // Release notes (docs/release/) say what a release held and docs/performance.md what was measured on a day; everything
  // else names the list instead of counting it.
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'performance.md')
      .map((f) => `docs/${f}`),
  ];

  it.each(files)('%s counts no scanners, vendors, adapters or routes by hand: it names the list (svc adapter run --list, /openapi.json)', (file) => {
    const counts = read(file)
      .split('\n')
      .map((line, i) => ({ line: i + 1, text: line }))
      .filter(({ text }) => /\b\d+ (vendors|scanners|scanner adapters|vendor parsers|adapters|routes)\b/.test(text));
    expect(counts).toEqual([]);
  });
});

/**
 * docs/architecture.md's tables against the code (issue 36: five of its ten claims had gone stale): the ports and
 * their doubles, where each adapter lives, the use cases behind each route module, and the contract suites.
 */
describe('docs/architecture.md against src/', () => {
  const doc = read('docs/architecture.md');
  const sectionOf = (heading: string) => {
    const start = doc.indexOf(heading);
    const next = doc.indexOf('\n## ', start + heading.length);
    return doc.slice(start, next === -1 ? undefined : next);
  };
  const firstCells = (section: string) =>
    section
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('|---'))
      .slice(1)
      .map((line) => line.split(' | ')[0].replace(/^\| /, ''));
  const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const ports = readdirSync(join(ROOT, 'src', 'ports')).flatMap((file) =>
    [...read(`src/ports/${file}`).matchAll(/^export const ([A-Z][A-Z_]+)(?:: InjectionToken<[^\n]*>)? = Symbol\(/gm)].map((m) => m[1]),
  );

  it('names every port exactly once in "Ports and their doubles", and nothing that is not one', () => {
    const named = firstCells(sectionOf('## Ports and their doubles')).flatMap(ticked);
    expect(ports.length).toBeGreaterThan(40);
    expect([...named].sort()).toEqual([...ports].sort());
  });

  it('places every folder of src/infrastructure in "Where an adapter lives", and no folder that is gone', () => {
    const folders = readdirSync(join(ROOT, 'src', 'infrastructure'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `${e.name}/`);
    const named = firstCells(sectionOf('## Where an adapter lives')).flatMap(ticked);
    expect([...named].sort()).toEqual([...folders].sort());
  });

  it('has a row per route module, naming use cases that exist and ports that exist', () => {
    const table = doc.slice(doc.indexOf('| module | use cases'), doc.indexOf('## Where an adapter lives'));
    const rows = table
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('|---'))
      .slice(1)
      .map((line) => line.slice(2, -2).split(' | '));
    // RouteSpec's `module` union: the route modules there are.
    const routeModules = new Set(
      [...(read('src/interfaces/http/routes/route.ts').match(/^ {2}module: ([^;]+);$/m)?.[1] ?? '').matchAll(/'(\w+)'/g)].map((m) => m[1]),
    );
    expect(rows.map(([module]) => module).sort()).toEqual([...routeModules].sort());
    for (const [module, useCases, named] of rows) {
      const [first, ...rest] = ticked(useCases);
      const folder = first.split('/')[0];
      const classes = [first.split('/')[1], ...rest];
      const exported = readdirSync(join(ROOT, 'src', 'application', folder)).flatMap((file) =>
        [...read(`src/application/${folder}/${file}`).matchAll(/^export class (\w+)/gm)].map((m) => m[1]),
      );
      expect({ module, missing: classes.filter((c) => !exported.includes(c)) }).toEqual({ module, missing: [] });
      expect({ module, notPorts: ticked(named).filter((p) => !ports.includes(p)) }).toEqual({ module, notPorts: [] });
    }
  });

  it('lists the contract suites test/contracts holds', () => {
    const suites = readdirSync(join(ROOT, 'test', 'contracts')).map((f) => f.replace(/\.contract\.ts$/, ''));
    const paragraph = doc.slice(doc.indexOf('have a contract suite in `test/contracts`'), doc.indexOf('so the doubles stay honest'));
    expect(
      ticked(paragraph)
        .filter((t) => t !== 'test/contracts')
        .sort(),
    ).toEqual([...suites].sort());
  });
});
