import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import type { SkippedEntry, Snapshot } from '../../domain/substrate/snapshot';
import { snapshotOf } from '../../domain/substrate/tree-snapshot';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CONFIG_TREE_READER, type ConfigTreeReader } from '../../ports/config-tree-reader';
import { HASHING, type Hashing } from '../../ports/hashing';
import { writeAll } from '../shared/write-all';

export interface WalkSubstrateInput {
  dir: string;
  /** Where to write the snapshot (canonical JSON, written atomically). */
  out?: string;
}

export interface WalkSubstrateResult {
  snapshot: Snapshot;
  /** Files hashed but not parsed (too large to parse), for a warning. */
  unparsed: SkippedEntry[];
  written?: WrittenFile;
}

/** Snapshots a configuration tree: files, resources, Merkle root (`svc substrate walk`). */
@injectable()
export class WalkSubstrate {
  constructor(
    @inject(CONFIG_TREE_READER) private readonly tree: ConfigTreeReader,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
  ) {}

  async execute({ dir, out }: WalkSubstrateInput): Promise<WalkSubstrateResult> {
    const walk = await this.tree.walk(dir);
    const snapshot = snapshotOf(walk, this.hashing);
    if (out === undefined) return { snapshot, unparsed: walk.unparsed };
    const text = `${this.hashing.canonicalize(snapshot)}\n`;
    const written = await writeAll(await this.writer.open(out), (sink) => sink.write(text));
    return { snapshot, unparsed: walk.unparsed, written };
  }
}
