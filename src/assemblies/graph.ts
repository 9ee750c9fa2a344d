// Why this file is a little over 400 lines (STYLE.md): it is the Graph's runtime in one place (routing, fan-out with
// its semaphore, fan-in, error edges, the shared step limit); its topology checks are in graph-topology.ts, its state
// in graph-state.ts and its Mermaid text in mermaid.ts.
import type { UserContent } from 'ai';
import { isAskable } from '../agent/askable.ts';
import type { Askable } from '../agent/askable.ts';
import type { AgentInput } from '../agent/invocation.ts';
import type { Run } from '../agent/run.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { CancelledError, CleanupError, DeadlineExceededError } from '../error/control-errors.ts';
import { Semaphore } from '../util/semaphore.ts';
import { AssemblyLimitError, AssemblyRoutingError } from './assembly-errors.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import { StepFailure } from './assembly-execution.ts';
import type { AssemblyExecution, StepResult } from './assembly-execution.ts';
import { checkName, Composite } from './composite.ts';
import { graphState, nodeResult, resultsRecord } from './graph-state.ts';
import type { GraphState, NodeResult, StateBase } from './graph-state.ts';
import { checkConcurrency, compileTopology, normalizeEdge, normalizeErrorEdge } from './graph-topology.ts';
import type { Fork, GraphEdge, GraphErrorEdge, InputMapper, Join, ScalarEdge, Topology } from './graph-topology.ts';
import { inputText } from './input-text.ts';
import { renderMermaid } from './mermaid.ts';
import { matchesErrors, resolveStepPolicy, STEP_POLICY_KEYS } from './step-policy.ts';
import type { ResolvedStepPolicy, StepPolicy } from './step-policy.ts';

/** SPEC A15 Graph defaults. */
export const DEFAULT_GRAPH_MAX_STEPS = 20;
export const DEFAULT_GRAPH_MAX_CONCURRENCY = 8;

/** A graph node with its options. */
export interface GraphNodeOptions extends StepPolicy {
  /** The node's participant: an agent or any assembly. */
  readonly assembly: Askable<any>;
  /** Whether the node sees the caller's history (default false). */
  readonly history?: boolean | undefined;
  /** Whether the node sees the caller's application context (default false). */
  readonly context?: boolean | undefined;
  /** The node's input on every route into it (an edge's own mapper beats it). */
  readonly input?: InputMapper | undefined;
}

/** What `defineGraph` takes. */
export interface GraphSpec {
  readonly name: string;
  readonly description?: string | undefined;
  /** The nodes by id: an agent or assembly, or `{ assembly, history, context, input, timeout, retries, retryOn, retryDelay }`. */
  readonly nodes: Readonly<Record<string, Askable<any> | GraphNodeOptions>>;
  readonly start: string;
  /** The node (or nodes) whose answer is the graph's; they have no outgoing edges. */
  readonly finish: string | readonly string[];
  readonly edges?: readonly GraphEdge[] | undefined;
  readonly errorEdges?: readonly GraphErrorEdge[] | undefined;
  /** Most node runs, all branches together (default 20). */
  readonly maxSteps?: number | undefined;
  /** Most branches of a fan-out running at once (default 8; a fan-out edge may set its own). */
  readonly maxConcurrency?: number | undefined;
}

interface GraphNode {
  readonly name: string;
  readonly assembly: Askable;
  readonly history: boolean;
  readonly context: boolean;
  readonly input: InputMapper | undefined;
  readonly policy: ResolvedStepPolicy;
}

/** Where a step's input comes from: one incoming route (its mapper), or a fan-in. */
interface Arrival {
  readonly previous?: string | undefined;
  readonly input?: InputMapper | undefined;
  readonly join?: { readonly join: Join; readonly stepIds: readonly string[] } | undefined;
  readonly error?: unknown;
  readonly predecessorIds: readonly string[];
}

interface BranchResult {
  readonly terminal: string;
  readonly results: ReadonlyMap<string, NodeResult>;
  readonly lastStepId: string;
}

const show = (name: string) => JSON.stringify(name);

/**
 * A graph: named nodes (agents or assemblies) and the declared routes between
 * them, with conditions, input mappers, bounded parallel branches that meet
 * at a fan-in, and error edges. Checked when defined (`validate` rules).
 */
export class Graph<TOutput = unknown> extends Composite<TOutput> {
  readonly name: string;
  readonly kind = 'graph' as const;
  readonly description: string | undefined;
  readonly start: string;
  readonly finish: readonly string[];
  readonly maxSteps: number;
  readonly maxConcurrency: number;
  readonly #nodes: ReadonlyMap<string, GraphNode>;
  readonly #topology: Topology;

  constructor(spec: GraphSpec, nodes: ReadonlyMap<string, GraphNode>, finish: readonly string[], topology: Topology) {
    super();
    this.name = spec.name;
    this.description = spec.description;
    this.start = spec.start;
    this.finish = finish;
    this.maxSteps = spec.maxSteps ?? DEFAULT_GRAPH_MAX_STEPS;
    this.maxConcurrency = spec.maxConcurrency ?? DEFAULT_GRAPH_MAX_CONCURRENCY;
    this.#nodes = nodes;
    this.#topology = topology;
    Object.freeze(this);
  }

  /** The node ids, in declaration order. */
  get nodes(): readonly string[] {
    return [...this.#nodes.keys()];
  }

  /** A graph is checked when it is defined: this returns it (the rules are those of `defineGraph`). */
  validate(): this {
    return this;
  }

  /** The Mermaid flowchart of the routes (see {@link toMermaid}). */
  toMermaid(): string {
    return renderMermaid(this.nodes, this.start, this.finish, this.#topology);
  }

  protected async perform(execution: AssemblyExecution): Promise<Run> {
    return new GraphRun(this, this.#nodes, this.#topology, execution).run();
  }
}

/** One run of a graph: the shared step count, the results so far, and the walk. */
class GraphRun {
  readonly #graph: Graph;
  readonly #nodes: ReadonlyMap<string, GraphNode>;
  readonly #topology: Topology;
  readonly #execution: AssemblyExecution;
  readonly #base: StateBase;
  readonly #results = new Map<string, NodeResult>();
  /** The frozen record of `#results` the routing states share, until a result is added. */
  #view: Readonly<Record<string, NodeResult>> | undefined;
  #count = 0;

  constructor(graph: Graph, nodes: ReadonlyMap<string, GraphNode>, topology: Topology, execution: AssemblyExecution) {
    this.#graph = graph;
    this.#nodes = nodes;
    this.#topology = topology;
    this.#execution = execution;
    this.#base = deepFreeze({
      input: structuredClone(execution.input),
      text: inputText(execution.input),
      history: structuredClone([...execution.history]),
      context: structuredClone(execution.context),
    });
  }

  #nextStep(signal?: AbortSignal): number {
    this.#execution.checkControl();
    if (signal) this.#execution.checkControl(signal);
    if (this.#count >= this.#graph.maxSteps) throw new AssemblyLimitError(`${this.#graph.name} reached its maxSteps limit of ${this.#graph.maxSteps}`);
    return ++this.#count;
  }

  /** The results a state carries: the run's, plus a branch's own. */
  #resultsView(branch?: ReadonlyMap<string, NodeResult>): Readonly<Record<string, NodeResult>> {
    if (!branch || branch.size === 0) return (this.#view ??= resultsRecord(this.#results));
    return resultsRecord(new Map([...this.#results, ...branch]));
  }

  #record(name: string, result: NodeResult, branch?: Map<string, NodeResult>): void {
    if (branch) branch.set(name, result);
    else {
      this.#results.set(name, result);
      this.#view = undefined;
    }
  }

  #source() {
    return { assembly: this.#graph.name, assemblyKind: 'graph' as const };
  }

  async run(): Promise<Run> {
    const { edges, forks, errorEdges, joins } = this.#topology;
    let current = this.#graph.start;
    let arrival: Arrival = { predecessorIds: [] };
    for (;;) {
      const count = this.#nextStep();
      const node = this.#nodes.get(current)!;
      const terminal = this.#graph.finish.includes(current);
      let result: StepResult;
      try {
        result = await this.#runNode(node, count, arrival, terminal ? 'live' : 'hidden');
      } catch (failure) {
        const route = failure instanceof StepFailure ? selectErrorEdge(errorEdges.filter((edge) => edge.from === current), failure.error) : undefined;
        if (!route) throw failure;
        this.#execution.emit({ type: 'assembly-transition', ...this.#source(), step: count, from: current, to: route.to, error: true });
        arrival = { previous: current, input: route.input, error: (failure as StepFailure).error, predecessorIds: [(failure as StepFailure).step.id] };
        current = route.to;
        continue;
      }
      if (terminal) return result.run;
      const state = graphState(this.#base, { step: count, current, previous: arrival.previous, results: this.#resultsView() });
      const selected = selectEdge([...edges.filter((edge) => edge.from === current), ...forks.filter((fork) => fork.from === current)], state, current);
      if ('inputs' in selected) {
        const join = joins.find((candidate) => candidate.fork === selected)!;
        this.#execution.emit({ type: 'assembly-fork', ...this.#source(), from: current, branches: selected.to });
        const branches = await this.#runBranches(selected, join, result.step.id);
        if ([...join.from].sort().join('\u0000') !== branches.map((branch) => branch.terminal).sort().join('\u0000')) {
          throw new AssemblyRoutingError(`graph fan-out at ${show(current)} did not reach its inferred fan-in`);
        }
        for (const branch of branches) for (const [name, value] of branch.results) this.#record(name, value);
        this.#execution.emit({ type: 'assembly-join', ...this.#source(), from: join.from, to: join.to });
        arrival = { join: { join, stepIds: branches.map((branch) => branch.lastStepId) }, predecessorIds: branches.map((branch) => branch.lastStepId) };
        current = join.to;
        continue;
      }
      this.#execution.emit({ type: 'assembly-transition', ...this.#source(), step: count, from: current, to: selected.to });
      arrival = { previous: current, input: selected.input, predecessorIds: [result.step.id] };
      current = selected.to;
    }
  }

  /** Runs one node: its input from the arrival (edge mapper, node mapper, or the default text), its result recorded. */
  async #runNode(node: GraphNode, count: number, arrival: Arrival, events: 'live' | 'hidden', branch?: { id: string; signal: AbortSignal; results: Map<string, NodeResult> }): Promise<StepResult> {
    const results = branch ? new Map([...this.#results, ...branch.results]) : this.#results;
    const join = arrival.join?.join;
    const state = graphState(this.#base, {
      step: count,
      current: node.name,
      previous: arrival.previous,
      predecessors: join?.from ?? [],
      results: this.#resultsView(branch?.results),
      incoming: join ? new Map(join.from.map((name) => [name, results.get(name)!])) : undefined,
      error: arrival.error,
    });
    const input = this.#inputFor(node, state, arrival);
    const result = await this.#execution.runStep({
      participant: node.name,
      child: node.assembly,
      input,
      history: node.history ? this.#execution.history : [],
      context: node.context ? this.#execution.context : {},
      policy: node.policy,
      predecessorIds: arrival.predecessorIds,
      events,
      step: count,
      ...(branch ? { branchId: branch.id, signal: branch.signal, state: structuredClone(this.#execution.state) } : {}),
    });
    this.#record(node.name, nodeResult(result.run), branch?.results);
    return result;
  }

  #inputFor(node: GraphNode, state: GraphState, arrival: Arrival): AgentInput {
    const join = arrival.join?.join;
    if (join) {
      if (join.input) return join.input(state);
      if (node.input) return node.input(state);
      return contextualInput(this.#base, join.from.map((name) => [name, state.incomingResults[name]!.output]));
    }
    if (arrival.input) return arrival.input(state);
    if (node.input) return node.input(state);
    if (arrival.previous === undefined) return this.#base.input;
    const previous = state.previousResult;
    if (arrival.error !== undefined && !previous) return contextualInput(this.#base, [[arrival.previous, `Failed with ${state.error!.name}.`]]);
    return contextualInput(this.#base, [[arrival.previous, previous?.output]]);
  }

  async #runBranches(fork: Fork, join: Join, sourceStepId: string): Promise<BranchResult[]> {
    const slots = new Semaphore(fork.maxConcurrency);
    const siblings = new AbortController();
    const settled = await Promise.allSettled(
      fork.to.map((start) =>
        slots.run(() => this.#runBranch(start, fork, join, sourceStepId, siblings.signal)).catch((error: unknown) => {
          if (!siblings.signal.aborted) siblings.abort(new CancelledError({ message: 'A parallel branch failed' }));
          throw error;
        }),
      ),
    );
    const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected' && !isSiblingCancel(outcome.reason, siblings.signal));
    const first = failed ?? settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (first) throw first.reason;
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<BranchResult>).value);
  }

  /** Runs one branch from `start` until it reaches a source of its fan-in. */
  async #runBranch(start: string, fork: Fork, join: Join, sourceStepId: string, signal: AbortSignal): Promise<BranchResult> {
    const { edges, errorEdges } = this.#topology;
    const results = new Map<string, NodeResult>();
    let current = start;
    let arrival: Arrival = { previous: fork.from, input: fork.inputs.get(start), predecessorIds: [sourceStepId] };
    for (;;) {
      const count = this.#nextStep(signal);
      const node = this.#nodes.get(current)!;
      let result: StepResult;
      try {
        result = await this.#runNode(node, count, arrival, 'hidden', { id: start, signal, results });
      } catch (failure) {
        const route = failure instanceof StepFailure ? selectErrorEdge(errorEdges.filter((edge) => edge.from === current), failure.error) : undefined;
        if (!route) throw failure;
        this.#execution.emit({ type: 'assembly-transition', ...this.#source(), step: count, from: current, to: route.to, error: true, branchId: start });
        arrival = { previous: current, input: route.input, error: (failure as StepFailure).error, predecessorIds: [(failure as StepFailure).step.id] };
        current = route.to;
        continue;
      }
      if (join.from.includes(current)) return { terminal: current, results, lastStepId: result.step.id };
      const state = graphState(this.#base, { step: count, current, previous: arrival.previous, results: this.#resultsView(results) });
      const selected = selectEdge(edges.filter((edge) => edge.from === current), state, current) as ScalarEdge;
      this.#execution.emit({ type: 'assembly-transition', ...this.#source(), step: count, from: current, to: selected.to, branchId: start });
      arrival = { previous: current, input: selected.input, predecessorIds: [result.step.id] };
      current = selected.to;
    }
  }
}

function isSiblingCancel(error: unknown, signal: AbortSignal): boolean {
  const cause = error instanceof StepFailure ? error.error : error;
  return signal.aborted && CancelledError.isInstance(cause);
}

/** The default input of a downstream node: the original task and its predecessors' outputs. */
function contextualInput(base: StateBase, values: ReadonlyArray<readonly [string, unknown]>): AgentInput {
  const tail = `\n\nInputs from previous nodes:${values.map(([name, value]) => `\n\nFrom ${name}:\n${outputText(value)}`).join('')}`;
  const { content } = base.input;
  if (typeof content === 'string') return `Original Task:\n${content}${tail}`;
  return [{ type: 'text', text: 'Original Task:\n' }, ...structuredClone(content as UserContent as Exclude<UserContent, string>), { type: 'text', text: tail }];
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

function selectEdge(candidates: ReadonlyArray<ScalarEdge | Fork>, state: GraphState, current: string): ScalarEdge | Fork {
  if (candidates.length === 0) throw new AssemblyRoutingError(`graph node ${show(current)} has no outgoing edge`);
  const conditional = candidates.filter((edge) => edge.condition !== undefined && edge.condition(state) === true);
  if (conditional.length > 1) throw new AssemblyRoutingError(`graph node ${show(current)} matched more than one conditional edge`);
  if (conditional.length === 1) return conditional[0]!;
  const fallback = candidates.filter((edge) => edge.condition === undefined);
  if (fallback.length > 1) throw new AssemblyRoutingError(`graph node ${show(current)} has more than one unconditional edge`);
  if (fallback.length === 1) return fallback[0]!;
  throw new AssemblyRoutingError(`graph node ${show(current)} did not match an outgoing edge`);
}

function selectErrorEdge(candidates: readonly GraphErrorEdge[], error: unknown): GraphErrorEdge | undefined {
  if (CancelledError.isInstance(error) || DeadlineExceededError.isInstance(error) || CleanupError.isInstance(error)) return undefined;
  const matches = candidates.filter((edge) => matchesErrors(error, edge.on));
  if (matches.length > 1) throw new AssemblyRoutingError('graph error matched more than one error edge');
  return matches[0];
}

/**
 * Defines a graph (SPEC A15) and checks it now (`ConfigurationError`):
 * declared nodes, one start, finish nodes without outgoing edges, at most one
 * unconditional route per node, fan-outs that meet at one fan-in (declared or
 * inferred), no nested or overlapping fan-outs, every node reachable.
 *
 * @example
 * const support = defineGraph({
 *   name: 'support',
 *   nodes: { triage, ledger, policy, respond },
 *   start: 'triage',
 *   edges: [
 *     { from: 'triage', to: ['ledger', 'policy'] },
 *     { from: ['ledger', 'policy'], to: 'respond' },
 *   ],
 *   finish: 'respond',
 * });
 * console.log(support.toMermaid());
 */
export function defineGraph<TOutput = string>(spec: GraphSpec): Graph<TOutput> {
  if (typeof spec !== 'object' || spec === null) throw new ConfigurationError('a graph definition must be an object');
  checkName('graph', spec.name);
  if (typeof spec.nodes !== 'object' || spec.nodes === null) throw new ConfigurationError('graph must declare at least one node');
  const nodes = new Map<string, GraphNode>();
  for (const [name, value] of Object.entries(spec.nodes)) {
    if (name.length === 0) throw new ConfigurationError('graph node name cannot be empty');
    const options: GraphNodeOptions = isAskable(value) ? { assembly: value } : (value as GraphNodeOptions);
    if (!isAskable(options?.assembly)) throw new ConfigurationError(`graph node ${show(name)} must be an agent or an assembly`);
    for (const key of Object.keys(options)) {
      if (!['assembly', 'history', 'context', 'input'].includes(key) && !(STEP_POLICY_KEYS as readonly string[]).includes(key)) {
        throw new ConfigurationError(`graph node ${show(name)} has an unknown option ${key}`);
      }
    }
    if (![undefined, true, false].includes(options.history) || ![undefined, true, false].includes(options.context)) {
      throw new ConfigurationError('graph node history and context options must be true or false');
    }
    if (options.input !== undefined && typeof options.input !== 'function') throw new ConfigurationError('node input mapper must be a function');
    nodes.set(name, {
      name,
      assembly: options.assembly,
      history: options.history === true,
      context: options.context === true,
      input: options.input,
      policy: resolveStepPolicy(options, `graph node ${show(name)}`),
    });
  }
  if (spec.maxSteps !== undefined && (!Number.isInteger(spec.maxSteps) || spec.maxSteps < 1)) throw new ConfigurationError('maxSteps must be at least 1');
  const maxConcurrency = checkConcurrency(spec.maxConcurrency ?? DEFAULT_GRAPH_MAX_CONCURRENCY);
  const finish = Object.freeze(spec.finish === undefined ? [] : typeof spec.finish === 'string' ? [spec.finish] : [...spec.finish]);
  if (spec.edges !== undefined && !Array.isArray(spec.edges)) throw new ConfigurationError('graph edges must be a list');
  if (spec.errorEdges !== undefined && !Array.isArray(spec.errorEdges)) throw new ConfigurationError('graph errorEdges must be a list');
  const edges = (spec.edges ?? []).map(normalizeEdge);
  const errorEdges = (spec.errorEdges ?? []).map(normalizeErrorEdge);
  const topology = compileTopology(new Set(nodes.keys()), spec.start, finish, edges, errorEdges, maxConcurrency);
  return new Graph<TOutput>(spec, nodes, finish, topology);
}

/** The Mermaid flowchart of a graph's routes. */
export function toMermaid(graph: Graph<any>): string {
  return graph.toMermaid();
}
