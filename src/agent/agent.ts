import { ConfigurationError } from '../error/configuration-error.ts';
import { modelCapabilities, modelIdentity } from '../model/model-capabilities.ts';
import { resultSchemaFor } from '../structured/prepare-structured-result.ts';
import { resolveStrategy } from '../structured/resolve-strategy.ts';
import type { GhostlightEvent } from '../events/events.ts';
import { isTool } from '../tool/tool.ts';
import type { AgentDefinition } from './agent-definition.ts';
import type { InferSchemaOutput } from '../tool/define-tool.ts';
import type { ResultDeclaration } from '../structured/result-schema.ts';
import type { AgentInput, AskOptions } from './invocation.ts';
import { resolveLimits } from './limits.ts';
import type { Run } from './run.ts';
import { RunExecution } from './run-execution.ts';
import { createToolLoopHooks } from './tool-loop-detector.ts';

const AGENT_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_.-]{0,63}$/;

/**
 * The events of one run as they happen, then its {@link Run}. Iterate it for
 * events; await `run` for the result (it settles even if nobody iterates).
 */
export interface RunStream<TOutput = unknown> extends AsyncIterable<GhostlightEvent> {
  /** The run's id, known before the first event. */
  readonly runId: string;
  /** Settles with the finished run (rejects only for bad configuration). */
  readonly run: Promise<Run<TOutput>>;
  /** Reads the log from `fromSequence`, e.g. to resume after a reconnect. */
  events(fromSequence?: number, signal?: AbortSignal): AsyncIterable<GhostlightEvent>;
}

/**
 * The type of `run.output` for an agent with result declaration `RESULT`: the
 * schema's output type (valibot, any Standard Schema, an AI SDK schema), or
 * `unknown` for a plain JSON Schema; text (`string`) without a result.
 */
export type ResultOutput<RESULT> = [RESULT] extends [undefined]
  ? string
  : RESULT extends { readonly '~standard': unknown }
    ? InferSchemaOutput<RESULT>
    : RESULT extends { readonly schema: infer SCHEMA }
      ? InferSchemaOutput<SCHEMA>
      : InferSchemaOutput<RESULT>;

/**
 * An agent: a frozen definition with two entry points. Each call is a fresh,
 * independent run; one agent serves any number of concurrent calls.
 * `TOutput` is the type of `run.output` (see {@link ResultOutput}).
 */
export class Agent<TOutput = unknown> {
  /** The agent's name. */
  readonly name: string;
  /** The frozen definition. */
  readonly definition: Readonly<AgentDefinition>;

  constructor(definition: AgentDefinition) {
    this.definition = Object.freeze({ ...definition, tools: Object.freeze([...(definition.tools ?? [])]) });
    this.name = definition.name;
  }

  /**
   * Runs the agent to the end and returns the run. Failures during the run
   * (provider errors, limits, a deadline, cancellation) give a Run with that
   * outcome; only bad configuration found before the run starts throws.
   *
   * @example
   * const run = await agent.ask('Where is order 481?', { actorId: user.id, context: { accountId: user.accountId } });
   * if (run.completed) console.log(run.response);
   */
  async ask(input: AgentInput, options: AskOptions = {}): Promise<Run<TOutput>> {
    return (await new RunExecution(this.definition, input, options).execute()) as Run<TOutput>;
  }

  /**
   * Runs the agent and yields its events as they happen: run start, model
   * turns, text deltas, tool calls and results, usage, and exactly one
   * terminal event. `stream.run` resolves to the finished run.
   *
   * @example
   * const stream = agent.stream('Summarise my notes');
   * for await (const event of stream) if (event.type === 'text-delta') write(event.text);
   * const run = await stream.run;
   */
  stream(input: AgentInput, options: AskOptions = {}): RunStream<TOutput> {
    const execution = new RunExecution(this.definition, input, options);
    const run = execution.execute() as Promise<Run<TOutput>>;
    run.catch(() => undefined);
    const events = (fromSequence = 0, signal?: AbortSignal) => execution.log.read(fromSequence, signal);
    return {
      runId: execution.invocation.runId,
      run,
      events,
      [Symbol.asyncIterator]: () => events()[Symbol.asyncIterator](),
    };
  }
}

/**
 * Defines an agent. The name, limits and tool-loop options are checked now;
 * tools are resolved per run (providers and `availableIf` see the run).
 *
 * @example
 * const agent = defineAgent({
 *   name: 'support',
 *   model: openai('gpt-5-mini'),
 *   instructions: 'Check the help center before stating company guidance.',
 *   tools: [helpCenterLookup],
 * });
 */
export function defineAgent<const RESULT extends ResultDeclaration | undefined = undefined>(
  definition: AgentDefinition & { result?: RESULT },
): Agent<ResultOutput<RESULT>> {
  if (typeof definition.name !== 'string' || !AGENT_NAME_PATTERN.test(definition.name)) {
    throw new ConfigurationError(
      `Agent name must start with a letter and contain only letters, digits, '_', '-' and '.' (at most 64): ${String(definition.name)}`,
    );
  }
  if (definition.model === undefined || definition.model === null) {
    throw new ConfigurationError(`Agent ${definition.name} needs a model`);
  }
  resolveLimits(definition.limits);
  if (definition.detectToolLoops && definition.detectToolLoops !== true) {
    createToolLoopHooks(definition.detectToolLoops, new Set());
  }
  assertNoStaticCollisions(definition);
  assertResultDeclaration(definition);
  return new Agent<ResultOutput<RESULT>>(definition);
}

/** Checks the result schema now, and the strategy too when the model is known now. */
function assertResultDeclaration(definition: AgentDefinition): void {
  if (definition.result === undefined) return;
  const schema = resultSchemaFor(definition.result, definition.name);
  if (typeof definition.model === 'string') return;
  const capabilities = modelCapabilities(definition.model, definition.modelCapabilities);
  resolveStrategy(schema.strategy, capabilities, modelIdentity(definition.model), (definition.tools?.length ?? 0) > 0);
}

function assertNoStaticCollisions(definition: AgentDefinition): void {
  const seen = new Set<string>();
  const visit = (declaration: unknown): void => {
    if (Array.isArray(declaration)) declaration.forEach(visit);
    else if (isTool(declaration) && !declaration.availableIf) {
      if (seen.has(declaration.name)) throw new ConfigurationError(`Tool name collision: ${declaration.name}`);
      seen.add(declaration.name);
    }
  };
  visit(definition.tools ?? []);
}
