import type { EvidenceTrace, NodeType } from '../../domain/evidence/evidence-trace';

/** Graphviz DOT. */
export function traceDot(trace: EvidenceTrace): string {
  const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const shape: Record<NodeType, string> = { control: 'box', ksi: 'ellipse', evidence: 'note', action: 'diamond', poam: 'folder', policy: 'tab' };
  const lines = ['digraph evidence {', '  rankdir=LR;'];
  for (const n of trace.nodes) lines.push(`  ${q(n.id)} [label=${q(n.label)}, shape=${shape[n.type]}];`);
  for (const e of trace.edges) lines.push(`  ${q(e.from)} -> ${q(e.to)} [label=${q(e.relation)}];`);
  lines.push('}');
  return lines.join('\n');
}

/** Mermaid flowchart. Node ids are positional (Mermaid ids cannot hold `:` or `.`). */
export function traceMermaid(trace: EvidenceTrace): string {
  const ids = new Map(trace.nodes.map((n, i) => [n.id, `n${i}`]));
  const label = (s: string) => `"${s.replace(/"/g, '#quot;')}"`;
  const open: Record<NodeType, [string, string]> = {
    control: ['[', ']'],
    ksi: ['([', '])'],
    evidence: ['[/', '/]'],
    action: ['{', '}'],
    poam: ['[[', ']]'],
    policy: ['>', ']'],
  };
  const lines = ['graph LR'];
  for (const n of trace.nodes) lines.push(`  ${ids.get(n.id)}${open[n.type][0]}${label(n.label)}${open[n.type][1]}`);
  for (const e of trace.edges) lines.push(`  ${ids.get(e.from)} -->|${e.relation}| ${ids.get(e.to)}`);
  return lines.join('\n');
}
