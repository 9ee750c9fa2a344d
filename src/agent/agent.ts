import { ConfigurationError } from '../error/configuration-error.ts';
import { modelCapabilities, modelIdentity } from '../model/model-capabilities.ts';
import { resultSchemaFor } from '../structured/prepare-structured-result.ts';
import { resolveStrategy } from '../structured/resolve-strategy.ts';
import type { GhostlightEvent } from '../events/events.ts';
import { isTool } from '../tool/tool.ts';
import type { Tool } from '../tool/tool.ts';
import type { Tool as AiSdkTool } from 'ai';
import type { ToolDeclaration } from '../tool/tool-declaration.ts';
import { assertKnownKeys } from './option-keys.ts';
import type { AgentDefinition } from './agent-definition.ts';
import type { InferSchemaOutput } from '../tool/define-tool.ts';
import type { ResultDeclaration } from '../structured/result-schema.ts';
import type { AgentInput, ApprovalResponse, AskOptions } from './invocation.ts';
import type { ApprovalAnswer } from './approvals.ts';
import { Execution } from './execution.ts';
import type { StartOptions } from './execution.ts';
import { interject } from './interjections.ts';
import type { InterjectionInput, InterjectionReply, InterjectOptions } from './interjections.ts';
import { AgentInterjectionError } from '../error/agent-interjection-error.ts';
import { ApprovalError } from '../error/approval-error.ts';
import { resolveLimits } from './limits.ts';
import type { Run } from './run.ts';
import { RunExecution } from './run-execution.ts';
import { runExecutions } from './run-streams.ts';
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
  /** The streams and executions of this agent whose runs have not finished (the targets of `agent.interject`). */
  readonly #active = new Set<RunStream<TOutput>>();

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
   * Continues a run that ended `waiting` for approvals, from its session
   * (`sessions`, `sessionId` and `actorId` as the run had them), in this
   * process or any other: approved calls run exactly once, denied ones reach
   * the model as the tool's error result with the reason, and the run goes
   * on. An answer names a pending call and says yes or no; it cannot change
   * the call's arguments, the tools or the limits.
   *
   * @example
   * const run = await agent.ask('Refund order 481', { sessions, sessionId, actorId });
   * if (run.outcome === 'waiting') {
   *   const [pending] = run.pendingApprovals;
   *   const resumed = await agent.resume([{ approvalId: pending!.approvalId, approved: true }], { sessions, sessionId, actorId });
   * }
   */
  async resume(approvals: readonly ApprovalAnswer[], options: AskOptions): Promise<Run<TOutput>> {
    if (!options?.sessions) throw new ApprovalError('agent.resume needs the session store the run waited in (sessions)');
    return (await new RunExecution(this.definition, { approvals }, options).execute()) as Run<TOutput>;
  }

  /**
   * Starts a run in the background and returns its {@link Execution}: its
   * `state`, its events, `interject`, `cancel`, `wait({ deadline })` and
   * `close()`. The input may also be `{ approvals }` to resume a waiting run.
   *
   * @example
   * await using execution = agent.start('Research the refund policy');
   * await execution.interject('Only the EU policy, please.');
   * const run = await execution.wait();
   */
  start(input: AgentInput | ApprovalResponse, options: StartOptions = {}): Execution<TOutput> {
    const { onEvent, ...rest } = options;
    const controller = new AbortController();
    const signal = rest.signal ? AbortSignal.any([rest.signal, controller.signal]) : controller.signal;
    const execution = new Execution<TOutput>(new RunExecution(this.definition, input, { ...rest, signal }), controller, onEvent);
    this.#track(execution);
    return execution;
  }

  /**
   * Interjects into this agent's one running run (started with `stream` or
   * `start`). With none, `AgentInterjectionError` "Agent is not currently
   * running"; with several, "Agent interjection target is ambiguous" (interject
   * through the stream or execution instead).
   */
  interject(message: InterjectionInput, options?: InterjectOptions): Promise<InterjectionReply> {
    if (this.#active.size === 0) throw new AgentInterjectionError('Agent is not currently running');
    if (this.#active.size > 1) throw new AgentInterjectionError('Agent interjection target is ambiguous');
    const [target] = this.#active;
    return interject(target!, message, options);
  }

  #track(stream: RunStream<TOutput>): void {
    this.#active.add(stream);
    stream.run.then(
      () => this.#active.delete(stream),
      () => this.#active.delete(stream),
    );
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
  stream(input: AgentInput | ApprovalResponse, options: AskOptions = {}): RunStream<TOutput> {
    const execution = new RunExecution(this.definition, input, options);
    const run = execution.execute() as Promise<Run<TOutput>>;
    run.catch(() => undefined);
    const events = (fromSequence = 0, signal?: AbortSignal) => execution.log.read(fromSequence, signal);
    const stream: RunStream<TOutput> = {
      runId: execution.invocation.runId,
      run,
      events,
      [Symbol.asyncIterator]: () => events()[Symbol.asyncIterator](),
    };
    runExecutions.set(stream, execution);
    this.#track(stream);
    return stream;
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
  input: AgentDefinitionInput & { result?: RESULT },
): Agent<ResultOutput<RESULT>> {
  if (typeof input !== 'object' || input === null) throw new ConfigurationError('defineAgent needs a definition object');
  assertKnownKeys(input, DEFINITION_KEYS, `defineAgent(${typeof input.name === 'string' ? input.name.slice(0, 64) : '…'})`, DEFINITION_EQUIVALENTS);
  const definition: AgentDefinition & { result?: RESULT } = { ...input, tools: toolList(input.tools) };
  if (typeof definition.name !== 'string' || !AGENT_NAME_PATTERN.test(definition.name)) {
    throw new ConfigurationError(
      `Agent name must start with a letter and contain only letters, digits, '_', '-' and '.' (at most 64): ${String(definition.name)}`,
    );
  }
  if (definition.model === undefined || definition.model === null) {
    throw new ConfigurationError(`Agent ${definition.name} needs a model`);
  }
  resolveLimits(definition.limits);
  if (definition.downloads !== undefined && typeof definition.downloads !== 'function') {
    throw new ConfigurationError(`Agent ${definition.name}: downloads must be a downloader, e.g. allowDownloads({ allowHosts })`);
  }
  if (definition.detectToolLoops && definition.detectToolLoops !== true) {
    createToolLoopHooks(definition.detectToolLoops, new Set());
  }
  assertNoStaticCollisions(definition);
  assertResultDeclaration(definition);
  return new Agent<ResultOutput<RESULT>>(definition);
}

/** The keys of an agent definition (a key added to `AgentDefinition` must be listed here: the type says so). */
const DEFINITION_KEYS: readonly string[] = Object.keys({
  name: 1, model: 1, instructions: 1, tools: 1, limits: 1, hooks: 1, downloads: 1, settings: 1, toolChoice: 1, models: 1, detectToolLoops: 1,
  result: 1, modelCapabilities: 1, capabilities: 1, instrumentation: 1, captureContent: 1, runtimeHooks: 1,
} satisfies Record<keyof AgentDefinition, 1>);

/** What users of other SDKs reach for, and the Ghostlight key that does it. */
const DEFINITION_EQUIVALENTS: Readonly<Record<string, string>> = Object.freeze({
  system: 'instructions',
  stopWhen: 'limits (maxTurns)',
  temperature: 'settings (temperature)',
  providerOptions: 'settings (providerOptions)',
});

/** A record of tools keyed by name, as AI SDK takes them: AI SDK `tool()` values or Ghostlight tools. */
export type ToolRecord = Readonly<Record<string, Tool<any, any> | AiSdkTool<any, any>>>;

/** What `defineAgent` takes: an {@link AgentDefinition} whose `tools` may also be a {@link ToolRecord}. */
export type AgentDefinitionInput = Omit<AgentDefinition, 'tools'> & { tools?: readonly ToolDeclaration[] | ToolRecord | undefined };

/** The agent's tools as a list: a record (AI SDK's shape) of AI SDK tools, or of Ghostlight tools (named by their own `name`). */
function toolList(tools: AgentDefinitionInput['tools']): readonly ToolDeclaration[] {
  if (tools === undefined || Array.isArray(tools)) return tools ?? [];
  const entries = Object.entries(tools as object);
  const rest = Object.fromEntries(entries.filter(([, tool]) => !isTool(tool)));
  return [...entries.flatMap(([, tool]) => (isTool(tool) ? [tool] : [])), ...(Object.keys(rest).length > 0 ? [rest as ToolDeclaration] : [])];
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
