import { isControlError } from '../error/control-errors.ts';
import { abortReason, isAbortError } from '../util/abort.ts';
import type { Tool } from './tool.ts';
import type { ToolCallBinding } from './tool-binding.ts';
import { ToolError } from './tool-error.ts';
import { isToolResult } from './tool-result.ts';
import { isToolSuspension } from './tool-suspension.ts';
import type { ToolResume } from './tool-suspension.ts';
import type { ToolCallResult } from './tool-result.ts';

/** One requested call: its id, the tool name as called, and the raw arguments. */
export interface ToolCallRequest {
  /** The call id (unique within a model response). */
  readonly toolCallId: string;
  /** The tool name as the model or program called it. */
  readonly toolName: string;
  /** The arguments: parsed JSON, or the raw text when the model sent invalid JSON. */
  readonly input: unknown;
  /** Set when the arguments were not valid JSON (the raw text is in `input`). */
  readonly invalidJson?: boolean;
  /** Continues a call that suspended for approval (becomes `binding.resume`). */
  readonly resume?: ToolResume | undefined;
}

/**
 * Runs one tool call: validates the input, calls `execute`, and normalises
 * the outcome. Validation failures, `ToolError`s and unexpected exceptions all
 * become error results (`execute` is not called for invalid input);
 * cancellation, deadline and cleanup errors propagate as control flow.
 */
export async function invokeTool(
  tool: Tool,
  request: ToolCallRequest,
  binding: ToolCallBinding,
): Promise<ToolCallResult> {
  const base = { toolCallId: request.toolCallId, toolName: request.toolName, input: request.input, caller: binding.caller };
  if (request.invalidJson) {
    return failure(base, 'Invalid tool input: $ must be valid JSON', undefined);
  }
  try {
    const checked = await tool.input.check(request.input);
    if (!checked.success) {
      const message = `Invalid tool input: ${checked.issues.join('; ')}`;
      return failure(base, message, new ToolError(message));
    }
    const output = await tool.execute(checked.value, binding);
    if (isToolSuspension(output)) return { ...base, status: 'success', value: undefined, content: '', artifacts: [], suspended: output };
    if (isToolResult(output)) {
      return { ...base, status: 'success', value: output.value, content: serialize(output.value), artifacts: output.artifacts };
    }
    return { ...base, status: 'success', value: output, content: serialize(output), artifacts: [] };
  } catch (error) {
    if (isControlError(error)) throw error;
    if (binding.signal.aborted && (isAbortError(error) || error === binding.signal.reason)) {
      throw abortReason(binding.signal);
    }
    if (ToolError.isInstance(error)) return failure(base, error.message, error);
    return failure(base, `Tool failed (${errorName(error)})`, error);
  }
}

/** Builds an error result (exported for the executor's own refusals). */
export function failure(
  base: Pick<ToolCallResult, 'toolCallId' | 'toolName' | 'input' | 'caller'>,
  content: string,
  error: unknown,
): ToolCallResult {
  return { ...base, status: 'error', value: undefined, content, error: error ?? new ToolError(content), artifacts: [] };
}

/**
 * The model-visible text of a value: strings as they are, `null`/`undefined`
 * as empty text, objects and arrays as JSON, anything else as `String(value)`.
 */
export function serialize(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value) ?? '';
    } catch (error) {
      throw new ToolError('Tool returned content that cannot be serialized', { cause: error });
    }
  }
  return String(value);
}

/**
 * The class name of a hidden exception as the model may see it: the error's `name`, or its constructor's,
 * when it is a plain identifier of at most 64 characters, else `Error`. A `name` can carry anything (a
 * driver's connection string, a megabyte of text); only an identifier ever reaches the model.
 */
function errorName(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'Error';
  const candidates = [(error as { name?: unknown }).name, (error as { constructor?: { name?: unknown } }).constructor?.name];
  for (const candidate of candidates) if (typeof candidate === 'string' && SAFE_IDENTIFIER.test(candidate)) return candidate;
  return 'Error';
}

const SAFE_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;
