import type { ModelMessage } from 'ai';
import type { Tool } from '../tool/tool.ts';
import type { RunHandle, RunState, ToolCallBinding } from '../tool/tool-binding.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import type { Step } from './step.ts';

/**
 * What a hook decides: nothing (continue), replace the subject, or cancel.
 * Use the {@link replace} and {@link cancel} helpers to build decisions.
 */
export type HookDecision<T> = void | undefined | { readonly replace: T } | { readonly cancel: string };

/** Replaces the hook's subject (the request messages, or a tool result). */
export function replace<T>(value: T): { readonly replace: T } {
  return { replace: value };
}

/** Cancels: a tool call becomes an error result with `reason`; a model call cancels the run. */
export function cancel(reason: string): { readonly cancel: string } {
  return { cancel: reason };
}

/** What `beforeModel` hooks see. Replace the messages to change the request. */
export interface BeforeModelEvent {
  readonly run: RunHandle;
  readonly state: RunState;
  readonly turn: number;
  readonly messages: readonly ModelMessage[];
}

/** What `afterModel` hooks see. */
export interface AfterModelEvent {
  readonly run: RunHandle;
  readonly state: RunState;
  readonly turn: number;
  readonly step: Step;
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

/** A hook, or several run in order. */
export type Hooks<EVENT, DECISION> = ((event: EVENT) => DECISION | Promise<DECISION>) | ReadonlyArray<(event: EVENT) => DECISION | Promise<DECISION>>;

/**
 * Callbacks around model and tool calls, run in declaration order. A
 * decision stops the chain: `cancel` in `beforeTool` turns the call into an
 * error result the model sees; `cancel` in `beforeModel` cancels the run;
 * `replace` swaps the messages (`beforeModel`) or the result (`afterTool`).
 * Hooks apply to every call, whoever makes it (the model or code mode).
 */
export interface AgentHooks {
  beforeModel?: Hooks<BeforeModelEvent, HookDecision<readonly ModelMessage[]>>;
  afterModel?: Hooks<AfterModelEvent, void>;
  beforeTool?: Hooks<BeforeToolEvent, HookDecision<never>>;
  afterTool?: Hooks<AfterToolEvent, HookDecision<ToolCallResult>>;
}

/** Hooks as arrays, ready to run. */
export interface HookChains {
  beforeModel: Array<(event: BeforeModelEvent) => HookDecision<readonly ModelMessage[]> | Promise<HookDecision<readonly ModelMessage[]>>>;
  afterModel: Array<(event: AfterModelEvent) => void | Promise<void>>;
  beforeTool: Array<(event: BeforeToolEvent) => HookDecision<never> | Promise<HookDecision<never>>>;
  afterTool: Array<(event: AfterToolEvent) => HookDecision<ToolCallResult> | Promise<HookDecision<ToolCallResult>>>;
}

/** Merges hook sets in order (earlier sets run first). */
export function chainHooks(...sets: ReadonlyArray<AgentHooks | undefined>): HookChains {
  const chains: HookChains = { beforeModel: [], afterModel: [], beforeTool: [], afterTool: [] };
  for (const set of sets) {
    if (!set) continue;
    chains.beforeModel.push(...toArray(set.beforeModel));
    chains.afterModel.push(...toArray(set.afterModel));
    chains.beforeTool.push(...toArray(set.beforeTool));
    chains.afterTool.push(...toArray(set.afterTool));
  }
  return chains;
}

/**
 * Runs a chain until a hook decides. `replace` decisions feed the next hook
 * through `update`; a `cancel` stops the chain and is returned.
 */
export async function runChain<EVENT, T>(
  chain: ReadonlyArray<(event: EVENT) => HookDecision<T> | Promise<HookDecision<T>>>,
  event: EVENT,
  update: (event: EVENT, value: T) => EVENT,
): Promise<{ event: EVENT; cancel?: string }> {
  let current = event;
  for (const hook of chain) {
    const decision = await hook(current);
    if (!decision) continue;
    if ('cancel' in decision) return { event: current, cancel: decision.cancel };
    if ('replace' in decision) current = update(current, decision.replace);
  }
  return { event: current };
}

function toArray<T>(value: T | ReadonlyArray<T> | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...value] : [value as T];
}
