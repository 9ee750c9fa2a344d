import type { RunStream } from '../agent/agent.ts';
import type { Askable } from '../agent/askable.ts';
import type { AgentInput } from '../agent/invocation.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { ancestryOf, withAncestry } from './ancestry.ts';
import type { AssemblyAskOptions } from './assembly-execution.ts';
import type { AssemblyRun } from './assembly-run.ts';
import { defineGraph } from './graph.ts';
import type { Graph, GraphNodeOptions, GraphSpec } from './graph.ts';
import type { EdgeCondition, GraphEdge, GraphErrorEdge, InputMapper } from './graph-topology.ts';
import type { RetryOn } from './step-policy.ts';

/**
 * A mutable graph definition for topologies decided at run time. It stays
 * editable; `build()` (and each `ask`/`stream`) takes a fixed, checked copy,
 * so later edits affect only later runs.
 *
 * @example
 * const builder = graphBuilder('support_flow').node('triage', triage).node('respond', respond).start('triage').edge('triage', 'respond').finish('respond');
 * builder.validate();
 * const run = await builder.ask('Where is my order?');
 */
export class GraphBuilder implements Askable {
  readonly name: string;
  readonly kind = 'graph' as const;
  readonly description: string | undefined;
  #nodes: Record<string, Askable<any> | GraphNodeOptions> = {};
  #edges: GraphEdge[] = [];
  #errorEdges: GraphErrorEdge[] = [];
  #start: string | undefined;
  #finish: string[] = [];
  #limits: { maxSteps?: number; maxConcurrency?: number } = {};

  constructor(name: string, description?: string) {
    this.name = name;
    this.description = description;
  }

  /** Declares a node (an agent or assembly, with node options). */
  node(name: string, assembly: Askable<any>, options: Omit<GraphNodeOptions, 'assembly'> = {}): this {
    this.#nodes = { ...this.#nodes, [name]: { ...options, assembly } };
    return this;
  }

  start(name: string): this {
    this.#start = name;
    return this;
  }

  /** Adds a finish node. */
  finish(name: string): this {
    this.#finish = [...this.#finish, name];
    return this;
  }

  edge(from: string | readonly string[], to: string | readonly string[], options: { if?: EdgeCondition; input?: InputMapper; maxConcurrency?: number } = {}): this {
    this.#edges = [...this.#edges, { from, to, ...options }];
    return this;
  }

  errorEdge(from: string, to: string, on: RetryOn, options: { input?: InputMapper } = {}): this {
    this.#errorEdges = [...this.#errorEdges, { from, to, on, ...options }];
    return this;
  }

  maxSteps(value: number): this {
    this.#limits = { ...this.#limits, maxSteps: value };
    return this;
  }

  maxConcurrency(value: number): this {
    this.#limits = { ...this.#limits, maxConcurrency: value };
    return this;
  }

  /** The definition as data. */
  toSpec(): GraphSpec {
    return { name: this.name, description: this.description, nodes: this.#nodes, start: this.#start!, finish: this.#finish, edges: this.#edges, errorEdges: this.#errorEdges, ...this.#limits };
  }

  /** A fixed, checked graph of the current definition (`ConfigurationError` when it breaks a rule). */
  build(): Graph {
    for (const [name, node] of Object.entries(this.#nodes)) {
      if (node === this || (node as { assembly?: unknown }).assembly === this) throw new ConfigurationError(`Recursive assembly: graph ${this.name} contains itself (node ${JSON.stringify(name)})`);
    }
    return defineGraph(this.toSpec());
  }

  /** Checks the current definition. */
  validate(): this {
    this.build();
    return this;
  }

  toMermaid(): string {
    return this.build().toMermaid();
  }

  ask(input: AgentInput, options?: AssemblyAskOptions): Promise<AssemblyRun> {
    return this.stream(input, options).run as Promise<AssemblyRun>;
  }

  /** Runs a fixed copy of the current definition (refused inside a run of this builder: a builder that nests itself). */
  stream(input: AgentInput, options: AssemblyAskOptions = {}): RunStream {
    const ancestry = ancestryOf(options);
    if (ancestry.includes(this)) throw new ConfigurationError(`Recursive assembly: graph ${this.name} runs inside itself`);
    return this.build().stream(input, withAncestry({ ...options }, [...ancestry, this]));
  }
}

/** Starts a {@link GraphBuilder}. */
export function graphBuilder(name: string, description?: string): GraphBuilder {
  return new GraphBuilder(name, description);
}
