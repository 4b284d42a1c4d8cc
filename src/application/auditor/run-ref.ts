import type { RunSummary } from '../../domain/conmon/run-record';
import { formatDigest } from '../../domain/evidence/content-digest';

/** Which run a response speaks for. */
export interface RunRef {
  id: string;
  seq: number;
  as_of: string;
  merkle_root: string;
}

export function runRef(summary: RunSummary): RunRef {
  return { id: summary.id, seq: summary.seq, as_of: summary.as_of, merkle_root: formatDigest(summary.merkle_root) };
}
