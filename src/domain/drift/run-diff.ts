import type { InputRef } from '../artifacts/run-context';
import { markdownText } from '../encoding/markdown';
import { formatDigest } from '../evidence/content-digest';
import type { KsiResult } from '../ksi/ksi-result';
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

/**
 * Walks both runs in ksi_id order (a merge join: no index of either run is built). `hashOf` gives a
 * result's content hash; it is only asked for results whose evidence changed or that are in one run only,
 * because two results with equal evidence (sameEvidence) have equal content hashes.
 */
export function diffRuns(a: readonly KsiResult[], b: readonly KsiResult[], hashOf: (result: KsiResult) => string): RunDiff {
  const transitions: KsiTransition[] = [];
  const deltas: HashDelta[] = [];
  const counts: RunDiff['counts'] = { FAIL: { from: 0, to: 0 }, WARN: { from: 0, to: 0 }, PASS: { from: 0, to: 0 } };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const left = a[i];
    const right = b[j];
    if (right === undefined || (left !== undefined && left.ksi_id < right.ksi_id)) {
      counts[left.status].from += 1;
      transitions.push({ ksi_id: left.ksi_id, from: left.status, to: 'NONE' });
      deltas.push({ ksi_id: left.ksi_id, from: hashOf(left), to: null });
      i += 1;
    } else if (left === undefined || right.ksi_id < left.ksi_id) {
      counts[right.status].to += 1;
      transitions.push({ ksi_id: right.ksi_id, from: 'NONE', to: right.status });
      deltas.push({ ksi_id: right.ksi_id, from: null, to: hashOf(right) });
      j += 1;
    } else {
      counts[left.status].from += 1;
      counts[right.status].to += 1;
      if (left.status !== right.status) transitions.push({ ksi_id: left.ksi_id, from: left.status, to: right.status });
      if (!sameEvidence(left, right)) {
        const [from, to] = [hashOf(left), hashOf(right)];
        if (from !== to) deltas.push({ ksi_id: left.ksi_id, from, to });
      }
      i += 1;
      j += 1;
    }
  }
  return { transitions, hash_deltas: deltas, counts };
}

/**
 * True when two results of the same KSI would give the same content hash: equal JSON values in every field
 * but observed_at, whatever the order of their keys (the catalog maps equal ids alike). Compares in place,
 * without writing either result out.
 */
export function sameEvidence(a: KsiResult, b: KsiResult): boolean {
  let count = 0;
  for (const key in a) {
    if (key === 'observed_at') continue;
    if (!Object.prototype.hasOwnProperty.call(b, key) || !sameJson(a[key], b[key])) return false;
    count += 1;
  }
  for (const key in b) if (key !== 'observed_at') count -= 1;
  return count === 0;
}

function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(y)) return false;
  const xr = x as Record<string, unknown>;
  const yr = y as Record<string, unknown>;
  let count = 0;
  for (const key in xr) {
    if (!Object.prototype.hasOwnProperty.call(yr, key) || !sameJson(xr[key], yr[key])) return false;
    count += 1;
  }
  return count === Object.keys(yr).length;
}

const short = (hash: string | null) => (hash === null ? 'NONE' : hash.slice(0, 12));

/** The Markdown drift diff of DESIGN §5. */
export function* diffMarkdown(diff: RunDiff, a: InputRef, b: InputRef): Generator<string> {
  const [nameA, nameB] = [markdownText(a.name), markdownText(b.name)];
  yield `# Drift: ${nameA} -> ${nameB}\n\nRun A: ${nameA} (${formatDigest(a.sha256)})\nRun B: ${nameB} (${formatDigest(b.sha256)})\n\n## KSI transitions\n\n`;
  if (diff.transitions.length === 0) yield '(none)\n';
  for (const t of diff.transitions) yield `- ${markdownText(t.ksi_id)}: ${t.from} -> ${t.to}\n`;
  yield '\n## Evidence hash deltas\n\n';
  if (diff.hash_deltas.length === 0) yield '(none)\n';
  for (const d of diff.hash_deltas) yield `- ${markdownText(d.ksi_id)}: ${short(d.from)} -> ${short(d.to)}\n`;
  yield '\n## Status counts\n\n';
  for (const status of ['FAIL', 'WARN', 'PASS'] as const) yield `- ${status}: ${diff.counts[status].from} -> ${diff.counts[status].to}\n`;
}
