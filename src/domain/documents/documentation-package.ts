import type { HashedResult } from '../assessment/assessment';
import { needsPoam, poamId, poamRow, type PoamRow } from '../artifacts/poam';
import { controlsTouched, implementationStatus, narrativeSentence, type ImplementationStatus } from '../artifacts/ssp-narrative';
import { formatDigest } from '../evidence/content-digest';
import { evidenceTrace, type EvidenceTrace } from '../evidence/evidence-trace';
import type { GovernanceAction } from '../governance/governance-policy';
import type { Status } from '../ksi/status';
import type { EvidenceFile } from '../oscal/oscal-run';
import { areaOf, areaTitle } from '../reporting/areas';
import { systemOf, type DocumentRun } from './crm';

/** One KSI result as every page shows it. */
export interface KsiFacts {
  id: string;
  title: string;
  area: string;
  status: Status;
  /** `sha256:<hex>` content hash of its evidence entry. */
  hash: string;
  observedAt?: string;
  source?: string;
  details?: string;
  action: GovernanceAction;
  /** The POA&M item that tracks it (FAIL and WARN only). */
  poam?: string;
  /** Controls it maps to, in catalog order (none for an unmapped KSI). */
  controls: string[];
}

/** A family (or UNMAPPED) with its KSIs and the controls they touch. */
export interface AreaFacts {
  id: string;
  title: string;
  ksis: KsiFacts[];
  controls: string[];
}

/** A control the run touches: the SSP narrative of it, and its evidence trace (KSIs → evidence → actions). */
export interface ControlFacts {
  id: string;
  title: string;
  status: ImplementationStatus;
  /** The areas whose KSIs map to it. */
  areas: string[];
  ksis: KsiFacts[];
  /** One sentence per KSI, as ssp-narrative.md words it. */
  narrative: string[];
  trace: EvidenceTrace;
}

/** Everything the Markdown package and the HTML portal say about a run; the renderers only arrange it. */
export interface DocumentationPackage {
  system: string;
  tool: { name: string; version: string };
  /** ISO-8601 time of the run (SOURCE_DATE_EPOCH when set). */
  generatedAt: string;
  input: { name: string; sha256: string };
  /** `sha256:<hex>` RFC 6962 root over the evidence entries' content hashes. */
  merkleRoot: string;
  entriesFile: string;
  files: readonly EvidenceFile[];
  counts: { results: number; pass: number; warn: number; fail: number; controls: number; poam: number };
  /** In ksi_id order. */
  ksis: KsiFacts[];
  /** Area ids in code-unit order. */
  areas: AreaFacts[];
  /** In catalog order. */
  controls: ControlFacts[];
  /** FAIL and WARN results' POA&M rows, in ksi_id order. */
  poam: PoamRow[];
}

/** Gathers the facts of the documentation package (`svc generate docs`) and the portal (`svc generate site`). */
export function buildDocumentationPackage(run: DocumentRun): DocumentationPackage {
  const { catalog } = run;
  const ksis = run.results.map((entry) => ksiFacts(entry, run));
  const byId = new Map(ksis.map((k) => [k.id, k]));
  const areaIds = [...new Set(ksis.map((k) => k.area))].sort();
  const touched = controlsTouched(run.results, catalog);
  const controls = touched.map(({ control, covered }): ControlFacts => {
    const facts = covered.map((c) => byId.get(c.item.result.ksi_id) as KsiFacts);
    return {
      id: control,
      title: catalog.controlTitle(control) ?? '',
      status: implementationStatus(covered.map((c) => c.item)),
      areas: [...new Set(facts.map((k) => k.area))].sort(),
      ksis: facts,
      narrative: covered.map(({ item, hash }) => narrativeSentence(item, hash)),
      trace: evidenceTrace({ items: run.results.map((r) => r.item), hashes: run.results.map((r) => r.hash), merkleRoot: run.merkleRoot, catalog, control }),
    };
  });
  const poam = run.results.filter((r) => needsPoam(r.item)).map((r) => poamRow(r.item, run.context));
  const count = (status: Status) => ksis.filter((k) => k.status === status).length;
  return {
    system: systemOf(run),
    tool: run.tool,
    generatedAt: run.generatedAt,
    input: run.context.input,
    merkleRoot: formatDigest(run.merkleRoot),
    entriesFile: run.entriesFile,
    files: run.files,
    counts: { results: ksis.length, pass: count('PASS'), warn: count('WARN'), fail: count('FAIL'), controls: controls.length, poam: poam.length },
    ksis,
    areas: areaIds.map((id) => {
      const mine = ksis.filter((k) => k.area === id);
      return { id, title: areaTitle(id, catalog), ksis: mine, controls: controls.filter((c) => c.areas.includes(id)).map((c) => c.id) };
    }),
    controls,
    poam,
  };
}

function ksiFacts({ item, hash }: HashedResult, run: DocumentRun): KsiFacts {
  const { result, definition, action } = item;
  return {
    id: result.ksi_id,
    title: result.title ?? definition?.title ?? result.ksi_id,
    area: areaOf(item),
    status: result.status,
    hash: formatDigest(hash),
    ...(result.observed_at !== undefined ? { observedAt: result.observed_at } : {}),
    ...(result.source !== undefined ? { source: result.source } : {}),
    ...(result.details !== undefined ? { details: result.details } : {}),
    action,
    ...(needsPoam(item) ? { poam: poamId(result.ksi_id) } : {}),
    controls: [...(definition?.controls ?? [])].sort(run.catalog.compareControls),
  };
}

/** A file of a generated package: its path under the package directory (`/`-separated) and its text. */
export interface PackageFile {
  path: string;
  text: string;
}

/** `SHA256SUMS` in the format `sha256sum --check` reads: `<hex>  <path>`, one line per file, in path order. */
export function sha256sums(files: readonly { path: string; sha256: string }[]): string {
  return [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => `${f.sha256}  ${f.path}\n`)
    .join('');
}
