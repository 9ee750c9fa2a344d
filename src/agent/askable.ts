import type { AgentInput, AskOptions } from './invocation.ts';
import type { RunStream } from './agent.ts';
import type { Run } from './run.ts';

/** What an assembly is: an agent, or a Workflow, Swarm or Graph (`ghostlight/assemblies`). */
export type AssemblyKind = 'agent' | 'workflow' | 'swarm' | 'graph';

/**
 * Anything that answers like an agent (SPEC A15, "one interface"): an Agent,
 * and the composite assemblies of `ghostlight/assemblies`. Each call is a
 * fresh, independent run. The core names no composite; `asTool` and
 * `createAgentApp` take any `Askable`.
 */
export interface Askable<TOutput = unknown> {
  /** The name (routes, events, `run.agent`). */
  readonly name: string;
  /** A composite's kind (`workflow`, `swarm`, `graph`); absent on agents. */
  readonly kind?: AssemblyKind | undefined;
  /** What it does, when it says (handoff tool descriptions, `asTool`). */
  readonly description?: string | undefined;
  ask(input: AgentInput, options?: AskOptions): Promise<Run<TOutput>>;
  stream(input: AgentInput, options?: AskOptions): RunStream<TOutput>;
}

/** Whether `value` answers like an agent (duck-typed, so copies of the package from another bundle count). */
export function isAskable(value: unknown): value is Askable {
  const candidate = value as Partial<Askable> | null | undefined;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.name === 'string'
    && typeof candidate.ask === 'function' && typeof candidate.stream === 'function';
}

/** Whether `value` is a composite assembly (a Workflow, Swarm or Graph). */
export function isComposite(value: unknown): value is Askable {
  return isAskable(value) && (value.kind === 'workflow' || value.kind === 'swarm' || value.kind === 'graph');
}
