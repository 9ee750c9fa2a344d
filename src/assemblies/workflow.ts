import type { ModelMessage, UserModelMessage } from 'ai';
import { isAskable } from '../agent/askable.ts';
import type { Askable } from '../agent/askable.ts';
import type { AgentInput } from '../agent/invocation.ts';
import type { Run } from '../agent/run.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { Semaphore } from '../util/semaphore.ts';
import { definePlannedWorkflow } from '../workflows/planned-workflow.ts';
import type { PlannedWorkflow, PlannedWorkflowSpec } from '../workflows/planned-workflow.ts';
import { assertJsonLike } from './assembly-execution.ts';
import type { AssemblyExecution, StepResult } from './assembly-execution.ts';
import { checkName, Composite } from './composite.ts';
import { resolveStepPolicy } from './step-policy.ts';
import type { StepPolicy } from './step-policy.ts';
import { inputText } from './input-text.ts';

/** SPEC A15: `parallel` runs at most 8 invokes at once by default. */
export const DEFAULT_PARALLEL_CONCURRENCY = 8;

/** Options of `workflow.invoke`. */
export interface InvokeOptions extends StepPolicy {
  /** The participant's name in steps and events (default: the participant's own name). */
  readonly as?: string | undefined;
  /** What the participant is asked (default: the workflow's input). */
  readonly input?: AgentInput | undefined;
  /** The history it starts from (default: the caller's). Pass `[]` to give it none. */
  readonly history?: readonly ModelMessage[] | undefined;
  /** The application context it sees (default: the caller's). JSON-like values only. */
  readonly context?: Record<string, unknown> | undefined;
}

/** Options of `workflow.parallel`. */
export interface ParallelOptions {
  /** How many invokes run at once (default 8). */
  readonly maxConcurrency?: number | undefined;
}

/**
 * A prepared child step: nothing runs until `output` (or `run`) is read, and
 * the workflow's final step is the invoke `perform` returns unread, so its
 * events stream to the caller.
 */
export interface WorkflowInvocation<TOutput = unknown> {
  /** The participant's name. */
  readonly participant: string;
  /** Runs the step (once) and gives its output: the checked structured value, or the text. */
  readonly output: Promise<TOutput>;
  /** Runs the step (once) and gives the participant's run. */
  readonly run: Promise<Run<TOutput>>;
  /** Whether the step was started. */
  readonly consumed: boolean;
}

type OutputOf<T> = T extends WorkflowInvocation<infer OUTPUT> ? OUTPUT : never;

/** What `perform` receives. */
export interface WorkflowContext {
  /** The workflow's input as a user message. */
  readonly input: UserModelMessage;
  /** The text of the input (its text parts joined). */
  readonly text: string;
  /** The caller's history (frozen). */
  readonly history: readonly ModelMessage[];
  /** The caller's application context (a copy). */
  readonly context: Readonly<Record<string, unknown>>;
  /** Aborts when the run is cancelled or reaches its deadline. */
  readonly signal: AbortSignal;
  /** Prepares a child step (lazy). */
  invoke<TOutput>(participant: Askable<TOutput>, options?: InvokeOptions): WorkflowInvocation<TOutput>;
  /** Runs several unread invokes at once (each with its own copy of the context and state) and gives their outputs in order. */
  parallel<const T extends readonly WorkflowInvocation<unknown>[]>(
    ...invocations: [...T] | [...T, ParallelOptions]
  ): Promise<{ -readonly [K in keyof T]: OutputOf<T[K]> }>;
}

/** What `defineWorkflow` takes for an application-coded workflow. */
export interface WorkflowSpec<TOutput = unknown> {
  /** The workflow's name (the rule agent names follow). */
  readonly name: string;
  readonly description?: string | undefined;
  /** The application code: prepare and read child steps, then return the final invoke unread. */
  readonly perform: (workflow: WorkflowContext) => WorkflowInvocation<TOutput> | Promise<WorkflowInvocation<TOutput>>;
}

/**
 * An application-coded workflow: `perform` is ordinary code that invokes
 * agents and other assemblies; it answers like an agent (`ask`, `stream`).
 */
export class Workflow<TOutput = unknown> extends Composite<TOutput> {
  readonly name: string;
  readonly kind = 'workflow' as const;
  readonly description: string | undefined;
  readonly definition: Readonly<WorkflowSpec<TOutput>>;

  constructor(spec: WorkflowSpec<TOutput>) {
    super();
    this.definition = Object.freeze({ ...spec });
    this.name = spec.name;
    this.description = spec.description;
  }

  protected async perform(execution: AssemblyExecution): Promise<Run> {
    const context = new RunningWorkflow(this.name, execution);
    const returned: unknown = await this.definition.perform(context);
    const final = context.own(returned);
    if (!final || final.consumed) throw new ProtocolError(`${this.name} must return its final invoke from perform`);
    return (await final.start('live')).run;
  }
}

class PreparedInvocation<TOutput> implements WorkflowInvocation<TOutput> {
  readonly participant: string;
  readonly #start: (events: 'live' | 'hidden', isolated: boolean, signal: AbortSignal | undefined) => Promise<StepResult>;
  #result: Promise<StepResult> | undefined;

  constructor(participant: string, start: (events: 'live' | 'hidden', isolated: boolean, signal: AbortSignal | undefined) => Promise<StepResult>) {
    this.participant = participant;
    this.#start = start;
  }

  get consumed(): boolean {
    return this.#result !== undefined;
  }

  start(events: 'live' | 'hidden', isolated = false, signal?: AbortSignal): Promise<StepResult> {
    this.#result ??= this.#start(events, isolated, signal);
    return this.#result;
  }

  get run(): Promise<Run<TOutput>> {
    return this.start('hidden').then((result) => result.run as Run<TOutput>);
  }

  get output(): Promise<TOutput> {
    return this.run.then((run) => run.output as TOutput);
  }
}

class RunningWorkflow implements WorkflowContext {
  readonly #name: string;
  readonly #execution: AssemblyExecution;
  readonly #invocations = new WeakSet<object>();
  #steps = 0;

  constructor(name: string, execution: AssemblyExecution) {
    this.#name = name;
    this.#execution = execution;
  }

  get input(): UserModelMessage {
    return this.#execution.input;
  }

  get text(): string {
    return inputText(this.#execution.input);
  }

  get history(): readonly ModelMessage[] {
    return this.#execution.history;
  }

  get context(): Readonly<Record<string, unknown>> {
    return Object.freeze(structuredClone(this.#execution.context));
  }

  get signal(): AbortSignal {
    return this.#execution.signal;
  }

  /** `value` as one of this run's invocations, or undefined. */
  own(value: unknown): PreparedInvocation<unknown> | undefined {
    return typeof value === 'object' && value !== null && this.#invocations.has(value) ? (value as PreparedInvocation<unknown>) : undefined;
  }

  invoke<TOutput>(participant: Askable<TOutput>, options: InvokeOptions = {}): WorkflowInvocation<TOutput> {
    if (!isAskable(participant)) throw new ConfigurationError(`${this.#name}: invoke needs an agent or an assembly`);
    const name = options.as ?? participant.name;
    if (typeof name !== 'string' || name.length === 0) throw new ConfigurationError(`${this.#name}: invoke as must be a non-empty name`);
    const policy = resolveStepPolicy(options, `${this.#name} invoke ${name}`);
    if (options.context !== undefined) assertJsonLike(options.context, 'workflow context must contain only JSON-like state');
    if (options.history !== undefined && !Array.isArray(options.history)) throw new ConfigurationError(`${this.#name}: invoke history must be a list of messages`);
    const execution = this.#execution;
    const invocation = new PreparedInvocation<TOutput>(name, (events, isolated, signal) =>
      execution.runStep({
        participant: name,
        child: participant,
        input: options.input ?? execution.input,
        history: options.history ?? execution.history,
        context: options.context ?? execution.context,
        ...(isolated ? { state: structuredClone(execution.state) } : {}),
        ...(signal ? { signal } : {}),
        policy,
        events,
        step: ++this.#steps,
      }),
    );
    this.#invocations.add(invocation);
    return invocation;
  }

  async parallel<const T extends readonly WorkflowInvocation<unknown>[]>(
    ...args: [...T] | [...T, ParallelOptions]
  ): Promise<{ -readonly [K in keyof T]: OutputOf<T[K]> }> {
    const last = args[args.length - 1];
    const options: ParallelOptions = last !== undefined && this.own(last) === undefined && typeof last === 'object' && !('participant' in last) ? (last as ParallelOptions) : {};
    const invocations = (options === last ? args.slice(0, -1) : args) as readonly unknown[];
    if (invocations.length === 0) throw new ConfigurationError('parallel requires at least one invocation');
    const owned = invocations.map((item) => this.own(item));
    if (owned.some((item) => item === undefined || item.consumed)) throw new ConfigurationError('parallel accepts unconsumed workflow invocations');
    const size = options.maxConcurrency ?? DEFAULT_PARALLEL_CONCURRENCY;
    if (!Number.isInteger(size) || size < 1) throw new ConfigurationError('maxConcurrency must be at least 1');
    const slots = new Semaphore(size);
    const sibling = new AbortController();
    const results = await Promise.all(
      owned.map((item) =>
        slots.run(() => item!.start('hidden', true, sibling.signal)).catch((error: unknown) => {
          sibling.abort(error);
          throw error;
        }),
      ),
    );
    return results.map((result) => result.run.output) as { -readonly [K in keyof T]: OutputOf<T[K]> };
  }
}

/**
 * Defines a workflow. With `perform` it is application code that composes
 * agents and assemblies (SPEC A15 Workflow); without it, the data of a
 * workflow a planner model designs (`planWorkflow`/`runWorkflow` of
 * `ghostlight/workflows`).
 *
 * @example
 * const respond = defineWorkflow({
 *   name: 'respond',
 *   perform: async (workflow) => {
 *     const research = await workflow.invoke(researcher).output;
 *     return workflow.invoke(writer, { input: `${workflow.text}\n\nVerified research:\n${research}` });
 *   },
 * });
 * const run = await respond.ask('Why is transfer 481 pending?');
 */
export function defineWorkflow<TOutput = unknown>(spec: WorkflowSpec<TOutput>): Workflow<TOutput>;
export function defineWorkflow(spec: PlannedWorkflowSpec): PlannedWorkflow;
export function defineWorkflow(spec: WorkflowSpec | PlannedWorkflowSpec): Workflow | PlannedWorkflow {
  if (typeof spec !== 'object' || spec === null) throw new ConfigurationError('a workflow definition must be an object');
  if (!('perform' in spec) || spec.perform === undefined) return definePlannedWorkflow(spec as PlannedWorkflowSpec);
  checkName('workflow', spec.name);
  if (typeof spec.perform !== 'function') throw new ConfigurationError(`workflow ${spec.name}: perform must be a function`);
  return new Workflow(spec);
}
