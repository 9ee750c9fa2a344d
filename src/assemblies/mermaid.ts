import type { Topology } from './graph-topology.ts';

/** The Mermaid id of a node: `n_` and the name with anything but letters, digits and `_` as `_`. */
export function mermaidId(name: string): string {
  return `n_${name.replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

function edgeLine(from: string, to: string, label?: string, dotted = false): string {
  return `  ${mermaidId(from)} ${dotted ? '-.->' : '-->'}${label ? `|${label}|` : ''} ${mermaidId(to)}`;
}

/**
 * The Mermaid flowchart of a graph's routes: its nodes, `START` and `FINISH`,
 * plain and `condition` edges, dotted `error` edges, and each parallel group's
 * `fork` and `join` edges.
 */
export function renderMermaid(nodes: readonly string[], start: string, finish: readonly string[], topology: Topology): string {
  const lines = ['flowchart TD'];
  for (const name of nodes) lines.push(`  ${mermaidId(name)}[${name}]`);
  lines.push(`  START((start)) --> ${mermaidId(start)}`);
  for (const name of finish) lines.push(`  ${mermaidId(name)} --> FINISH((finish))`);
  const fanIn = new Set(topology.joins.flatMap((join) => join.from.map((source) => `${source}\u0000${join.to}`)));
  for (const edge of topology.edges) {
    if (fanIn.has(`${edge.from}\u0000${edge.to}`)) continue;
    lines.push(edgeLine(edge.from, edge.to, edge.condition ? 'condition' : undefined));
  }
  for (const edge of topology.errorEdges) lines.push(edgeLine(edge.from, edge.to, 'error', true));
  for (const fork of topology.forks) for (const target of fork.to) lines.push(edgeLine(fork.from, target, 'fork'));
  for (const join of topology.joins) for (const source of join.from) lines.push(edgeLine(source, join.to, 'join'));
  return lines.join('\n');
}
