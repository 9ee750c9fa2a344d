import type { ModelMessage, UserModelMessage } from 'ai';
import type { Run } from '../agent/run.ts';
import type { ErrorInfo } from '../events/events.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import { errorName } from './assembly-execution.ts';

/** A completed node's result, as conditions and mappers see it (a frozen copy). */
export interface NodeResult {
  /** The node's output: its checked structured value, or its text. */
  readonly output: unknown;
  /** Its caller-facing text. */
  readonly response: string;
}

/**
 * What edge conditions and input mappers read: a frozen copy of the routing
 * data, so they cannot change the running graph. It carries the caller's
 * history and context even when the destination node does not receive them.
 */
export interface GraphState {
  /** The graph's input. */
  readonly input: UserModelMessage;
  /** The text of the input. */
  readonly text: string;
  readonly history: readonly ModelMessage[];
  readonly context: Readonly<Record<string, unknown>>;
  /** The count of node runs so far, this one included (shared across branches). */
  readonly step: number;
  /** The node being left (conditions) or entered (mappers). */
  readonly current: string;
  /** The single predecessor supplying `current`, when there is one. */
  readonly previous: string | undefined;
  /** The predecessors of a fan-in, in declaration order. */
  readonly predecessors: readonly string[];
  /** Every completed node's result. */
  readonly results: Readonly<Record<string, NodeResult>>;
  /** The immediate predecessors' results (a fan-in's). */
  readonly incomingResults: Readonly<Record<string, NodeResult>>;
  /** The failure an error edge routed here (name and message). */
  readonly error: ErrorInfo | undefined;
  /** A completed node's result. */
  result(name: string): NodeResult | undefined;
  /** The result of `previous`. */
  readonly previousResult: NodeResult | undefined;
}

/** The parts of a state that stay the same through one graph run (copied and frozen once). */
export interface StateBase {
  readonly input: UserModelMessage;
  readonly text: string;
  readonly history: readonly ModelMessage[];
  readonly context: Readonly<Record<string, unknown>>;
}

/** A frozen copy of a run's result for the routing state. */
export function nodeResult(run: Run): NodeResult {
  return deepFreeze({ output: structuredClone(run.output), response: run.response });
}

/** The frozen record of results a state carries. */
export function resultsRecord(results: ReadonlyMap<string, NodeResult>): Readonly<Record<string, NodeResult>> {
  return Object.freeze(Object.fromEntries(results));
}

/** Builds one frozen routing state. */
export function graphState(
  base: StateBase,
  fields: {
    step: number;
    current: string;
    previous?: string | undefined;
    predecessors?: readonly string[];
    /** Every completed node's result (a frozen record: build it once per change with {@link resultsRecord}). */
    results: Readonly<Record<string, NodeResult>>;
    incoming?: ReadonlyMap<string, NodeResult> | undefined;
    error?: unknown;
  },
): GraphState {
  const { results } = fields;
  const incoming = Object.freeze(Object.fromEntries(fields.incoming ?? []));
  const error = fields.error === undefined ? undefined : Object.freeze({ name: errorName(fields.error), message: String((fields.error as { message?: unknown })?.message ?? '') });
  return Object.freeze({
    ...base,
    step: fields.step,
    current: fields.current,
    previous: fields.previous,
    predecessors: Object.freeze([...(fields.predecessors ?? [])]),
    results,
    incomingResults: incoming,
    error,
    result: (name: string) => results[name],
    previousResult: fields.previous !== undefined ? results[fields.previous] : undefined,
  });
}
