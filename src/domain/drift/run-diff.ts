import type { AssessedResult } from '../assessment/assessment';
import type { InputRef } from '../artifacts/run-context';
import { formatDigest } from '../evidence/content-digest';
import type { Status } from '../ksi/status';

/** `NONE` stands for a KSI present in only one of the two runs. */
export type Presence = Status | 'NONE';

export interface KsiTransition {
  ksi_id: string;
  from: Presence;
  to: Presence;
}

export interface HashDelta {
  ksi_id: string;
  /** Hex content hashes; null where the KSI is absent from that run. */
  from: string | null;
  to: string | null;
}

export interface RunDiff {
  transitions: KsiTransition[];
  hash_deltas: HashDelta[];
  counts: Record<Status, { from: number; to: number }>;
}

/** One side of a diff: assessed results in ksi_id order and their content hashes. */
export interface DiffSide {
  items: readonly AssessedResult[];
  hashes: readonly string[];
}

/** Walks both runs in ksi_id order (a merge join: no index of either run is built). */
export function diffRuns(a: DiffSide, b: DiffSide): RunDiff {
  const transitions: KsiTransition[] = [];
  const deltas: HashDelta[] = [];
  const counts: RunDiff['counts'] = { FAIL: { from: 0, to: 0 }, WARN: { from: 0, to: 0 }, PASS: { from: 0, to: 0 } };
  let i = 0;
  let j = 0;
  while (i < a.items.length || j < b.items.length) {
    const left = a.items[i]?.result;
    const right = b.items[j]?.result;
    if (right === undefined || (left !== undefined && left.ksi_id < right.ksi_id)) {
      counts[left.status].from += 1;
      transitions.push({ ksi_id: left.ksi_id, from: left.status, to: 'NONE' });
      deltas.push({ ksi_id: left.ksi_id, from: a.hashes[i], to: null });
      i += 1;
    } else if (left === undefined || right.ksi_id < left.ksi_id) {
      counts[right.status].to += 1;
      transitions.push({ ksi_id: right.ksi_id, from: 'NONE', to: right.status });
      deltas.push({ ksi_id: right.ksi_id, from: null, to: b.hashes[j] });
      j += 1;
    } else {
      counts[left.status].from += 1;
      counts[right.status].to += 1;
      if (left.status !== right.status) transitions.push({ ksi_id: left.ksi_id, from: left.status, to: right.status });
      if (a.hashes[i] !== b.hashes[j]) deltas.push({ ksi_id: left.ksi_id, from: a.hashes[i], to: b.hashes[j] });
      i += 1;
      j += 1;
    }
  }
  return { transitions, hash_deltas: deltas, counts };
}

const short = (hash: string | null) => (hash === null ? 'NONE' : hash.slice(0, 12));

/** The Markdown drift diff of DESIGN §5. */
export function* diffMarkdown(diff: RunDiff, a: InputRef, b: InputRef): Generator<string> {
  yield `# Drift: ${a.name} -> ${b.name}\n\nRun A: ${a.name} (${formatDigest(a.sha256)})\nRun B: ${b.name} (${formatDigest(b.sha256)})\n\n## KSI transitions\n\n`;
  if (diff.transitions.length === 0) yield '(none)\n';
  for (const t of diff.transitions) yield `- ${t.ksi_id}: ${t.from} -> ${t.to}\n`;
  yield '\n## Evidence hash deltas\n\n';
  if (diff.hash_deltas.length === 0) yield '(none)\n';
  for (const d of diff.hash_deltas) yield `- ${d.ksi_id}: ${short(d.from)} -> ${short(d.to)}\n`;
  yield '\n## Status counts\n\n';
  for (const status of ['FAIL', 'WARN', 'PASS'] as const) yield `- ${status}: ${diff.counts[status].from} -> ${diff.counts[status].to}\n`;
}
