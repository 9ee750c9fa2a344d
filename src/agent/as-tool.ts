import type { LanguageModel, ModelMessage } from 'ai';
import { ConfigurationError } from '../error/configuration-error.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { Tool } from '../tool/tool.ts';
import type { RunHandle, RunState } from '../tool/tool-binding.ts';
import type { ToolDeclaration } from '../tool/tool-declaration.ts';
import { ToolError } from '../tool/tool-error.ts';
import { TOOL_NAME_PATTERN } from '../tool/tool-name.ts';
import { Semaphore } from '../util/semaphore.ts';
import { defineAgent } from './agent.ts';
import type { Agent } from './agent.ts';
import { isComposite } from './askable.ts';
import type { Askable } from './askable.ts';

/** Options of {@link asTool}. */
export interface AsToolOptions {
  /** The model-visible tool name (default: the agent's name, when it is a valid tool name). */
  name?: string | undefined;
  /** The model-visible description (default "Delegate a task to <name>."). */
  description?: string | undefined;
  /** Runs the delegated agent with this model instead of its own. */
  model?: LanguageModel | string | undefined;
  /** Gives the delegated agent these tools instead of its own (it never inherits the caller's). */
  tools?: readonly ToolDeclaration[] | undefined;
  /**
   * Keep the delegated agent's conversation between calls within one run of
   * the caller, and run those calls one at a time (default false: every call
   * starts with an empty history and calls may overlap).
   */
  preserveContext?: boolean | undefined;
}

/** The input every agent tool takes. */
export interface AgentToolInput {
  /** The task for the delegated agent. */
  input: string;
}

interface PreservedContext {
  history: readonly ModelMessage[];
  readonly turns: Semaphore;
}

/**
 * An agent as one ordinary tool of another: the model sends `{ input }`, the
 * delegated agent runs to the end, and the tool's value is its output (the
 * checked structured value when it declares a result, otherwise its text).
 * The delegated run gets the caller's identity, context, signal and deadline,
 * and its working state: it starts from the caller's `state`, and the state
 * it ends with replaces it. It has only its own tools (or `tools`), never the
 * caller's. A failed delegated run is a tool error the model can act on;
 * cancellation and the deadline end the caller's run as they would its own.
 *
 * A composite assembly (a Workflow, Swarm or Graph from `ghostlight/assemblies`)
 * is delegated the same way; it takes no `model` or `tools` override.
 *
 * With `preserveContext`, calls in one run of the caller share the delegated
 * agent's history and run one at a time; each run of the caller starts fresh.
 *
 * @example
 * const classify = asTool(sentimentAgent, { name: 'classify_sentiment' });
 * const support = defineAgent({ name: 'support', model, tools: [classify] });
 */
export function asTool<TOutput>(agent: Agent<TOutput> | Askable<TOutput>, options: AsToolOptions = {}): Tool<AgentToolInput, TOutput> {
  const composite = isComposite(agent);
  if (!composite && !isAgent(agent)) throw new ConfigurationError('asTool needs an agent made by defineAgent or an assembly');
  const name = options.name ?? agent.name;
  if (options.name === undefined && !TOOL_NAME_PATTERN.test(name)) {
    throw new ConfigurationError(`Agent ${agent.name} is not a valid tool name: give asTool a name`);
  }
  if (composite && (options.model !== undefined || options.tools !== undefined)) {
    throw new ConfigurationError('Composite assemblies do not accept delegated model or tool overrides');
  }
  if (options.tools !== undefined && !Array.isArray(options.tools)) throw new ConfigurationError('Delegated tools must be a list of tools');
  const delegate: Askable<TOutput> =
    composite || (options.model === undefined && options.tools === undefined)
      ? agent
      : (defineAgent({
          ...(agent as Agent<TOutput>).definition,
          ...(options.model !== undefined ? { model: options.model } : {}),
          ...(options.tools !== undefined ? { tools: options.tools } : {}),
        }) as unknown as Agent<TOutput>);
  const preserved = new WeakMap<RunHandle, PreservedContext>();

  return defineTool({
    name,
    description: options.description ?? `Delegate a task to ${name}.`,
    input: {
      type: 'object',
      properties: { input: { type: 'string', description: `The task for ${name}.` } },
      required: ['input'],
      additionalProperties: false,
    },
    async execute(value, binding): Promise<TOutput> {
      const { input } = value as AgentToolInput;
      const { invocation } = binding.run;
      const ask = async (history: readonly ModelMessage[] | undefined) => {
        const run = await delegate.ask(input, {
          actorId: invocation.actorId,
          context: { ...invocation.context },
          // An interjection's metadata governs the parent's tools, this agent included (SPEC A18).
          ...(binding.run.interjectionMetadata ? { metadata: { ...binding.run.interjectionMetadata } } : {}),
          state: binding.state,
          signal: binding.signal,
          deadline: invocation.deadline,
          history,
          ...(binding.operation ? { parentOperation: binding.operation } : {}),
        });
        if (run.outcome === 'cancelled' || run.outcome === 'partial') throw run.error;
        if (run.outcome === 'failed') throw new ToolError(`${name} failed: ${run.response}`);
        replaceState(binding.state, run.state);
        return run;
      };
      if (!options.preserveContext) return (await ask(undefined)).output as TOutput;
      let context = preserved.get(binding.run);
      if (!context) {
        context = { history: [], turns: new Semaphore(1) };
        preserved.set(binding.run, context);
      }
      const shared = context;
      return shared.turns.run(async () => {
        const run = await ask(shared.history);
        shared.history = run.messages;
        return run.output as TOutput;
      });
    },
  }) as unknown as Tool<AgentToolInput, TOutput>;
}

/** Makes `target` hold exactly the keys of `source` (the state object stays the one the run's tools share). */
function replaceState(target: RunState, source: RunState): void {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
  Object.assign(target, source);
}

/** Whether `value` is an agent (duck-typed, so copies of the package from another bundle count). */
export function isAgent(value: unknown): value is Agent {
  const candidate = value as Partial<Agent> | null | undefined;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.ask === 'function' && typeof candidate.stream === 'function'
    && typeof candidate.definition === 'object' && candidate.definition !== null && (candidate as { kind?: unknown }).kind === undefined;
}
