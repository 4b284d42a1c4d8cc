import { inject, injectable } from 'tsyringe';
import type { DriftCounts, DriftSeverity } from '../../domain/drift/drift-finding';
import { parseSnapshot } from '../../domain/substrate/snapshot';
import {
  compareSnapshots,
  countSubstrateDrift,
  gatesOn,
  substrateDriftMarkdown,
  type NamedSnapshot,
  type SubstrateDriftFinding,
} from '../../domain/substrate/substrate-drift';
import { snapshotOf } from '../../domain/substrate/tree-snapshot';
import { CONFIG_TREE_READER, type ConfigTreeReader } from '../../ports/config-tree-reader';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { splitPath } from '../shared/paths';

export interface CompareSnapshotsInput {
  /** Earlier side: a snapshot file written by `svc substrate walk`, or a directory (walked now). */
  a: string;
  /** Later side, likewise. */
  b: string;
  /** Findings at or above this severity make `gated` true (`--fail-on`). */
  failOn?: DriftSeverity;
}

export interface CompareSnapshotsResult {
  a: { name: string; root: string; merkle_root: string };
  b: { name: string; root: string; merkle_root: string };
  findings: SubstrateDriftFinding[];
  counts: DriftCounts;
  markdown: string;
  /** Some finding reaches failOn. */
  gated: boolean;
}

/** Classifies every change between two configuration snapshots by the drift classes (`svc substrate drift`). */
@injectable()
export class CompareSnapshots {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(CONFIG_TREE_READER) private readonly tree: ConfigTreeReader,
    @inject(HASHING) private readonly hashing: Hashing,
  ) {}

  async execute({ a, b, failOn }: CompareSnapshotsInput): Promise<CompareSnapshotsResult> {
    const [left, right] = [await this.load(a), await this.load(b)];
    const findings = compareSnapshots(left.snapshot, right.snapshot);
    return {
      a: summary(left),
      b: summary(right),
      findings,
      counts: countSubstrateDrift(findings),
      markdown: substrateDriftMarkdown(findings, left, right),
      gated: gatesOn(findings, failOn),
    };
  }

  /** A directory is walked; anything else is read as a snapshot file (a missing path fails there, naming it). */
  private async load(input: string): Promise<NamedSnapshot> {
    const name = splitPath(input.replace(/[\\/]+$/, '') || input).base;
    if ((await this.reader.kind(input)) === 'directory') return { name, snapshot: snapshotOf(await this.tree.walk(input), this.hashing) };
    const file = await this.reader.read(input);
    return { name, snapshot: parseSnapshot(file.document, input, this.hashing) };
  }
}

function summary({ name, snapshot }: NamedSnapshot): CompareSnapshotsResult['a'] {
  return { name, root: snapshot.root, merkle_root: snapshot.merkle_root };
}
