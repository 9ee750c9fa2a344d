import { ProtocolError } from '../error/protocol-error.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { EventPayload } from '../events/events.ts';
import { invokeTool, failure } from '../tool/invoke-tool.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolBinding, ToolCallBinding, ToolCaller } from '../tool/tool-binding.ts';
import type { ToolBroker, ToolBrokerCallOptions } from '../tool/tool-broker.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import type { RunTools } from '../tool/run-tools.ts';
import { throwIfAborted } from '../util/abort.ts';
import { Semaphore } from '../util/semaphore.ts';
import { boundedValue } from '../util/json-preview.ts';
import { truncateMiddle } from '../util/truncate.ts';
import { runChain } from './hooks.ts';
import type { HookChains } from './hooks.ts';
import type { ResolvedLimits } from './limits.ts';

/**
 * Processes a result after `afterTool` hooks and before truncation (artifact
 * storage and presentation plug in here). Throwing fails the run.
 */
export type ToolResultProcessor = (result: ToolCallResult, tool: Tool | undefined) => Promise<ToolCallResult> | ToolCallResult;

/**
 * Checks a call before it runs (capability-drift checks plug in here).
 * Throwing fails the run; it is not a tool result.
 */
export type ToolCallGuard = (tool: Tool, request: ToolCallRequest) => Promise<void> | void;

/** What the executor needs from its run. */
export interface ToolExecutorOptions {
  tools: RunTools;
  binding: ToolBinding;
  hooks: HookChains;
  limits: ResolvedLimits;
  emit: (event: EventPayload) => void;
  /** The run-wide lock exclusive tools share (with code mode and nested agents). */
  exclusiveLock: Semaphore;
  /** Tools that control the loop itself (code mode's exec/wait/stop): not counted, no events, no lock. */
  controlTools?: ReadonlySet<string>;
  /** The tools the model may call; a model call to any other is `Unknown tool`. All tools when unset. */
  modelFacing?: ReadonlySet<string>;
  processors?: readonly ToolResultProcessor[];
  guards?: readonly ToolCallGuard[];
  /** Counted tool calls the run already made (a run continued after approvals). */
  initialToolCalls?: number;
}

/** The error result of a program's call to a tool that needs approval when nothing can suspend the program. */
export const CODE_APPROVAL_REFUSED = 'needs a person\'s approval, which a program cannot ask for here; call it directly instead';

/**
 * The one way a tool runs in a run, for the model, code mode and the
 * application alike: look up, hooks, validation, exclusive lock, `execute`,
 * normalisation, result processing, truncation, events.
 */
export class ToolExecutor implements ToolBroker {
  #options: ToolExecutorOptions;
  #toolCalls = 0;

  constructor(options: ToolExecutorOptions) {
    this.#options = options;
    this.#toolCalls = options.initialToolCalls ?? 0;
  }

  /**
   * Whether a model's call waits for approval: its tool's `needsApproval` is
   * true, or its function says so for the validated input. Unknown tools and
   * invalid input never wait (they become error results at once).
   */
  async needsApproval(request: ToolCallRequest, caller: ToolCaller = 'model'): Promise<boolean> {
    const options = this.#options;
    if (request.invalidJson || this.#isControl(request)) return false;
    if (caller === 'model' && options.modelFacing !== undefined && !options.modelFacing.has(request.toolName)) return false;
    const tool = options.tools.get(request.toolName);
    const rule = tool?.needsApproval;
    if (!tool || !rule) return false;
    if (rule === true) return true;
    const checked = await tool.input.check(request.input);
    if (!checked.success) return false;
    return (await rule(checked.value, { ...options.binding, toolCallId: request.toolCallId, caller })) === true;
  }

  /** Counts calls against `maxToolCalls` now (a batch that waits for approval is counted when it stops). */
  countCalls(requests: readonly ToolCallRequest[]): void {
    this.#count(requests.filter((request) => !this.#isControl(request)).length);
  }

  /** Restricts what the model may call and marks loop-control tools (set once tools are arranged). */
  arrange(modelFacing: ReadonlySet<string>, controlTools: ReadonlySet<string>): void {
    this.#options = { ...this.#options, modelFacing, controlTools };
  }

  /** How many counted tool calls the run has made. */
  get toolCalls(): number {
    return this.#toolCalls;
  }

  /** The tools of the run. */
  list(): Tool[] {
    return this.#options.tools.list();
  }

  /**
   * Runs one model response's calls. Counts them against `maxToolCalls` before
   * any runs, emits `tool-start` for all, runs them (one at a time when any is
   * exclusive, otherwise up to `toolConcurrency` at once), emits `tool-stop`
   * as each finishes, and returns the results in request order.
   */
  async executeBatch(requests: readonly ToolCallRequest[], caller: ToolCaller = 'model', operation?: Operation, counted = false): Promise<ToolCallResult[]> {
    const ids = new Set(requests.map((request) => request.toolCallId));
    if (ids.size !== requests.length) throw new ProtocolError('The model returned duplicate tool use ids');
    if (!counted) this.#count(requests.filter((request) => !this.#isControl(request)).length);
    for (const request of requests) this.#emitStart(request, caller, undefined);

    const sequential = requests.some((request) => this.#options.tools.get(request.toolName)?.exclusive === true);
    if (sequential) {
      const results: ToolCallResult[] = [];
      for (const request of requests) results.push(await this.#runAndReport(request, caller, undefined, operation));
      return results;
    }
    const slots = new Semaphore(this.#options.limits.toolConcurrency);
    return Promise.all(requests.map((request) => slots.run(() => this.#runAndReport(request, caller, undefined, operation))));
  }

  /** Makes one call for a caller outside the loop (code mode, the application). */
  async call(request: ToolCallRequest, options: ToolBrokerCallOptions): Promise<ToolCallResult> {
    this.#count(1);
    this.#emitStart(request, options.caller, options.parentToolCallId);
    return this.#runAndReport(request, options.caller, options.parentToolCallId, options.parent ?? this.#options.binding.operation, options.onApproval);
  }

  #count(calls: number): void {
    if (calls === 0) return;
    if (this.#toolCalls + calls > this.#options.limits.maxToolCalls) {
      throw new ProtocolError('The agent reached its maximum tool calls');
    }
    this.#toolCalls += calls;
  }

  /** The name events and results report: a registry tool's id (`atlas.search`), otherwise the name as called. */
  #reportedName(calledName: string): string {
    return this.#options.tools.get(calledName)?.id ?? calledName;
  }

  #isControl(request: ToolCallRequest): boolean {
    return this.#options.controlTools?.has(request.toolName) === true;
  }

  #emitStart(request: ToolCallRequest, caller: ToolCaller, parentToolCallId: string | undefined): void {
    if (this.#isControl(request)) return;
    this.#options.emit({
      type: 'tool-start',
      toolCallId: request.toolCallId,
      toolName: this.#reportedName(request.toolName),
      input: recorded(request.input, caller),
      caller,
      ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
    });
  }

  async #runAndReport(
    request: ToolCallRequest,
    caller: ToolCaller,
    parentToolCallId: string | undefined,
    parent: Operation | undefined,
    onApproval?: ToolBrokerCallOptions['onApproval'],
  ): Promise<ToolCallResult> {
    const started = performance.now();
    const operation = parent?.start(
      'tool',
      { toolName: this.#reportedName(request.toolName), toolCallId: request.toolCallId, caller, toolType: 'function', control: this.#isControl(request) || undefined, parentToolCallId },
      { input: request.input },
    );
    let ran: ToolCallResult;
    try {
      ran = await this.#run(request, caller, operation, onApproval);
    } catch (error) {
      operation?.finish({}, error);
      throw error;
    }
    operation?.finish({ status: ran.status }, ran.status === 'error' ? (ran.error ?? new Error(ran.content)) : undefined, { output: ran.status === 'error' ? undefined : ran.content });
    const reported = this.#reportedName(request.toolName);
    const result = reported === ran.toolName ? ran : { ...ran, toolName: reported };
    if (!this.#isControl(request)) {
      this.#options.emit({
        type: 'tool-stop',
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        caller,
        ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
        status: result.status,
        content: result.content,
        value: recorded(result.value, caller),
        durationMs: performance.now() - started,
      });
    }
    return result;
  }

  async #run(request: ToolCallRequest, caller: ToolCaller, operation: Operation | undefined, onApproval?: ToolBrokerCallOptions['onApproval']): Promise<ToolCallResult> {
    const options = this.#options;
    throwIfAborted(options.binding.signal);
    const base = { toolCallId: request.toolCallId, toolName: request.toolName, input: request.input, caller };
    const hidden = caller === 'model' && options.modelFacing !== undefined && !options.modelFacing.has(request.toolName);
    const tool = hidden ? undefined : options.tools.get(request.toolName);
    if (!tool) return this.#finish(failure(base, `Unknown tool: ${request.toolName}`, undefined), undefined);

    for (const guard of options.guards ?? []) await guard(tool, request);
    if (caller === 'code' && tool.needsApproval && (await this.needsApproval(request, caller))) {
      const decision = onApproval ? await onApproval(request, tool) : undefined;
      if (decision === undefined) return this.#finish(failure(base, `Tool ${request.toolName} ${CODE_APPROVAL_REFUSED}`, undefined), tool);
      if (decision !== 'approved') return this.#finish(decision, tool);
    }
    const binding: ToolCallBinding = {
      ...options.binding,
      toolCallId: request.toolCallId,
      caller,
      ...(operation ? { operation } : {}),
      ...(request.resume ? { resume: request.resume } : {}),
    };
    const before = await runChain(options.hooks.beforeTool, { toolCall: request, tool, binding }, (event) => event);
    if (before.cancel !== undefined) return this.#finish(failure(base, before.cancel, undefined), tool);

    const invoke = () => invokeTool(tool, request, binding);
    let result = tool.exclusive && !this.#isControl(request) ? await options.exclusiveLock.run(invoke) : await invoke();
    const after = await runChain(
      options.hooks.afterTool,
      { toolCall: request, tool, binding, result },
      (event, replacement) => ({ ...event, result: replacement }),
    );
    result = after.event.result;
    return this.#finish(result, tool);
  }

  async #finish(result: ToolCallResult, tool: Tool | undefined): Promise<ToolCallResult> {
    let processed = result;
    for (const processor of this.#options.processors ?? []) processed = await processor(processed, tool);
    const { text } = truncateMiddle(processed.content, this.#options.limits.maxToolResultTokens);
    return text === processed.content ? processed : { ...processed, content: text };
  }
}

/**
 * What events keep of a call's arguments and value. A model's calls are kept whole (the model's output is
 * bounded by its token limits); calls from code mode and the application can carry megabytes, and the event
 * log lives as long as the run, so past `PREVIEW_CHARS` of JSON they carry a `{ truncated: true, preview }`.
 */
function recorded(value: unknown, caller: ToolCaller): unknown {
  return caller === 'model' ? value : boundedValue(value);
}
