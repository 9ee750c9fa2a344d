import { ConfigurationError } from '../error/configuration-error.ts';
import type { AgentInput } from '../agent/invocation.ts';
import type { RetryOn } from './step-policy.ts';
import type { GraphState } from './graph-state.ts';

/** A condition of an edge: the route is taken when it returns true. */
export type EdgeCondition = (state: GraphState) => boolean;
/** Turns the routing state into a node's input (replacing the default text). */
export type InputMapper = (state: GraphState) => AgentInput;

/**
 * A declared route. `to` as a list is a fan-out (the branches run in
 * parallel); `from` as a list a fan-in (wait for every branch). Several
 * unconditional edges from one node are a fan-out too.
 */
export interface GraphEdge {
  readonly from: string | readonly string[];
  readonly to: string | readonly string[];
  /** Taken only when this returns true (not on fan-ins). At most one conditional edge of a node may match. */
  readonly if?: EdgeCondition | undefined;
  /** The target's input (beats the target node's own mapper). */
  readonly input?: InputMapper | undefined;
  /** For a fan-out: how many branches run at once (default the graph's `maxConcurrency`). */
  readonly maxConcurrency?: number | undefined;
}

/** A route taken when `from` fails (after its retries) with an error `on` accepts. */
export interface GraphErrorEdge {
  readonly from: string;
  readonly to: string;
  /** Error names (a Ghostlight error matches its ancestors' names too) or a predicate. */
  readonly on: RetryOn;
  readonly input?: InputMapper | undefined;
}

/** A single route. */
export interface ScalarEdge {
  readonly from: string;
  readonly to: string;
  readonly condition: EdgeCondition | undefined;
  readonly input: InputMapper | undefined;
}

/** A parallel group: `to` run at once from `from`. */
export interface Fork {
  readonly from: string;
  readonly to: readonly string[];
  readonly condition: EdgeCondition | undefined;
  readonly maxConcurrency: number;
  readonly inputs: ReadonlyMap<string, InputMapper | undefined>;
}

/** Where a fork's branches meet: every `from` must finish before `to` runs. */
export interface Join {
  readonly from: readonly string[];
  readonly to: string;
  readonly input: InputMapper | undefined;
  readonly fork: Fork;
}

/** The checked routes of a graph. */
export interface Topology {
  readonly edges: readonly ScalarEdge[];
  readonly errorEdges: readonly GraphErrorEdge[];
  readonly forks: readonly Fork[];
  readonly joins: readonly Join[];
}

interface Declared {
  readonly from: string | readonly string[];
  readonly to: string | readonly string[];
  readonly condition: EdgeCondition | undefined;
  readonly input: InputMapper | undefined;
  readonly maxConcurrency: number | undefined;
}

const show = (name: string) => JSON.stringify(name);

/** Checks one declared edge's shape. */
export function normalizeEdge(edge: GraphEdge): Declared {
  if (typeof edge !== 'object' || edge === null) throw new ConfigurationError('a graph edge must be an object { from, to }');
  const from = endpoint(edge.from, 'edge source');
  const to = endpoint(edge.to, 'edge target');
  if (Array.isArray(from) && Array.isArray(to)) throw new ConfigurationError('graph edges cannot use arrays for both source and target');
  if (edge.if !== undefined && typeof edge.if !== 'function') throw new ConfigurationError('edge condition must be a function');
  if (edge.input !== undefined && typeof edge.input !== 'function') throw new ConfigurationError('edge input mapper must be a function');
  if (Array.isArray(from) && edge.if) throw new ConfigurationError('fan-in edges cannot be conditional');
  if (edge.maxConcurrency !== undefined) {
    if (!Array.isArray(to)) throw new ConfigurationError('maxConcurrency is only valid for a fan-out edge');
    checkConcurrency(edge.maxConcurrency);
  }
  return { from, to, condition: edge.if, input: edge.input, maxConcurrency: edge.maxConcurrency };
}

/** Checks one error edge's shape. */
export function normalizeErrorEdge(edge: GraphErrorEdge): GraphErrorEdge {
  if (typeof edge !== 'object' || edge === null) throw new ConfigurationError('a graph error edge must be an object { from, to, on }');
  endpoint(edge.from, 'error edge source', false);
  endpoint(edge.to, 'error edge target', false);
  const { on } = edge;
  if (!(typeof on === 'function' || (Array.isArray(on) && on.length > 0 && on.every((name) => typeof name === 'string' && name.length > 0)))) {
    throw new ConfigurationError('error edge on must list error names or be a predicate');
  }
  if (edge.input !== undefined && typeof edge.input !== 'function') throw new ConfigurationError('error edge input mapper must be a function');
  return Object.freeze({ ...edge, on: Array.isArray(on) ? Object.freeze([...on]) : on });
}

export function checkConcurrency(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 1) throw new ConfigurationError('maxConcurrency must be at least 1');
  return value as number;
}

function endpoint(value: unknown, label: string, lists = true): string | readonly string[] {
  if (Array.isArray(value) && lists) {
    value.forEach((name) => endpoint(name, label, false));
    if (value.length < 2) throw new ConfigurationError(`${label} array requires at least two nodes`);
    if (new Set(value).size !== value.length) throw new ConfigurationError(`${label} nodes must be unique`);
    return Object.freeze([...(value as string[])]);
  }
  if (typeof value !== 'string') throw new ConfigurationError('graph node name must be a string');
  if (value.length === 0) throw new ConfigurationError('graph node name cannot be empty');
  return value;
}

/**
 * Checks a graph's routes (SPEC A15 `validate`) and compiles them: declared
 * nodes only; the finish nodes have no outgoing edge; at most one
 * unconditional route per node; fan-outs (explicit or several unconditional
 * edges) each meet at exactly one fan-in, inferred as the first unambiguous
 * common successor when not declared; parallel groups neither overlap nor
 * nest; every node but the finish has a successful route; every node and a
 * finish node are reachable from the start.
 */
export function compileTopology(
  nodes: ReadonlySet<string>,
  start: string,
  finish: readonly string[],
  declared: readonly Declared[],
  errorEdges: readonly GraphErrorEdge[],
  maxConcurrency: number,
): Topology {
  if (nodes.size === 0) throw new ConfigurationError('graph must declare at least one node');
  if (start === undefined) throw new ConfigurationError('graph must declare a start node');
  if (finish.length === 0) throw new ConfigurationError('graph must declare a finish node');
  declaredNode(nodes, start, 'start');
  for (const name of finish) declaredNode(nodes, name, 'finish');
  for (const edge of declared) {
    for (const name of list(edge.from)) declaredNode(nodes, name, 'edge source');
    for (const name of list(edge.to)) declaredNode(nodes, name, 'edge target');
    for (const name of list(edge.from)) {
      if (finish.includes(name)) throw new ConfigurationError(`graph finish node ${show(name)} cannot have outgoing edges`);
    }
  }
  for (const edge of errorEdges) {
    declaredNode(nodes, edge.from, 'error edge source');
    declaredNode(nodes, edge.to, 'error edge target');
  }

  let scalar: ScalarEdge[] = [];
  const forks: Fork[] = [];
  const explicitJoins: Array<{ from: readonly string[]; to: string; input: InputMapper | undefined }> = [];
  for (const edge of declared) {
    if (Array.isArray(edge.to)) {
      forks.push({
        from: edge.from as string,
        to: edge.to,
        condition: edge.condition,
        maxConcurrency: edge.maxConcurrency ?? maxConcurrency,
        inputs: new Map(edge.to.map((target) => [target, edge.input])),
      });
    } else if (Array.isArray(edge.from)) {
      explicitJoins.push({ from: edge.from, to: edge.to as string, input: edge.input });
    } else {
      scalar.push({ from: edge.from as string, to: edge.to as string, condition: edge.condition, input: edge.input });
    }
  }
  const inferred = new Set<ScalarEdge>();
  for (const [source, candidates] of groupBy(scalar, (edge) => edge.from)) {
    const unconditional = candidates.filter((edge) => !edge.condition);
    if (unconditional.length < 2) continue;
    if (candidates.some((edge) => edge.condition)) {
      throw new ConfigurationError(`graph node ${show(source)} cannot mix conditional routes with inferred fan-out edges`);
    }
    const targets = unconditional.map((edge) => edge.to);
    if (new Set(targets).size !== targets.length) throw new ConfigurationError(`graph fan-out targets from ${show(source)} must be unique`);
    forks.push({ from: source, to: targets, condition: undefined, maxConcurrency, inputs: new Map(unconditional.map((edge) => [edge.to, edge.input])) });
    unconditional.forEach((edge) => inferred.add(edge));
  }
  scalar = scalar.filter((edge) => !inferred.has(edge));

  const used = new Set<object>();
  const joins: Join[] = forks.map((fork) => {
    const matches = explicitJoins.filter((join) => joinMatchesFork(join.from, fork, scalar, errorEdges));
    if (matches.length > 1) throw new ConfigurationError(`graph fan-out at ${show(fork.from)} has more than one matching fan-in`);
    if (matches.length === 1) {
      used.add(matches[0]!);
      return { from: matches[0]!.from, to: matches[0]!.to, input: matches[0]!.input, fork };
    }
    return { ...inferJoin(fork, scalar, forks, errorEdges), input: undefined, fork };
  });
  const unused = explicitJoins.find((join) => !used.has(join));
  if (unused) throw new ConfigurationError(`graph fan-in to ${show(unused.to)} has no matching fan-out`);

  for (const [source, candidates] of groupBy<ScalarEdge | Fork>([...scalar, ...forks], (edge) => edge.from)) {
    if (candidates.filter((edge) => !edge.condition).length > 1) throw new ConfigurationError(`graph node ${show(source)} has more than one unconditional route`);
  }
  const inForks = new Set<string>();
  for (const fork of forks) {
    const overlap = fork.to.find((target) => inForks.has(target));
    if (overlap !== undefined) throw new ConfigurationError(`graph fan-out branches overlap at ${show(overlap)}`);
    fork.to.forEach((target) => inForks.add(target));
  }
  const adjacency = adjacencyOf(scalar, errorEdges);
  for (const outer of forks) {
    const join = joins.find((candidate) => candidate.fork === outer)!;
    for (const target of outer.to) {
      const reachable = reachableFrom(target, adjacency, join.from);
      const nested = forks.find((candidate) => candidate !== outer && reachable.has(candidate.from));
      if (nested) throw new ConfigurationError(`graph fan-out ${show(nested.from)} cannot be nested inside another parallel branch`);
    }
  }
  for (const name of nodes) {
    if (finish.includes(name)) continue;
    if (scalar.some((edge) => edge.from === name) || forks.some((fork) => fork.from === name) || joins.some((join) => join.from.includes(name))) continue;
    throw new ConfigurationError(`graph node ${show(name)} has no successful outgoing route`);
  }
  const everything = adjacencyOf(scalar, errorEdges);
  for (const fork of forks) for (const target of fork.to) link(everything, fork.from, target);
  for (const join of joins) for (const source of join.from) link(everything, source, join.to);
  const reachable = reachableFrom(start, everything);
  const unreachable = [...nodes].find((name) => !reachable.has(name));
  if (unreachable !== undefined) throw new ConfigurationError(`graph has unreachable node ${show(unreachable)}`);
  if (!finish.some((name) => reachable.has(name))) throw new ConfigurationError(`graph finish node ${show(finish[0]!)} is unreachable`);
  return Object.freeze({ edges: Object.freeze(scalar), errorEdges: Object.freeze([...errorEdges]), forks: Object.freeze(forks), joins: Object.freeze(joins) });
}

function inferJoin(fork: Fork, edges: readonly ScalarEdge[], forks: readonly Fork[], errorEdges: readonly GraphErrorEdge[]): { from: readonly string[]; to: string } {
  const adjacency = adjacencyOf(edges, errorEdges);
  const sets = fork.to.map((target) => reachableFrom(target, adjacency));
  const common = sets.reduce((left, right) => new Set([...left].filter((name) => right.has(name))));
  const earliest = [...common].filter((candidate) => ![...common].some((other) => other !== candidate && reaches(other, candidate, adjacency)));
  const candidates: Array<{ from: readonly string[]; to: string }> = [];
  for (const target of earliest) {
    const incoming = edges.filter((edge) => edge.to === target);
    const assignments = fork.to.map((branch) => incoming.filter((edge) => reaches(branch, edge.from, adjacency)));
    if (!assignments.every((assigned) => assigned.length === 1)) continue;
    const selected = assignments.flat();
    if (new Set(selected.map((edge) => edge.from)).size !== fork.to.length) continue;
    if (selected.some((edge) => edge.condition)) {
      throw new ConfigurationError(
        `graph inferred fan-in to ${show(target)} cannot use conditional incoming edges; route each branch before its fan-in predecessor`,
      );
    }
    const alternate = selected.find(
      (edge) => edges.some((candidate) => candidate.from === edge.from && candidate !== edge) || forks.some((candidate) => candidate.from === edge.from),
    );
    if (alternate) {
      throw new ConfigurationError(
        `graph cannot infer fan-in at ${show(alternate.from)} because it has another successful route; route the branch before that predecessor or declare an explicit array-source edge`,
      );
    }
    if (selected.some((edge) => edge.input)) {
      throw new ConfigurationError(
        `graph inferred fan-in to ${show(target)} cannot use input mappers on its incoming scalar edges; map the target node or declare an explicit array-source edge`,
      );
    }
    candidates.push({ from: Object.freeze(selected.map((edge) => edge.from)), to: target });
  }
  if (candidates.length !== 1) {
    const detail = candidates.length === 0 ? 'no unambiguous fan-in' : 'more than one possible fan-in';
    throw new ConfigurationError(`graph fan-out at ${show(fork.from)} has ${detail}; declare an explicit array-source edge`);
  }
  return candidates[0]!;
}

function joinMatchesFork(from: readonly string[], fork: Fork, edges: readonly ScalarEdge[], errorEdges: readonly GraphErrorEdge[]): boolean {
  const adjacency = adjacencyOf(edges, errorEdges);
  const assignments = fork.to.map((target) => from.filter((source) => reaches(target, source, adjacency)));
  return assignments.every((assigned) => assigned.length === 1) && new Set(assignments.flat()).size === fork.to.length;
}

type Adjacency = Map<string, string[]>;

function adjacencyOf(edges: readonly ScalarEdge[], errorEdges: readonly GraphErrorEdge[]): Adjacency {
  const adjacency: Adjacency = new Map();
  for (const edge of edges) link(adjacency, edge.from, edge.to);
  for (const edge of errorEdges) link(adjacency, edge.from, edge.to);
  return adjacency;
}

function link(adjacency: Adjacency, from: string, to: string): void {
  const targets = adjacency.get(from);
  if (targets) targets.push(to);
  else adjacency.set(from, [to]);
}

function reachableFrom(from: string, adjacency: Adjacency, stopAt: readonly string[] = []): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (seen.has(current)) continue;
    seen.add(current);
    if (stopAt.includes(current)) continue;
    queue.push(...(adjacency.get(current) ?? []));
  }
  return seen;
}

function reaches(from: string, to: string, adjacency: Adjacency): boolean {
  return reachableFrom(from, adjacency).has(to);
}

function declaredNode(nodes: ReadonlySet<string>, name: string, label: string): void {
  if (!nodes.has(name)) throw new ConfigurationError(`graph ${label} ${show(name)} is not declared`);
}

function list(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name)!.push(item);
  }
  return groups;
}
