import { NO_RESULT, observationResult, PendingModelCalls } from '../events/pending-model-calls.ts';
import type { PendingModelCall } from '../events/pending-model-calls.ts';
import type { Usage } from '../agent/usage.ts';
import type { GhostlightEvent } from '../events/events.ts';
import { randomId } from '../util/id.ts';
import type { AgUiEvent, AgUiTokenUsage } from './ag-ui-event.ts';

/** Where the AG-UI events belong: the client's thread and run ids. */
export interface AgUiRunIds {
  /** The AG-UI thread (Ghostlight's session id). */
  readonly threadId: string;
  /** The AG-UI run id the client chose (Ghostlight's own run id is a separate value). */
  readonly runId: string;
}

/**
 * Translates one run's Ghostlight events into AG-UI events, in order. One
 * encoder per run: it tracks which text, reasoning and tool-call streams are
 * open so every AG-UI message is started once and closed before the run ends.
 *
 * Tool arguments and results, usage and error text pass through unredacted:
 * authorise the stream before sending it. Encrypted reasoning and provider
 * continuity data never reach these events.
 *
 * @example
 * const encoder = new AgUiEncoder({ threadId, runId });
 * for await (const event of agent.stream(input)) for (const out of encoder.encode(event)) send(out);
 */
export class AgUiEncoder {
  readonly #ids: AgUiRunIds;
  #text: { id: string } | undefined;
  #textSegments = new Map<string, number>();
  #reasoning: { spanId: string; messageId: string } | undefined;
  #openToolCalls = new Set<string>();
  readonly #pending = new PendingModelCalls();
  #usage: Usage | undefined;
  #ended = false;

  constructor(ids: AgUiRunIds) {
    this.#ids = ids;
  }

  /** Whether a terminal AG-UI event (`RUN_FINISHED` or `RUN_ERROR`) was written. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The AG-UI events for one Ghostlight event (often none, sometimes several). */
  encode(event: GhostlightEvent): AgUiEvent[] {
    if (this.#ended) return [];
    const out: AgUiEvent[] = [];
    const timestamp = event.time;
    if (this.#reasoning && event.type !== 'reasoning-delta') this.#closeReasoning(out, timestamp);
    if (event.type === 'tool-approval-request') this.#pending.awaitingApproval(event.toolCallId);
    const terminal = event.type === 'run-stop' || event.type === 'run-partial' || event.type === 'run-cancel' || event.type === 'run-error' || event.type === 'run-waiting';
    if (terminal) {
      this.#closeText(out, timestamp);
      this.#closeToolCalls(out, timestamp);
    }
    if (terminal || event.type === 'model-start') {
      for (const call of this.#pending.drain()) out.push(this.#result(call, NO_RESULT, 'error', timestamp));
    }

    switch (event.type) {
      case 'run-start':
        out.push({ type: 'RUN_STARTED', threadId: this.#ids.threadId, runId: this.#ids.runId, timestamp });
        break;
      case 'trace-context': {
        const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...context } = event;
        out.push(custom('ghostlight.trace_context', context, timestamp));
        break;
      }
      case 'message-start':
        this.#closeText(out, timestamp);
        break;
      case 'reasoning-delta':
        this.#closeText(out, timestamp);
        if (!this.#reasoning) {
          this.#reasoning = { spanId: randomId(), messageId: randomId() };
          out.push({ type: 'REASONING_START', messageId: this.#reasoning.spanId, timestamp });
          out.push({ type: 'REASONING_MESSAGE_START', messageId: this.#reasoning.messageId, role: 'reasoning', timestamp });
        }
        out.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: this.#reasoning.messageId, delta: event.text, timestamp });
        break;
      case 'text-delta':
        if (!this.#text) {
          this.#text = { id: this.#segmentId(event.messageId) };
          out.push({ type: 'TEXT_MESSAGE_START', messageId: this.#text.id, role: 'assistant', timestamp });
        }
        out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: this.#text.id, delta: event.text, timestamp });
        break;
      case 'message-stop':
        this.#closeText(out, timestamp);
        break;
      case 'tool-call-start':
        this.#openToolCalls.add(event.toolCallId);
        out.push({
          type: 'TOOL_CALL_START',
          toolCallId: event.toolCallId,
          toolCallName: event.toolName,
          ...(this.#text ? { parentMessageId: this.#text.id } : {}),
          timestamp,
        });
        break;
      case 'tool-call-delta':
        if (this.#openToolCalls.has(event.toolCallId)) {
          out.push({ type: 'TOOL_CALL_ARGS', toolCallId: event.toolCallId, delta: event.delta, timestamp });
        }
        break;
      case 'tool-call-stop':
        if (this.#openToolCalls.delete(event.toolCallId)) out.push({ type: 'TOOL_CALL_END', toolCallId: event.toolCallId, timestamp });
        this.#pending.called(event);
        break;
      case 'tool-start':
        this.#pending.started(event);
        // A model's own calls are announced by TOOL_CALL_START; calls made by programs are not in the model's stream.
        if (event.caller !== 'model' || event.parentToolCallId !== undefined) {
          out.push(custom('ghostlight.tool_start', {
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            caller: event.caller,
            ...(event.parentToolCallId !== undefined ? { parentToolCallId: event.parentToolCallId } : {}),
            input: event.input,
          }, timestamp));
        }
        break;
      case 'program-start':
        out.push(custom('ghostlight.program.start', { programId: event.programId, source: event.source }, timestamp));
        break;
      case 'program-observe': {
        const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...observation } = event;
        out.push(custom('ghostlight.program.observe', observation, timestamp));
        // A control call (exec, wait, stop) reports through its observation: it becomes the call's TOOL_CALL_RESULT.
        const call = this.#pending.observed();
        if (call) {
          const result = observationResult(event);
          out.push(this.#result(call, JSON.stringify(result.value), result.status, timestamp));
        }
        break;
      }
      case 'tool-stop':
        if (event.caller === 'model' && event.parentToolCallId === undefined) {
          out.push({
            type: 'TOOL_CALL_RESULT',
            messageId: randomId(),
            toolCallId: event.toolCallId,
            content: event.content,
            role: 'tool',
            timestamp,
            metadata: { status: event.status, toolName: event.toolName },
          });
        } else {
          out.push(custom('ghostlight.tool_result', {
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            caller: event.caller,
            ...(event.parentToolCallId !== undefined ? { parentToolCallId: event.parentToolCallId } : {}),
            status: event.status,
            content: event.content,
          }, timestamp));
        }
        break;
      case 'model-retry': {
        // The failed attempt's text and tool calls are superseded: close them, then say so.
        const superseded = this.#text?.id;
        this.#closeText(out, timestamp);
        this.#closeToolCalls(out, timestamp);
        for (const call of this.#pending.drain()) out.push(this.#result(call, 'Superseded: the model call is retried', 'error', timestamp));
        out.push(custom('ghostlight.model_retry', {
          turn: event.turn,
          attempt: event.attempt,
          delay: event.delay,
          errorClass: event.errorClass,
          partialText: event.partialText,
          ...(event.httpStatus !== undefined ? { httpStatus: event.httpStatus } : {}),
          ...(superseded !== undefined ? { supersededMessageId: superseded } : {}),
        }, timestamp));
        break;
      }
      case 'context-compaction': {
        const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...compaction } = event;
        out.push(custom('ghostlight.context_compaction', compaction, timestamp));
        break;
      }
      case 'subagent': {
        const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...lifecycle } = event;
        out.push(custom('ghostlight.subagent', lifecycle, timestamp));
        break;
      }
      case 'assembly-step-start':
      case 'assembly-step-stop':
        // A composite's steps are AG-UI steps; the participant names the step.
        out.push({
          type: event.type === 'assembly-step-start' ? 'STEP_STARTED' : 'STEP_FINISHED',
          stepName: event.participant,
          timestamp,
          metadata: {
            stepId: event.stepId,
            assembly: event.assembly,
            assemblyKind: event.assemblyKind,
            step: event.step,
            ...(event.branchId !== undefined ? { branchId: event.branchId } : {}),
          },
        });
        break;
      case 'assembly-step-error':
      case 'assembly-step-retry':
      case 'assembly-transition':
      case 'assembly-fork':
      case 'assembly-join':
      case 'assembly-handoff-loop': {
        const { type, runId: _runId, sequence: _sequence, time: _time, ...detail } = event;
        out.push(custom('ghostlight.assembly', { event: type.slice('assembly-'.length), ...detail }, timestamp));
        break;
      }
      case 'agent-interjection-delivered':
        this.#closeText(out, timestamp);
        out.push(custom('ghostlight.agent_interjection_delivered', {
          interjectionIds: event.interjectionIds,
          ...(event.batchKey !== undefined ? { batchKey: event.batchKey } : {}),
        }, timestamp));
        break;
      case 'invocation-stop':
      case 'invocation-error':
        this.#usage = event.usage;
        out.push(custom('ghostlight.usage', { usage: event.usage }, timestamp));
        break;
      case 'run-stop':
        out.push({
          type: 'RUN_FINISHED',
          threadId: this.#ids.threadId,
          runId: this.#ids.runId,
          result: typeof event.output === 'string' || event.output === undefined ? { response: event.response } : { response: event.response, output: event.output },
          ...this.#usageField(),
          timestamp,
        });
        this.#ended = true;
        break;
      case 'tool-approval-request': {
        const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...request } = event;
        out.push(custom('ghostlight.tool_approval_request', request, timestamp));
        break;
      }
      case 'tool-approval-response': {
        if (event.parentToolName !== undefined) this.#pending.continued(event.toolCallId, event.parentToolName);
        const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...response } = event;
        out.push(custom('ghostlight.tool_approval_response', response, timestamp));
        break;
      }
      case 'run-waiting':
        // AG-UI's interrupt outcome: one interrupt per pending call; the client answers with RunAgentInput.resume.
        out.push({
          type: 'RUN_FINISHED',
          threadId: this.#ids.threadId,
          runId: this.#ids.runId,
          outcome: {
            type: 'interrupt',
            interrupts: event.approvals.map((approval) => ({
              id: approval.approvalId,
              reason: 'tool_approval',
              message: `Approve the ${approval.toolName} call?`,
              toolCallId: approval.toolCallId,
              metadata: { toolName: approval.toolName, input: approval.input, ...(approval.expiresAt === undefined ? {} : { expiresAt: approval.expiresAt }) },
            })),
          },
          ...this.#usageField(),
          timestamp,
        });
        this.#ended = true;
        break;
      case 'run-partial':
        out.push(custom('ghostlight.run.partial', { response: event.response, message: event.error.message }, timestamp));
        out.push({
          type: 'RUN_FINISHED',
          threadId: this.#ids.threadId,
          runId: this.#ids.runId,
          result: { response: event.response },
          ...this.#usageField(),
          timestamp,
        });
        this.#ended = true;
        break;
      case 'run-cancel':
        out.push(custom('ghostlight.run.canceled', { reason: event.error.message }, timestamp));
        out.push({
          type: 'RUN_FINISHED',
          threadId: this.#ids.threadId,
          runId: this.#ids.runId,
          outcome: { type: 'cancelled' },
          ...this.#usageField(),
          timestamp,
        });
        this.#ended = true;
        break;
      case 'run-error':
        out.push({
          type: 'RUN_ERROR',
          message: event.response || event.error.message,
          code: event.error.name,
          ...this.#usageField(),
          timestamp,
          metadata: { cleanupFailed: event.cleanupFailed },
        });
        this.#ended = true;
        break;
      default:
        break;
    }
    return out;
  }

  /**
   * Closes whatever is open and ends the run with `RUN_ERROR`, for a log that
   * ended without a terminal event (a run that could not start). No-op after
   * a terminal event.
   */
  fail(message: string, code = 'Error'): AgUiEvent[] {
    if (this.#ended) return [];
    const out: AgUiEvent[] = [];
    const timestamp = Date.now();
    this.#closeReasoning(out, timestamp);
    this.#closeText(out, timestamp);
    this.#closeToolCalls(out, timestamp);
    out.push({ type: 'RUN_ERROR', message, code, timestamp, metadata: { cleanupFailed: false } });
    this.#ended = true;
    return out;
  }

  #result(call: PendingModelCall, content: string, status: 'success' | 'error', timestamp: number): AgUiEvent {
    return { type: 'TOOL_CALL_RESULT', messageId: randomId(), toolCallId: call.toolCallId, content, role: 'tool', timestamp, metadata: { status, toolName: call.toolName } };
  }

  #segmentId(messageId: string): string {
    const seen = this.#textSegments.get(messageId) ?? 0;
    this.#textSegments.set(messageId, seen + 1);
    return seen === 0 ? messageId : `${messageId}.${seen + 1}`;
  }

  #closeText(out: AgUiEvent[], timestamp: number): void {
    if (!this.#text) return;
    out.push({ type: 'TEXT_MESSAGE_END', messageId: this.#text.id, timestamp });
    this.#text = undefined;
  }

  #closeReasoning(out: AgUiEvent[], timestamp: number): void {
    if (!this.#reasoning) return;
    out.push({ type: 'REASONING_MESSAGE_END', messageId: this.#reasoning.messageId, timestamp });
    out.push({ type: 'REASONING_END', messageId: this.#reasoning.spanId, timestamp });
    this.#reasoning = undefined;
  }

  #closeToolCalls(out: AgUiEvent[], timestamp: number): void {
    for (const toolCallId of this.#openToolCalls) out.push({ type: 'TOOL_CALL_END', toolCallId, timestamp });
    this.#openToolCalls.clear();
  }

  #usageField(): { usage?: AgUiTokenUsage[] } {
    return this.#usage ? { usage: [toTokenUsage(this.#usage)] } : {};
  }
}

/** Converts Ghostlight usage (AI SDK's totals with details) to AG-UI's totals-with-parts accounting. */
export function toTokenUsage(usage: Usage): AgUiTokenUsage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    reasoningTokens: usage.outputTokenDetails.reasoningTokens,
    cachedInputTokens: usage.inputTokenDetails.cacheReadTokens,
    cacheWriteInputTokens: usage.inputTokenDetails.cacheWriteTokens,
  };
}

function custom(name: string, value: unknown, timestamp: number): AgUiEvent {
  return { type: 'CUSTOM', name, value, timestamp };
}
