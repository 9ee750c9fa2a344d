import type { RunStream } from '../agent/agent.ts';
import type { Askable } from '../agent/askable.ts';
import type { AgentInput, AskOptions } from '../agent/invocation.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { CompositeKind } from '../events/events.ts';
import { ancestryOf, withAncestry } from './ancestry.ts';
import { AssemblyExecution, streamOf } from './assembly-execution.ts';
import type { AssemblyAskOptions } from './assembly-execution.ts';
import type { AssemblyRun } from './assembly-run.ts';

const NAME = /^[a-zA-Z][a-zA-Z0-9_.-]{0,63}$/;

/** Checks a composite's name (the rule agent names follow). */
export function checkName(kind: CompositeKind, name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new ConfigurationError(`${kind} name must start with a letter and contain only letters, digits, '_', '-' and '.' (at most 64): ${String(name)}`);
  }
  return name;
}

/**
 * What Workflow, Swarm and Graph share: the `Askable` interface over one
 * {@link AssemblyExecution} per call, and the refusal of a composite that
 * would run inside itself.
 */
export abstract class Composite<TOutput = unknown> implements Askable<TOutput> {
  abstract readonly name: string;
  abstract readonly kind: CompositeKind;
  abstract readonly description: string | undefined;

  /** Runs the composite's body in an execution. */
  protected abstract perform(execution: AssemblyExecution): Promise<import('../agent/run.ts').Run>;

  /**
   * Runs the assembly to the end. Failures during the run give a run with
   * that outcome (`failed`, `partial`, `cancelled`); only bad configuration
   * or input found before it starts throws.
   */
  async ask(input: AgentInput, options: AssemblyAskOptions = {}): Promise<AssemblyRun<TOutput>> {
    return this.stream(input, options).run as Promise<AssemblyRun<TOutput>>;
  }

  /** Runs the assembly and yields its events: step events, transitions, and the answering participant's own events. */
  stream(input: AgentInput, options: AssemblyAskOptions = {}): RunStream<TOutput> & { readonly run: Promise<AssemblyRun<TOutput>> } {
    const ancestry = ancestryOf(options);
    if (ancestry.includes(this)) throw new ConfigurationError(`Recursive assembly: ${this.kind} ${this.name} runs inside itself`);
    const execution = new AssemblyExecution({ name: this.name, kind: this.kind }, input, withAncestry({ ...options }, [...ancestry, this]));
    return streamOf(execution, execution.execute(() => this.perform(execution))) as RunStream<TOutput> & { readonly run: Promise<AssemblyRun<TOutput>> };
  }
}
