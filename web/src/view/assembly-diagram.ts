import { h } from '../dom';

const SVG = 'http://www.w3.org/2000/svg';

interface ParsedEdge {
  from: string;
  to: string;
  label: string | undefined;
  dotted: boolean;
}

/** Reads the nodes and edges of `toMermaid()` output (`flowchart TD`, `id[label]`, `a -->|label| b`, `a -.->|error| b`). */
export function parseMermaid(text: string): { nodes: Map<string, string>; edges: ParsedEdge[] } {
  const nodes = new Map<string, string>();
  const edges: ParsedEdge[] = [];
  for (const line of text.split('\n').slice(1)) {
    const node = /^\s*(\w+)\[(.+)\]$/.exec(line);
    if (node) {
      nodes.set(node[1]!, node[2]!);
      continue;
    }
    const edge = /^\s*(\w+)(?:\(\((\w+)\)\))?\s+(-->|-\.->)(?:\|([^|]+)\|)?\s+(\w+)(?:\(\((\w+)\)\))?$/.exec(line);
    if (!edge) continue;
    const [, from, fromLabel, connector, label, to, toLabel] = edge;
    if (fromLabel) nodes.set(from!, fromLabel);
    if (toLabel) nodes.set(to!, toLabel);
    edges.push({ from: from!, to: to!, label, dotted: connector === '-.->' });
  }
  return { nodes, edges };
}

/**
 * An assembly drawn from its Mermaid text (Graph `toMermaid()`, or the same
 * notation for a swarm's routes) as an SVG: nodes in layers from START, and
 * each node lights up while its step runs (`running`, `completed`, `failed`).
 */
export class AssemblyDiagram {
  readonly element: HTMLElement;
  readonly #shapes = new Map<string, SVGGElement>();
  readonly #ids = new Map<string, string>();

  constructor(mermaid: string, title: string) {
    const { nodes, edges } = parseMermaid(mermaid);
    const layer = new Map<string, number>();
    const start = nodes.has('START') ? 'START' : [...nodes.keys()][0]!;
    layer.set(start, 0);
    const queue = [start];
    while (queue.length > 0) {
      const current = queue.shift()!;
      for (const edge of edges) {
        if (edge.from !== current || edge.dotted || layer.has(edge.to)) continue;
        layer.set(edge.to, layer.get(current)! + 1);
        queue.push(edge.to);
      }
    }
    let deepest = Math.max(...layer.values());
    for (const name of nodes.keys()) if (!layer.has(name)) layer.set(name, ++deepest);
    if (layer.has('FINISH')) layer.set('FINISH', Math.max(...[...layer].filter(([name]) => name !== 'FINISH').map(([, depth]) => depth)) + 1);
    const rows = new Map<number, string[]>();
    for (const [name, depth] of layer) rows.set(depth, [...(rows.get(depth) ?? []), name]);
    const width = 160;
    const height = 56;
    const columns = Math.max(...[...rows.values()].map((row) => row.length));
    const position = new Map<string, { x: number; y: number }>();
    for (const [depth, row] of rows) {
      row.forEach((name, index) => position.set(name, { x: ((index + 0.5) * columns * width) / row.length, y: depth * (height + 28) + height / 2 + 8 }));
    }
    const svg = document.createElementNS(SVG, 'svg');
    const totalHeight = (Math.max(...rows.keys()) + 1) * (height + 28);
    svg.setAttribute('viewBox', `0 0 ${columns * width} ${totalHeight}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `${title} diagram`);
    svg.classList.add('assembly-diagram');
    const defs = element('defs');
    const marker = element('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '6', markerHeight: '6', orient: 'auto-start-reverse' });
    marker.append(element('path', { d: 'M 0 0 L 10 5 L 0 10 z' }));
    defs.append(marker);
    svg.append(defs);
    for (const edge of edges) {
      const from = position.get(edge.from);
      const to = position.get(edge.to);
      if (!from || !to) continue;
      const upward = to.y <= from.y;
      const line = element('path', {
        d: upward
          ? `M ${from.x + 50} ${from.y} C ${from.x + 110} ${from.y}, ${to.x + 110} ${to.y}, ${to.x + 54} ${to.y}`
          : `M ${from.x} ${from.y + height / 2 - 8} L ${to.x} ${to.y - height / 2 + 8}`,
        class: `edge${edge.dotted ? ' dotted' : ''}`,
        'marker-end': 'url(#arrow)',
      });
      svg.append(line);
      if (edge.label) {
        const label = element('text', { x: String((from.x + to.x) / 2 + 6), y: String((from.y + to.y) / 2), class: 'edge-label' });
        label.textContent = edge.label;
        svg.append(label);
      }
    }
    for (const [id, label] of nodes) {
      const { x, y } = position.get(id)!;
      const terminal = id === 'START' || id === 'FINISH';
      const group = element('g', { class: `node${terminal ? ' terminal' : ''}`, 'data-node': label, 'data-state': 'idle' }) as SVGGElement;
      group.append(
        terminal ? element('circle', { cx: String(x), cy: String(y), r: '16' }) : element('rect', { x: String(x - 62), y: String(y - 20), width: '124', height: '40', rx: '8' }),
      );
      const text = element('text', { x: String(x), y: String(y + 5), 'text-anchor': 'middle' });
      text.textContent = label;
      group.append(text);
      svg.append(group);
      this.#shapes.set(label, group);
    }
    this.element = h('figure', { class: 'assembly' }, h('figcaption', {}, title));
    this.element.append(svg);
  }

  /** Marks a participant's step: it lights up while running, then shows how it ended. */
  step(participant: string, state: 'running' | 'completed' | 'failed' | 'retrying', stepId?: string): void {
    const shape = this.#shapes.get(participant);
    if (!shape) return;
    if (stepId) this.#ids.set(stepId, participant);
    shape.dataset.state = state;
    if (state === 'completed') shape.dataset.visits = String(Number(shape.dataset.visits ?? 0) + 1);
  }

  /** Marks the end of the run (the FINISH node). */
  finish(outcome: string): void {
    const finish = this.#shapes.get('finish');
    if (finish) finish.dataset.state = outcome === 'completed' ? 'completed' : 'failed';
  }
}

function element(tag: string, attributes: Record<string, string> = {}): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}
