import { assessEach, RunTally } from '../assessment/assessment';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import type { ContentDigest } from '../evidence/content-digest';
import type { GovernancePolicy } from '../governance/governance-policy';
import type { KsiResult } from '../ksi/ksi-result';
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
