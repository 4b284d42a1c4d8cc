import type { AssessedResult } from '../assessment/assessment';
import { needsPoam, poamId } from '../artifacts/poam';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import type { Status } from '../ksi/status';
import { formatDigest } from './content-digest';
import type { ProofStep } from './merkle';

export type NodeType = 'control' | 'ksi' | 'evidence' | 'action' | 'poam' | 'policy';
export type Relation = 'maps-to' | 'evidenced-by' | 'drives' | 'tracked-as' | 'governed-by';

export interface TraceNode {
  id: string;
  type: NodeType;
  label: string;
  status?: Status;
  /** RFC 6962 inclusion proof of an evidence entry in the bundle's Merkle tree (when asked for). */
  proof?: { index: number; merkle_root: string; path: ProofStep[] };
}

export interface TraceEdge {
  from: string;
  to: string;
  relation: Relation;
}

export interface EvidenceTrace {
  control?: string;
  merkle_root: string;
  nodes: TraceNode[];
  edges: TraceEdge[];
}

export interface TraceInput {
  items: readonly AssessedResult[];
  hashes: readonly string[];
  merkleRoot: string;
  catalog: KsiCatalog;
  /** Trace this control only. */
  control?: string;
  /** Inclusion proof of entry i, for evidence nodes. */
  proofOf?: (index: number) => ProofStep[];
  /** The run-wide index of each of `items` (their leaf in the Merkle tree), when they are some of the run's entries. */
  positions?: readonly number[];
}

/**
 * KSI → control, KSI → evidence → action → POA&M item, KSI → family policy. With a control, only the KSIs
 * that map to it and what hangs off them.
 */
export function evidenceTrace({ items, hashes, merkleRoot, catalog, control, proofOf, positions }: TraceInput): EvidenceTrace {
  const nodes = new Map<string, TraceNode>();
  const edges: TraceEdge[] = [];
  const node = (n: TraceNode) => (nodes.has(n.id) ? n.id : (nodes.set(n.id, n), n.id));
  if (control !== undefined) node({ id: `control:${control}`, type: 'control', label: `${control} ${catalog.controlTitle(control) ?? ''}`.trim() });
  items.forEach((item, i) => {
    const { result, definition, action } = item;
    const controls = definition?.controls ?? [];
    if (control !== undefined && !controls.includes(control)) return;
    const ksi = node({ id: `ksi:${result.ksi_id}`, type: 'ksi', label: `${result.ksi_id} ${result.status}`, status: result.status });
    for (const c of control === undefined ? controls : [control]) {
      edges.push({ from: ksi, to: node({ id: `control:${c}`, type: 'control', label: `${c} ${catalog.controlTitle(c) ?? ''}`.trim() }), relation: 'maps-to' });
    }
    for (const p of definition?.policies ?? [])
      edges.push({ from: ksi, to: node({ id: `policy:${p.id}`, type: 'policy', label: `${p.id} ${p.title}` }), relation: 'governed-by' });
    const evidence: TraceNode = { id: `evidence:${result.ksi_id}`, type: 'evidence', label: formatDigest(hashes[i]) };
    if (proofOf)
      evidence.proof = {
        index: positions?.[i] ?? i,
        merkle_root: formatDigest(merkleRoot),
        path: proofOf(i).map((s) => ({ side: s.side, hash: formatDigest(s.hash) })),
      };
    edges.push({ from: ksi, to: node(evidence), relation: 'evidenced-by' });
    const act = node({ id: `action:${result.ksi_id}`, type: 'action', label: `${action.action} ${action.severity} ${action.sla_days}d ${action.owner}` });
    edges.push({ from: evidence.id, to: act, relation: 'drives' });
    if (needsPoam(item))
      edges.push({ from: act, to: node({ id: `poam:${poamId(result.ksi_id)}`, type: 'poam', label: poamId(result.ksi_id) }), relation: 'tracked-as' });
  });
  return { ...(control !== undefined ? { control } : {}), merkle_root: formatDigest(merkleRoot), nodes: [...nodes.values()], edges };
}
