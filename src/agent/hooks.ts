import type { ModelMessage } from 'ai';
import type { FinishReason } from '../events/events.ts';
import type { Tool } from '../tool/tool.ts';
import type { RunHandle, RunState, ToolCallBinding } from '../tool/tool-binding.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import type { ModelSettings } from './model-step.ts';
import type { Usage } from './usage.ts';

/**
 * What a hook decides: nothing (`undefined`: continue with the subject as it
 * is), replace the subject, or cancel. Build decisions with {@link replace}
 * and {@link cancel}.
 */
export type HookDecision<T> = void | undefined | { readonly replace: T } | { readonly cancel: string };

/** Replaces the hook's subject (the messages, the request, the response, the result); later hooks see the replacement. */
export function replace<T>(value: T): { readonly replace: T } {
  return { replace: value };
}

/**
 * Cancels: in `beforeTool` the call becomes an error result with `reason`
 * (model-visible, so keep it safe to disclose); in every other hook the run
 * ends `cancelled` (`CancelledError` with `reason`).
 */
export function cancel(reason: string): { readonly cancel: string } {
  return { cancel: reason };
}

const prepended = Symbol.for('ghostlight.hook.prepend');

/**
 * Marks a hook to run before every hook that is not marked, whoever declared
 * it (a capability's hooks run before the agent's own otherwise). Marked hooks
 * keep their declaration order among themselves.
 *
 * @example
 * hooks: { beforeModel: prepend(({ request }) => replace({ ...request, settings: { ...request.settings, temperature: 0 } })) }
 */
export function prepend<HOOK extends (event: never) => unknown>(hook: HOOK): HOOK {
  const marked = ((event: never) => hook(event)) as HOOK;
  Object.defineProperty(marked, prepended, { value: true });
  return marked;
}

/** One model request, as hooks see it and may replace it. */
export interface ModelRequest {
  /** The system instructions (prompt views, capability instructions included). */
  readonly instructions: string | undefined;
  /** The conversation: history, the input and every completed turn. A replacement is what the run continues with. */
  readonly messages: readonly ModelMessage[];
  /** The tools offered this turn (calls still go through the run's executor, which knows only the run's tools). */
  readonly tools: readonly Tool[];
  /** The provider settings of this call (`maxOutputTokens` is clamped to the model's ceiling). */
  readonly settings: ModelSettings;
}

/** One model response. */
export interface ModelResponse {
  /** The assistant text. */
  readonly text: string;
  /** The reasoning text, when the provider exposed it. */
  readonly reasoning: string;
  /** The tool calls the model asked for, in request order. */
  readonly toolCalls: readonly ToolCallRequest[];
  /** Why the model stopped. */
  readonly finishReason: FinishReason;
  /** Tokens this call used. */
  readonly usage: Usage;
  /**
   * The assistant message the conversation gets (provider metadata kept for
   * continuity). A replacement that changes `text` or `toolCalls` but keeps
   * this array gets a message rebuilt from them.
   */
  readonly messages: readonly ModelMessage[];
}

/** What a completed invocation hands back, as `afterInvocation` hooks may replace it. */
export interface InvocationResult {
  /** The caller-facing text. */
  readonly response: string;
  /** The run's output: the checked structured value, or the text (a replacement is not checked again). */
  readonly output: unknown;
  /** The whole conversation the run ends with (what a session keeps). */
  readonly messages: readonly ModelMessage[];
}

/** What every hook of a run sees. */
export interface RunHookContext {
  readonly run: RunHandle;
  /** The run's mutable working state. */
  readonly state: RunState;
}

/** What `beforeInvocation` hooks see: the conversation the first turn starts from. Replace the messages to change it. */
export interface BeforeInvocationEvent extends RunHookContext {
  readonly messages: readonly ModelMessage[];
}

/** What `afterInvocation` hooks see: the completed invocation's result. Replace it to change what the run returns. */
export interface AfterInvocationEvent extends RunHookContext {
  readonly result: InvocationResult;
}

/** What `beforeModel` hooks see. Replace the request to change what is sent (and what the conversation continues with). */
export interface BeforeModelEvent extends RunHookContext {
  /** The turn, from 1. */
  readonly turn: number;
  readonly request: ModelRequest;
}

/** What `afterModel` hooks see. Replace the response to change what the run does with it. */
export interface AfterModelEvent extends RunHookContext {
  readonly turn: number;
  readonly request: ModelRequest;
  readonly response: ModelResponse;
}

/**
 * What `afterModelError` hooks see: a model call that failed after its
 * retries. Replace the request to try again with it (at most three times per
 * turn); otherwise the error ends the run. Cancellation, the deadline and
 * `CleanupError` never reach these hooks.
 */
export interface AfterModelErrorEvent extends RunHookContext {
  readonly turn: number;
  readonly request: ModelRequest;
  /** The failure: `ContextWindowOverflowError`, `ProviderError`, `ProtocolError`… */
  readonly error: unknown;
  /** How many times this turn was already recovered (0, 1 or 2). */
  readonly recovery: number;
}

/** What `beforeTool` hooks see (only for tools the run has). */
export interface BeforeToolEvent {
  readonly toolCall: ToolCallRequest;
  readonly tool: Tool;
  readonly binding: ToolCallBinding;
}

/** What `afterTool` hooks see: the normalised result, including the original error of a failed call. */
export interface AfterToolEvent extends BeforeToolEvent {
  readonly result: ToolCallResult;
}

/** A hook function. */
export type Hook<EVENT, DECISION> = (event: EVENT) => DECISION | Promise<DECISION>;

/** A hook, or several run in order. */
export type Hooks<EVENT, DECISION> = Hook<EVENT, DECISION> | ReadonlyArray<Hook<EVENT, DECISION>>;

/**
 * Callbacks around the invocation, each model call and each tool call, run in
 * declaration order (hooks marked with {@link prepend} first). A `replace`
 * feeds the next hook; a `cancel` stops the chain. Tool hooks apply to every
 * call, whoever makes it (the model, code mode, the application).
 *
 * | hook | replace | cancel |
 * |---|---|---|
 * | `beforeInvocation` | the starting messages | the run is cancelled |
 * | `afterInvocation` | the result (response, output, messages) | the run is cancelled |
 * | `beforeModel` | the request | the run is cancelled |
 * | `afterModel` | the response | the run is cancelled |
 * | `afterModelError` | the request: the call is retried with it (≤ 3 per turn) | the run is cancelled |
 * | `beforeTool` | — | the call becomes an error result with the reason |
 * | `afterTool` | the result | — |
 */
export interface AgentHooks {
  beforeInvocation?: Hooks<BeforeInvocationEvent, HookDecision<readonly ModelMessage[]>>;
  afterInvocation?: Hooks<AfterInvocationEvent, HookDecision<InvocationResult>>;
  beforeModel?: Hooks<BeforeModelEvent, HookDecision<ModelRequest>>;
  afterModel?: Hooks<AfterModelEvent, HookDecision<ModelResponse>>;
  afterModelError?: Hooks<AfterModelErrorEvent, HookDecision<ModelRequest>>;
  beforeTool?: Hooks<BeforeToolEvent, HookDecision<never>>;
  afterTool?: Hooks<AfterToolEvent, HookDecision<ToolCallResult>>;
}

type Chain<EVENT, T> = Array<Hook<EVENT, HookDecision<T>>>;

/** Hooks as arrays, ready to run. */
export interface HookChains {
  beforeInvocation: Chain<BeforeInvocationEvent, readonly ModelMessage[]>;
  afterInvocation: Chain<AfterInvocationEvent, InvocationResult>;
  beforeModel: Chain<BeforeModelEvent, ModelRequest>;
  afterModel: Chain<AfterModelEvent, ModelResponse>;
  afterModelError: Chain<AfterModelErrorEvent, ModelRequest>;
  beforeTool: Chain<BeforeToolEvent, never>;
  afterTool: Chain<AfterToolEvent, ToolCallResult>;
}

const HOOK_NAMES = ['beforeInvocation', 'afterInvocation', 'beforeModel', 'afterModel', 'afterModelError', 'beforeTool', 'afterTool'] as const;

/** Merges hook sets in order (earlier sets run first), hooks marked with `prepend` before all others. */
export function chainHooks(...sets: ReadonlyArray<AgentHooks | undefined>): HookChains {
  const chains = Object.fromEntries(HOOK_NAMES.map((name) => [name, [] as unknown[]])) as unknown as HookChains;
  for (const name of HOOK_NAMES) {
    const all = sets.flatMap((set) => toArray(set?.[name] as Hooks<unknown, unknown> | undefined));
    const first = all.filter((hook) => prepended in hook);
    (chains[name] as unknown[]).push(...first, ...all.filter((hook) => !(prepended in hook)));
  }
  return chains;
}

/**
 * Runs a chain until a hook cancels. `replace` decisions feed the next hook
 * through `update`; `replaced` says whether any hook replaced the subject.
 */
export async function runChain<EVENT, T>(
  chain: ReadonlyArray<Hook<EVENT, HookDecision<T>>>,
  event: EVENT,
  update: (event: EVENT, value: T) => EVENT,
): Promise<{ event: EVENT; cancel?: string; replaced: boolean }> {
  let current = event;
  let replaced = false;
  for (const hook of chain) {
    const decision = await hook(current);
    if (!decision) continue;
    if ('cancel' in decision) return { event: current, cancel: decision.cancel, replaced };
    if ('replace' in decision) {
      current = update(current, decision.replace);
      replaced = true;
    }
  }
  return { event: current, replaced };
}

function toArray<T>(value: T | ReadonlyArray<T> | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...value] : [value as T];
}
