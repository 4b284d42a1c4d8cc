import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { RunAdapter } from '../../src/application/adapters/run-adapter';
import { NodeCryptoHashing } from '../../src/infrastructure/hashing/node-crypto-hashing';
import { VENDOR_PARSERS } from '../../src/infrastructure/scans/registry';
import { VendorScanReader } from '../../src/infrastructure/scans/vendor-scan-reader';
import { FixedClock } from '../fakes/fixed-clock';
import { InMemoryArtifactWriter } from '../fakes/in-memory-artifact-writer';
import { TEST_SETTINGS } from '../support/builders';
import { REFERENCE, ROOT } from '../support/run-svc';

/**
 * Golden outputs (STYLE §9, issue 36; MITRE SAF keeps one per converter sample): for every parser of the registry and
 * every real scanner file of ../shared/reference it reads, the normalized report `svc adapter run <vendor> <file> --out`
 * writes, compared whole with test/golden/<vendor>/<file>.json. `UPDATE_GOLDEN=1` writes them instead (and removes
 * golden files no sample produces any more); review the diff before committing it.
 */

const GOLDEN = join(ROOT, 'test', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const RERUN = 'UPDATE_GOLDEN=1 npx jest test/integration/golden-outputs.test.ts';
/** The run's time: SOURCE_DATE_EPOCH of the CLI tests (test/support/run-svc.ts). */
const NOW = new Date('2026-01-01T00:00:00Z');
/**
 * A report written larger than this is kept as a digest and summary (digestForm), so the repository stays small. STYLE §9
 * would rather trim the sample than skip fields: this is the fallback for a real sample that cannot be trimmed. No sample
 * comes near it today (the largest golden file, ckl/red_hat_good.ckl.json, is 134 KB).
 */
const MAX_GOLDEN_BYTES = 2 * 1024 * 1024;

/**
 * Where each vendor's real files are: ../shared/reference/raw-samples/<vendor>/, and for oscal-ar NIST's OSCAL examples
 * (the adapter tests use the same folders: test/integration/adapters/format-detection.test.ts).
 */
const FOLDERS: Record<string, string[]> = { 'oscal-ar': [join(REFERENCE, 'oscal', 'examples')] };
const foldersOf = (vendor: string) => [join(REFERENCE, 'raw-samples', vendor), ...(FOLDERS[vendor] ?? [])].filter((dir) => existsSync(dir));

/**
 * Which files of a sample folder are scanner output, deliberately: not the folders' README.md (where each file came
 * from), not scubagear's policy-nist-map.tsv (CISA's policy → NIST control table the catalog is derived from), and of
 * NIST's OSCAL examples only the assessment-results documents (the catalog, SSP, AP, POA&M and component definition
 * are other OSCAL models, which the oscal-ar adapter refuses by design).
 */
function isSample(dir: string, file: string): boolean {
  if (/\.(md|tsv)$/i.test(file)) return false;
  if (dir.startsWith(join(REFERENCE, 'oscal'))) return file.endsWith('.json') && 'assessment-results' in JSON.parse(readFileSync(join(dir, file), 'utf8'));
  return true;
}

/**
 * Vendors of the registry with no real file in ../shared/reference, each with the reason: they alone may have no
 * golden output. None today; a new parser goes here only when no real output of its scanner can be had.
 */
const WITHOUT_SAMPLE: Record<string, string> = {};

const samples = VENDOR_PARSERS.flatMap(({ info: { vendor } }) =>
  foldersOf(vendor).flatMap((dir) =>
    readdirSync(dir)
      .filter((file) => isSample(dir, file))
      .sort()
      .map((file) => ({ vendor, file, path: join(dir, file), golden: join(GOLDEN, vendor, `${file}.json`) })),
  ),
);

const writer = new InMemoryArtifactWriter();
const adapter = new RunAdapter(
  new VendorScanReader(VENDOR_PARSERS),
  writer,
  new FixedClock(NOW),
  { ...TEST_SETTINGS, tool: { name: 'svc', version: packageVersion() } },
  new NodeCryptoHashing(),
);

/** The report as `svc adapter run <vendor> <path> --out` writes it: RunAdapter itself, over the real parsers and hashing, at NOW. */
async function reportOf(vendor: string, path: string): Promise<unknown> {
  const out = `/golden/${vendor}/${relative(REFERENCE, path)}`;
  await adapter.execute({ vendor, input: path, out });
  const text = writer.files.get(out) as string;
  writer.files.delete(out);
  return JSON.parse(text);
}

/**
 * What differs from run to run or machine to machine, made fixed: svc's version (source.adapter_version changes with
 * every release, not with the adapter's output) and any absolute path of this checkout or of the reference files. The
 * time of the run is NOW already; content hashes (raw_sha256, detection ids) stay, as they depend on the file alone.
 */
function normalize(report: unknown): unknown {
  const places: [string, string][] = [
    [REFERENCE, '<reference>'],
    [ROOT, '<root>'],
  ];
  const strip = (value: unknown): unknown => {
    if (typeof value === 'string') return places.reduce((text, [path, name]) => text.split(path).join(name), value);
    if (Array.isArray(value)) return value.map(strip);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)]));
    return value;
  };
  const out = strip(report) as { source?: Record<string, unknown> };
  if (out.source?.adapter_version !== undefined) out.source.adapter_version = '<svc version>';
  return out;
}

/** Keys sorted at every level (arrays keep their order, which is the report's): the golden text of a value. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
const goldenText = (value: unknown) => `${JSON.stringify(stable(value), null, 2)}\n`;
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/**
 * A report too large to keep whole (over MAX_GOLDEN_BYTES written): the SHA-256 of its full golden text, its source and
 * summary, how many results have each status, every result's KSI, status and SHA-256, and every detection's id and
 * SHA-256. Any change still fails the comparison, and the lines that differ say which KSI or detection changed.
 */
function digestForm(
  report: { source?: unknown; summary?: unknown; results?: { ksi_id: string; status: string }[]; vulnerabilities?: { id: string }[] },
  full: string,
) {
  const results = report.results ?? [];
  const statuses: Record<string, number> = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return {
    golden_form: `digest: the full report is ${Buffer.byteLength(full)} bytes, more than the ${MAX_GOLDEN_BYTES} kept whole`,
    full_report_sha256: sha256(full),
    source: report.source,
    summary: report.summary,
    statuses,
    results: results.map((r) => ({ ksi_id: r.ksi_id, status: r.status, sha256: sha256(goldenText(r)) })),
    vulnerabilities: (report.vulnerabilities ?? []).map((v) => ({ id: v.id, sha256: sha256(goldenText(v)) })),
  };
}

async function goldenOf(vendor: string, path: string): Promise<string> {
  const report = normalize(await reportOf(vendor, path));
  const full = goldenText(report);
  return Buffer.byteLength(full) <= MAX_GOLDEN_BYTES ? full : goldenText(digestForm(report as Parameters<typeof digestForm>[0], full));
}

/**
 * Paths of this machine that must not be in a golden file (after normalize): where this checkout is, by its given and
 * its real path. Not the home or temp folder: scanner samples name /root and /tmp themselves (the RHEL 7 STIG does).
 */
function machinePaths(): string[] {
  return [...new Set([ROOT, realpathSync(ROOT)].map((p) => `${dirname(p)}${sep}`))].filter((p) => p !== sep);
}

/** Where the golden text first differs from the report's, with a few lines of each. */
function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const lines = (from: string[]) =>
    from
      .slice(Math.max(0, i - 2), i + 3)
      .map((l, k) => `  ${Math.max(0, i - 2) + k + 1}: ${l}`)
      .join('\n');
  return `first difference at line ${i + 1} (golden has ${a.length} lines, the report ${b.length})\ngolden:\n${lines(a)}\nreport now:\n${lines(b)}`;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

describe(`golden outputs: the normalized report of every real sample of the ${VENDOR_PARSERS.length} parsers`, () => {
  it('has a sample for every vendor of the registry (or says why it has none)', () => {
    const vendors = VENDOR_PARSERS.map((p) => p.info.vendor);
    const problems = [
      ...vendors
        .filter((v) => !samples.some((s) => s.vendor === v) && WITHOUT_SAMPLE[v] === undefined)
        .map(
          (v) =>
            `${v}: no real sample in ${relative(ROOT, join(REFERENCE, 'raw-samples', v))}/, so no golden output; add one, or list the vendor in WITHOUT_SAMPLE with the reason`,
        ),
      ...Object.keys(WITHOUT_SAMPLE)
        .filter((v) => !vendors.includes(v) || samples.some((s) => s.vendor === v))
        .map(
          (v) => `${v}: listed in WITHOUT_SAMPLE but ${vendors.includes(v) ? 'it has a sample now' : 'not a vendor of the registry'}; remove it from the list`,
        ),
    ];
    expect(problems).toEqual([]);
  });

  it.each(samples.map((s) => [`${s.vendor}/${s.file}`, s] as const))('%s', async (_name, { vendor, path, golden }) => {
    const text = await goldenOf(vendor, path);
    const leaked = machinePaths().filter((p) => text.includes(p));
    if (leaked.length > 0) throw new Error(`${relative(ROOT, golden)} would hold this machine's path ${leaked.join(' and ')}: normalize() must replace it`);
    if (UPDATE) {
      mkdirSync(dirname(golden), { recursive: true });
      writeFileSync(golden, text);
      return;
    }
    if (!existsSync(golden)) throw new Error(`${relative(ROOT, golden)} is missing: run ${RERUN}`);
    const expected = readFileSync(golden, 'utf8');
    if (expected !== text)
      throw new Error(
        `${relative(ROOT, golden)} differs from ${vendor}'s report now; ${firstDifference(expected, text)}\nIf the change is intended, run ${RERUN} and review the diff.`,
      );
  });

  it('holds no golden file that no sample produces', () => {
    const expected = new Set(samples.map((s) => s.golden));
    const stale = filesUnder(GOLDEN).filter((file) => !expected.has(file));
    if (UPDATE) for (const file of stale) rmSync(file);
    else if (stale.length > 0)
      throw new Error(
        `golden files no sample produces (a sample or vendor gone or renamed): ${stale.map((file) => relative(ROOT, file)).join(', ')}; delete them, or run ${RERUN}`,
      );
  });
});
