import { assessEach, RunTally, sortedById } from '../assessment/assessment';
import { KsiCatalog, type CatalogData, type KsiDefinition } from '../catalog/ksi-catalog';
import { writeDigestAt, type ContentDigest } from '../evidence/content-digest';
import { decideAction, type GovernancePolicy } from '../governance/governance-policy';
import { SEVERITIES, type Severity } from '../governance/severity';
import { readNormalizedReport, type KsiResult } from '../ksi/ksi-result';
import { countStatuses, type StatusCounts } from '../ksi/status';
import { EvidenceEntries } from './evidence-bundle';
import { GovernanceLines } from './governance-report';
import { LineageRows } from './lineage';
import { PoamRows } from './poam';
import type { RunContext } from './run-context';
import type { TextSink } from './text-sink';

/** Where one partition's pieces of the three streamed artifacts go. */
export interface PartitionSinks {
  evidence: TextSink;
  poam: TextSink;
  lineage: TextSink;
}

/** Whether entries and POA&M rows of earlier partitions come before this one's (they decide the commas). */
export interface Preceded {
  entries: boolean;
  rows: boolean;
}

export interface PartitionOutcome {
  tally: RunTally;
  poamRows: number;
  governance: GovernanceLines;
}

/**
 * Renders a run of results (sorted by ksi_id) into the bundle's per-result pieces: evidence entries, POA&M
 * rows and lineage rows, counting as it goes and keeping each action's severity for the governance report.
 * `onEntry` receives each entry's content hash in order (the Merkle leaves) and how many entries are done.
 * A bundle is one partition, or several rendered side by side and joined in order.
 */
export function renderPartition(args: {
  results: readonly KsiResult[];
  catalog: KsiCatalog;
  policy: GovernancePolicy;
  context: RunContext;
  digest: ContentDigest;
  sinks: PartitionSinks;
  preceded: Preceded;
  onEntry: (hash: string, done: number) => void;
}): PartitionOutcome {
  const { sinks, preceded, digest } = args;
  const evidence = new EvidenceEntries(sinks.evidence, digest, preceded.entries);
  const poam = new PoamRows(sinks.poam, args.context, preceded.rows);
  const lineage = new LineageRows(sinks.lineage, preceded.entries);
  const governance = new GovernanceLines();
  const tally = new RunTally();
  for (const item of assessEach(args.results, args.catalog, args.policy)) {
    tally.add(item);
    const hash = evidence.add(item);
    args.onEntry(hash, tally.counts.results);
    lineage.add(item, hash);
    poam.add(item);
    governance.add(item.action);
  }
  return { tally, poamRows: poam.count, governance };
}

/** What a later part needs to check its results as the whole report would be checked (DESIGN §3). */
export interface PartRules {
  /** JSON path of the results array in messages (`results`, or '' for a bare array). */
  arrayPath: string;
  /** Official ids accepted besides KSI_ID_PATTERN's (`--catalog`). */
  acceptIds: string[];
  catalog: CatalogData;
  extra: KsiDefinition[];
}

/** A part's answer to `check`: whether its results are valid, and what joining it to the others needs to know. */
export type PartCheck =
  { ok: true; count: number; first?: string; last?: string; sorted: boolean; statuses: StatusCounts; mapped: KsiResult[] } | { ok: false; reason: string };

/** What a part renders with: the run's policy and context, where it falls among the parts, and where its fragments go. */
export interface PartJob {
  policy: GovernancePolicy;
  context: RunContext;
  preceded: Preceded;
  /** Directory for the part's fragments (inside the bundle's staging area). */
  scratch: string;
}

/** A piece of an artifact a part wrote to a file, to be appended to the artifact in order. */
export interface Fragment {
  path: string;
  bytes: number;
}

/** A fragment being written: text in, a Fragment out when closed. */
export interface FragmentSink extends TextSink {
  close(): Fragment;
}

/** A part's answer to `render`: its counts, its Merkle leaves and its fragments of each streamed artifact. */
export interface RenderedPart {
  counts: { results: number; pass: number; warn: number; fail: number; mapped: number; unmapped: number };
  unmapped: string[];
  poamRows: number;
  actions: { total: number; remediate: number };
  /** Content hashes of the part's entries in order, 32 raw bytes each (the Merkle leaves). */
  leaves: Uint8Array;
  fragments: { evidence: Fragment; poam: Fragment; lineage: Fragment; governance: Record<Severity, Fragment> };
}

/**
 * What a later part of a report does with its results, wherever it runs (a worker thread in production, the test's
 * own thread in the use-case tests): check them as the whole report would be checked, then render them into
 * fragments. Whoever holds the part only carries these calls and their answers.
 */
export class PartWork {
  private catalog?: KsiCatalog;

  /** `results` as parsed from the part's text, or undefined with the parser's message when it does not parse. */
  constructor(
    private readonly results: KsiResult[] | undefined,
    private readonly parseError?: string,
  ) {}

  check(rules: PartRules): PartCheck {
    const results = this.results;
    if (!results) return { ok: false, reason: `part does not parse: ${this.parseError}` };
    const accepted = new Set(rules.acceptIds);
    try {
      readNormalizedReport(results, 'part', { arrayPath: rules.arrayPath, acceptsId: (x) => accepted.has(x) });
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
    const catalog = new KsiCatalog(rules.catalog, rules.extra);
    this.catalog = catalog;
    return {
      ok: true,
      count: results.length,
      first: results[0]?.ksi_id,
      last: results.at(-1)?.ksi_id,
      sorted: sortedById(results) === results,
      statuses: countStatuses(results),
      mapped: results.filter((r) => catalog.get(r.ksi_id) !== undefined),
    };
  }

  /** Renders the checked results; `open` gives a sink for each named fragment (`evidence`, `poam`, `governance-high`, ...). */
  render(job: PartJob, digest: ContentDigest, open: (name: string) => FragmentSink): RenderedPart {
    const { results, catalog } = this;
    if (!results || !catalog) throw new Error('render before a successful check');
    const sinks = { evidence: open('evidence'), poam: open('poam'), lineage: open('lineage') };
    const leaves = new Uint8Array(32 * results.length);
    let count = 0;
    const outcome = renderPartition({
      results,
      catalog,
      policy: job.policy,
      context: job.context,
      digest,
      sinks,
      preceded: job.preceded,
      onEntry: (hash) => writeDigestAt(hash, leaves, 32 * count++),
    });
    const actionAt = (i: number) => decideAction(results[i].ksi_id, results[i].status, catalog.get(results[i].ksi_id), job.policy);
    const governance = {} as Record<Severity, Fragment>;
    for (const severity of SEVERITIES) {
      const sink = open(`governance-${severity}`);
      outcome.governance.write(sink, severity, actionAt);
      governance[severity] = sink.close();
    }
    return {
      counts: outcome.tally.counts,
      unmapped: outcome.tally.unmapped,
      poamRows: outcome.poamRows,
      actions: outcome.governance.totals,
      leaves,
      fragments: { evidence: sinks.evidence.close(), poam: sinks.poam.close(), lineage: sinks.lineage.close(), governance },
    };
  }
}

/** A report read in one piece, in the shape of a partitioned one: the report without its results, and the results. */
export function wholeReport(document: unknown): { header: unknown; local: unknown[] } {
  if (Array.isArray(document)) return { header: [], local: document };
  const results = (document as { results?: unknown } | null)?.results;
  if (Array.isArray(results)) return { header: { ...(document as object), results: [] }, local: results };
  return { header: document, local: [] };
}
